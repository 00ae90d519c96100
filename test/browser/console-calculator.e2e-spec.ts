import type { Browser, Page } from 'playwright-core';
import type { Schemas } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import {
  DESKTOP,
  describeWithBrowser,
  launchBrowser,
  openConsole,
  originOf,
  PHONE,
  screenshot,
  seriousAccessibilityViolations,
  signIn,
  withoutExpected,
} from '../support/console-browser.js';

const STORE = 'store-calc-1';
const ORDER = {
  orderId: 'CALC-E2E-1',
  source: 'console',
  createdAt: '2026-11-23T09:30:00-03:00',
  store: { id: STORE, name: 'Padaria Central' },
  order: {
    type: 'DELIVERY',
    products: [
      { productId: 'calc-bread', name: 'Pão de queijo', quantity: 2, price: { unitPrice: { total: 10 }, totalPrice: { total: 20 } } },
    ],
  },
};

/** The result section's text (the breakdown), for figures whatever the markup. */
async function resultText(page: Page): Promise<string> {
  return (await page.getByRole('region', { name: 'Result' }).textContent()) ?? '';
}

describeWithBrowser('admin console: tax calculator (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    token = await t.adminToken();
    const category = await t.http.post(
      '/admin/product-fiscal-categories',
      { productId: 'calc-bread', productName: 'Pão de queijo', ncm: '19059090' },
      { token },
    );
    expect(category.status).toBe(201);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('creates a group through the matrix table, then taxes an order with it in the calculator (nothing stored)', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/fiscal-groups/new?storeId=${STORE}`);
    await page.getByRole('heading', { level: 1, name: 'New fiscal group' }).waitFor();
    await page.getByLabel(/^Name( \*)?$/).fill('Padarias SP');
    await page.getByLabel(/^State \(UF\)( \*)?$/).selectOption('SP');
    // Typed rather than chosen from the offered regimes: the field takes the text as it is.
    await page.getByRole('combobox', { name: 'Tax regime' }).fill('LUCRO_PRESUMIDO');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Add NCM row' }).click();
    await page.getByLabel('NCM for new row 1', { exact: true }).fill('19059090');
    const cells = {
      'ICMS CST': '00',
      'ICMS rate': '18',
      'PIS CST': '01',
      'PIS rate': '1.65',
      'COFINS CST': '01',
      'COFINS rate': '7.6',
      CFOP: '5102',
    };
    for (const [label, value] of Object.entries(cells)) await page.getByLabel(`${label} for NCM 19059090`, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/console\/fiscal-groups\/[0-9a-f-]{36}$/);

    // The group's page opens the calculator on its store.
    await page.getByRole('link', { name: 'Try an order in the calculator' }).click();
    await page.waitForURL(`${origin}/console/calculator?storeId=${STORE}`);
    await page.getByRole('heading', { level: 1, name: 'Tax calculator' }).waitFor();
    await expect(page.getByLabel('Store id').inputValue()).resolves.toBe(STORE);
    // The JSON is the other way in beside the form of lines.
    await page.getByText('JSON', { exact: true }).click();
    await page.getByLabel('Order (JSON)').fill(JSON.stringify(ORDER, null, 2));
    const answered = page.waitForResponse((r) => r.url().includes('/api/enrich-order?dryRun=true'));
    await page.getByRole('button', { name: 'Calculate taxes' }).click();
    expect((await answered).status()).toBe(200);

    // By hand, line amount 20.00 (2 × 10.00), CST 00 at 18 %, PIS/COFINS 01 on the base without the ICMS charged:
    // ICMS 20.00 × 18 % = 3.60; PIS/COFINS base 20.00 − 3.60 = 16.40;
    // PIS 16.40 × 1.65 % = 0.2706 → 0.27; COFINS 16.40 × 7.6 % = 1.2464 → 1.25; total 3.60 + 0.27 + 1.25 = 5.12.
    await page.getByRole('region', { name: 'Result' }).getByText('R$3.60').first().waitFor();
    const shown = await resultText(page);
    for (const figure of ['R$20.00', 'R$3.60', 'R$16.40', 'R$0.27', 'R$1.25', 'R$5.12', '19059090']) expect(shown).toContain(figure);
    // And they are the API's own figures for the same order.
    const api = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order?dryRun=true', ORDER, {
      token: await t.tokenFor(['orders']),
    });
    const line = api.body.payload.order!.products![0]!.tax;
    expect([line?.ICMS_value, line?.PIS_value, line?.COFINS_value, line?.total_tax]).toEqual([3.6, 0.27, 1.25, 5.12]);

    // A dry run stores nothing.
    const stored = await t.http.get<Schemas['OrderPageDto']>(`/admin/orders?orderId=${ORDER.orderId}`, { token });
    expect(stored.status).toBe(200);
    expect(stored.body.items).toEqual([]);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'calculator-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows bad JSON, a refused order with its details and a store without a group, with a link to create it', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: PHONE });
    await signIn(page, origin, '/console/calculator');
    await page.getByText('JSON', { exact: true }).click();
    const editor = page.getByLabel('Order (JSON)');
    await editor.fill('{ "orderId": ');
    await page.getByText(/This is not valid JSON/).waitFor();
    await expect(page.getByRole('button', { name: 'Calculate taxes' }).isDisabled()).resolves.toBe(true);

    await editor.fill(JSON.stringify({ ...ORDER, store: { id: 'store-without-group' } }));
    await page.getByRole('button', { name: 'Calculate taxes' }).click();
    await page.getByText('No fiscal group holds store "store-without-group"').waitFor();
    await page.getByRole('link', { name: 'Create a group for this store' }).click();
    await page.waitForURL(`${origin}/console/fiscal-groups/new?storeId=store-without-group`);
    await expect(page.getByLabel('Store id, row 1', { exact: true }).inputValue()).resolves.toBe('store-without-group');

    await page.goto(`${origin}/console/calculator`);
    await page.getByText('JSON', { exact: true }).click();
    await page.getByLabel('Order (JSON)').fill(JSON.stringify({ ...ORDER, orderId: 42 }));
    const refused = page.waitForResponse((r) => r.url().includes('/api/enrich-order'));
    await page.getByRole('button', { name: 'Calculate taxes' }).click();
    const answer = await refused;
    const body = (await answer.json()) as { message: string; details: { field: string; problem: string }[] };
    expect(answer.status()).toBe(400);
    expect(body.details[0]?.field).toBe('orderId');
    const alert = page.getByRole('alert');
    await alert.getByText(body.message, { exact: false }).first().waitFor();
    expect(await alert.textContent()).toContain(`orderId: ${body.details[0]!.problem}`);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'calculator-phone');
    expect(withoutExpected(errors, [400, 422])).toEqual([]);
    await context.close();
  });
});
