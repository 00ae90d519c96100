import type { Browser, Page } from 'playwright-core';
import type { Schemas } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { DESKTOP, describeWithBrowser, launchBrowser, openConsole, originOf, signIn } from '../support/console-browser.js';

type Group = Schemas['FiscalGroupResponseDto'];

const PREPARED_FOOD = '21069090';
const SODA = '22021000';
/** Prepared food at 18 % ICMS; soda at 18.5 %, a rate with a decimal to show in each language. */
const MATRIX = {
  [PREPARED_FOOD]: {
    NCM: PREPARED_FOOD,
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 1.65,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
  },
  [SODA]: { NCM: SODA, CEST: '', CST_ICMS: '00', ICMS_rate: 18.5, CST_PIS: '01', PIS_rate: 1.65, CST_COFINS: '01', COFINS_rate: 7.6 },
};

/** A midnight `days` ahead in São Paulo (UTC−03:00), as the API takes it. */
function midnightAhead(days: number): string {
  return `${new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10)}T03:00:00.000Z`;
}

/** The cells of a table's body rows, as text. */
async function bodyRows(page: Page, name: string): Promise<string[][]> {
  const table = page.getByRole('table', { name, exact: true });
  await table.waitFor();
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map(async (row) => (await row.locator('td').allTextContents()).map((text) => text.trim())));
}

describeWithBrowser('admin console: the small things people notice (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let token: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    token = await t.adminToken();
    for (const [productId, ncm] of [
      ['small-burger', PREPARED_FOOD],
      ['small-soda', SODA],
    ] as const)
      expect((await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token })).status).toBe(
        201,
      );
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A group of its own store, named `Small things N`. */
  async function group(): Promise<{ group: Group; storeId: string }> {
    sequence += 1;
    const storeId = `store-small-${sequence}`;
    const created = await t.http.post<Group>(
      '/admin/fiscal-groups',
      { name: `Small things ${sequence}`, uf: 'SP', stores: [{ store_id: storeId, store_name: 'Small store' }], taxMatrix: MATRIX },
      { token },
    );
    expect(created.status).toBe(201);
    return { group: created.body, storeId };
  }

  it('names the group on its Revisions tab, as on every tab', async () => {
    const { group: made } = await group();
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/fiscal-groups/${made.id}?tab=revisions`);
    await page.getByRole('table', { name: 'Revisions of the group' }).waitFor();
    await expect(page.getByRole('heading', { level: 1 }).allTextContents()).resolves.toEqual([`Fiscal group ${made.name}`]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the banner of a scheduled change under the page title, not above it', async () => {
    const { group: made } = await group();
    const scheduled = await t.http.put(
      `/admin/fiscal-groups/${made.id}`,
      { taxMatrix: { ...MATRIX, [PREPARED_FOOD]: { ...MATRIX[PREPARED_FOOD], ICMS_rate: 20 } } },
      { token, query: { effectiveFrom: midnightAhead(30) } },
    );
    expect(scheduled.status).toBe(200);
    const { page, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/fiscal-groups/${made.id}`);
    const title = page.getByRole('heading', { level: 1, name: `Fiscal group ${made.name}` });
    const banner = page.getByTestId('scheduled-2');
    await Promise.all([title.waitFor(), banner.waitFor()]);
    const [titleBox, bannerBox] = await Promise.all([title.boundingBox(), banner.boundingBox()]);
    expect(bannerBox!.y).toBeGreaterThan(titleBox!.y + titleBox!.height);
    await context.close();
  });

  it('shows rates with the language’s decimal separator and marks the cells not saved yet', async () => {
    const { group: made } = await group();
    const english = await openConsole(browser, { viewport: DESKTOP });
    await signIn(english.page, origin, `/console/fiscal-groups/${made.id}`);
    await expect(english.page.getByLabel(`ICMS rate for NCM ${SODA}`, { exact: true }).inputValue()).resolves.toBe('18.5');
    await english.context.close();

    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP, locale: 'pt-BR' });
    await signIn(page, origin, `/console/fiscal-groups/${made.id}`);
    const soda = page.getByLabel(`Alíquota do ICMS do NCM ${SODA}`, { exact: true });
    const sodaPis = page.getByLabel(`Alíquota do PIS do NCM ${SODA}`, { exact: true });
    await expect(soda.inputValue()).resolves.toBe('18,5');
    await expect(sodaPis.inputValue()).resolves.toBe('1,65');
    expect(await page.locator('[data-unsaved]').count()).toBe(0);

    // The same rate written with a point is not a change; another one is, and is marked until saved.
    await soda.fill('18.5');
    expect(await soda.getAttribute('data-unsaved')).toBeNull();
    await sodaPis.fill('2,1');
    await expect(sodaPis.getAttribute('data-unsaved')).resolves.toBe('true');
    await expect(page.getByTestId('matrix-unsaved').textContent()).resolves.toBe('1 célula alterada ainda não salva.');
    // The mark is seen, not only named: the changed cell's background differs from its neighbour's.
    const background = (label: string) =>
      page.evaluate(`getComputedStyle(document.querySelector('[aria-label="${label}"]')).backgroundColor`);
    const [marked, plain] = await Promise.all([
      background(`Alíquota do PIS do NCM ${SODA}`),
      background(`Alíquota do ICMS do NCM ${SODA}`),
    ]);
    expect(marked).not.toBe(plain);

    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByRole('status').filter({ hasText: 'Salvo.' }).waitFor();
    await expect(sodaPis.inputValue()).resolves.toBe('2,1');
    expect(await page.locator('[data-unsaved]').count()).toBe(0);
    expect((await t.http.get<Group>(`/admin/fiscal-groups/${made.id}`, { token })).body.taxMatrix[SODA]!.PIS_rate).toBe(2.1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('names the products in the impact preview, not their place in the payload', async () => {
    const { group: made, storeId } = await group();
    const products = [
      { productId: 'small-burger', name: 'Smash burger', quantity: 1, price: { totalPrice: { total: 30 } } },
      { productId: 'small-soda', name: 'Guaraná can', quantity: 1, price: { totalPrice: { total: 10 } } },
    ];
    const stored = await t.http.post(
      '/enrich-order',
      {
        orderId: `SMALL-IMPACT-${sequence}`,
        source: 'console',
        store: { id: storeId, name: 'Small store' },
        order: { type: 'DELIVERY', products },
      },
      { token },
    );
    expect(stored.status).toBe(200);
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/fiscal-groups/${made.id}`);
    await page.getByLabel(`ICMS rate for NCM ${PREPARED_FOOD}`, { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Preview impact' }).click();
    const preview = page.getByTestId('impact-preview');
    await preview.waitFor();
    // By hand, the burger alone changes: ICMS 30.00 × 18 % = 5.40 → 30.00 × 20 % = 6.00;
    // PIS/COFINS base 30.00 − 5.40 = 24.60 → 30.00 − 6.00 = 24.00: PIS 0.41 → 0.40, COFINS 1.87 → 1.82;
    // total 5.40 + 0.41 + 1.87 = 7.68 → 6.00 + 0.40 + 1.82 = 8.22, a change of 0.54.
    expect(await bodyRows(page, 'The lines with the largest change of total tax')).toEqual([
      [`SMALL-IMPACT-${sequence}`, 'Item 1', 'Smash burgersmall-burger', 'R$7.68', 'R$8.22', '+R$0.54'],
    ]);
    expect(await preview.textContent()).not.toContain('order.products');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('builds the calculator’s order from a form of lines, with the JSON as an option', async () => {
    const { storeId } = await group();
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/calculator?storeId=${storeId}`);
    await page.getByRole('heading', { level: 1, name: 'Tax calculator' }).waitFor();
    expect(await page.getByLabel('Order (JSON)').count()).toBe(0);
    await expect(page.getByLabel('Store id', { exact: true }).inputValue()).resolves.toBe(storeId);

    // The example's lines are there to change: the form keeps one, the burger, twice at 12.50.
    const lines = page.getByTestId('calculator-line');
    while ((await lines.count()) > 1) await page.getByRole('button', { name: `Remove line ${await lines.count()}` }).click();
    await page.getByLabel('Product id, line 1', { exact: true }).fill('small-burger');
    await page.getByLabel('Name, line 1', { exact: true }).fill('Smash burger');
    await page.getByLabel('Quantity, line 1', { exact: true }).fill('2');
    await page.getByLabel('Unit price, line 1', { exact: true }).fill('12,50');
    const answered = page.waitForResponse((r) => r.url().includes('/api/enrich-order?dryRun=true'));
    await page.getByRole('button', { name: 'Calculate taxes' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const sent = response.request().postDataJSON() as { order: { products: Record<string, unknown>[] } };
    expect(sent.order.products).toEqual([
      expect.objectContaining({ productId: 'small-burger', name: 'Smash burger', quantity: 2, price: { unitPrice: { total: 12.5 } } }),
    ]);
    // By hand: 2 × 12.50 = 25.00; ICMS 25.00 × 18 % = 4.50; PIS/COFINS base 25.00 − 4.50 = 20.50;
    // PIS 20.50 × 1.65 % = 0.33825 → 0.34; COFINS 20.50 × 7.6 % = 1.558 → 1.56; total 4.50 + 0.34 + 1.56 = 6.40.
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByText('R$6.40').first().waitFor();
    const shown = (await result.textContent()) ?? '';
    for (const figure of ['R$25.00', 'R$4.50', 'R$20.50', 'R$0.34', 'R$1.56']) expect(shown).toContain(figure);

    // JSON is an option: it holds the order the form built, and what is typed there comes back to the form.
    await page.getByText('JSON', { exact: true }).click();
    const editor = page.getByLabel('Order (JSON)');
    const typed = JSON.parse(await editor.inputValue()) as { store: { id: string }; order: { products: { name: string }[] } };
    expect(typed.store.id).toBe(storeId);
    expect(typed.order.products.map((product) => product.name)).toEqual(['Smash burger']);
    typed.order.products[0]!.name = 'Double smash';
    await editor.fill(JSON.stringify(typed, null, 2));
    await page.getByText('Form', { exact: true }).click();
    await expect(page.getByLabel('Name, line 1', { exact: true }).inputValue()).resolves.toBe('Double smash');
    expect(errors).toEqual([]);
    await context.close();
  });
});
