import type { Browser, Page } from 'playwright-core';
import type { Schemas } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { DESKTOP, describeWithBrowser, launchBrowser, openConsole, originOf, signIn } from '../support/console-browser.js';
import { personWith } from '../support/people.js';

/** Money as the console writes it in English. */
const money = (value: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'BRL' }).format(value);

const ZONE = 'America/Sao_Paulo'; // UTC−03:00 all year since 2019
const STORE = 'store-console-tour';
const PREPARED_FOOD = '21069090';
const SODA = '22021000';
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
    CFOP: '5102',
  },
  // ICMS already paid by substitution up the chain: not charged on this invoice.
  [SODA]: {
    NCM: SODA,
    CEST: '',
    CST_ICMS: '60',
    ICMS_rate: 0,
    CST_PIS: '01',
    PIS_rate: 1.65,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
    CFOP: '5405',
  },
};

/** A burger of 30.00 and a soda of 10.00 (lines 40.00), the store's coupon of 4.00 and its delivery fee of 8.00; no total sent. */
function orderBody(orderId: string): Record<string, unknown> {
  return {
    orderId,
    source: 'console',
    store: { id: STORE, name: 'Tour burgers' },
    order: {
      type: 'DELIVERY',
      products: [
        { productId: 'tour-burger', name: 'Burger', quantity: 1, price: { totalPrice: { total: 30 } } },
        { productId: 'tour-soda', name: 'Soda', quantity: 1, price: { totalPrice: { total: 10 } } },
      ],
      discounts: [{ amount: 4, sponsor: 'MERCHANT', target: 'ITEMS', description: 'Cupom TOUR' }],
      deliveryFee: { amount: 8, deliveredBy: 'MERCHANT' },
    },
  };
}

/*
 * By hand: the coupon and the fee split over the items in proportion (30 : 10), the last taking the remainder:
 *   coupon 4.00: burger 4 × 30/40 = 3.00, soda 4 − 3 = 1.00; fee 8.00: burger 8 × 30/40 = 6.00, soda 8 − 6 = 2.00
 *   net: burger 30 − 3 + 6 = 33.00, soda 10 − 1 + 2 = 11.00
 *   burger ICMS 33.00 × 18 % = 5.94; soda CST 60: no ICMS charged
 *   PIS/COFINS bases (the ICMS taken out): burger 33.00 − 5.94 = 27.06, soda 11.00 − 0 = 11.00; sum 38.06
 * The invoice's ICMS base (BC do ICMS) is the burger's alone: 33.00.
 * What the customer paid: 40.00 − 4.00 + 8.00 = 44.00, not the lines' 40.00.
 */
const ICMS_BASE_CHARGED = 33;
const PIS_COFINS_BASE = 38.06;

/** The label/value pairs of the order page's overview. */
async function overviewFacts(page: Page): Promise<Record<string, string>> {
  const list = page.locator('#order-overview dl').first();
  await list.waitFor();
  const [terms, values] = await Promise.all([list.locator('dt').allTextContents(), list.locator('dd').allTextContents()]);
  return Object.fromEntries(terms.map((term, index) => [term, values[index] ?? '']));
}

async function rowsOf(page: Page, name: string): Promise<string[][]> {
  const table = page.getByRole('table', { name, exact: true });
  await table.waitFor();
  const rows = await table.locator('tr').all();
  return Promise.all(rows.map(async (row) => (await row.locator('th, td').allTextContents()).map((text) => text.trim())));
}

/** A midnight `days` ahead in São Paulo, as the schedule input takes it. */
function midnightAhead(days: number): string {
  return `${new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10)}T00:00`;
}

describeWithBrowser('admin console: the defects found on a tour of the console (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let groupId: string;
  let orderDbId: string;
  let taxedAmount: number;
  const orderId = `TOUR-${Date.now()}`;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    const token = await t.adminToken();
    const group = await t.http.post<Schemas['FiscalGroupResponseDto']>(
      '/admin/fiscal-groups',
      {
        name: 'Tour SP',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: STORE, store_name: 'Tour burgers' }],
        taxMatrix: MATRIX,
      },
      { token },
    );
    expect(group.status).toBe(201);
    groupId = group.body.id;
    for (const [productId, ncm] of [
      ['tour-burger', PREPARED_FOOD],
      ['tour-soda', SODA],
    ] as const)
      expect((await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token })).status).toBe(
        201,
      );
    const stored = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', orderBody(orderId), {
      token: await t.tokenFor(['orders']),
    });
    expect(stored.status).toBe(200);
    orderDbId = stored.body.orderDbId!;
    const [burger, soda] = stored.body.payload.order!.products!;
    expect(burger!.tax).toMatchObject({ netAmount: 33, ICMS_base: 33, ICMS_value: 5.94, PIS_base: 27.06 });
    expect(soda!.tax).toMatchObject({ netAmount: 11, CST_ICMS: '60', ICMS_value: 0, PIS_base: 11 });
    expect(soda!.tax!.zeroReasons?.ICMS).toBe('CST_60');
    taxedAmount = stored.body.payload.taxSummary.totals.base;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('names each part of the order’s value instead of calling the lines’ sum the order value', async () => {
    const { page, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/orders/${orderDbId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();
    const facts = await overviewFacts(page);
    expect(facts).toMatchObject({
      'Sum of the lines (before discounts and fees)': money(40),
      Discounts: money(4),
      'Delivery fee': money(8),
    });
    expect(facts['Order value']).toBeUndefined();
    await context.close();
  });

  it('names each base of the totals for what it is: the items’ amounts, and each tax’s base over the items charged it', async () => {
    const { page, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/orders/${orderDbId}`);
    const totals = Object.fromEntries(await rowsOf(page, 'Document totals'));
    expect(totals).toMatchObject({
      'Amount of the taxed items (every CST)': money(taxedAmount),
      'ICMS base (items charged ICMS)': money(ICMS_BASE_CHARGED),
      'PIS base (items charged PIS)': money(PIS_COFINS_BASE),
      'COFINS base (items charged COFINS)': money(PIS_COFINS_BASE),
      ICMS: money(5.94),
    });
    expect(totals['Taxed base']).toBeUndefined();
    await context.close();
  });

  it('shows “Taxed by” as text to support, who cannot open fiscal groups, and as a link to fiscal and admin', async () => {
    const support = await personWith(t, 'support');
    const asSupport = await openConsole(browser, { viewport: DESKTOP });
    await signIn(asSupport.page, origin, `/console/orders/${orderDbId}`, support);
    const shown = asSupport.page.getByTestId('fiscal-revision');
    await expect(shown.textContent()).resolves.toBe('Revision 1 of its fiscal group');
    await expect(shown.evaluate((element) => element.tagName)).resolves.toBe('SPAN');
    expect(await asSupport.page.getByRole('link', { name: 'Revision 1 of its fiscal group' }).count()).toBe(0);
    await asSupport.context.close();

    const fiscal = await personWith(t, 'fiscal');
    const asFiscal = await openConsole(browser, { viewport: DESKTOP });
    await signIn(asFiscal.page, origin, `/console/orders/${orderDbId}`, fiscal);
    const link = asFiscal.page.getByRole('link', { name: 'Revision 1 of its fiscal group' });
    await expect(link.getAttribute('href')).resolves.toBe(`/console/fiscal-groups/${groupId}?tab=revisions&revision=1`);
    await asFiscal.context.close();
  });

  it('closes the impact preview when scheduling resets the editor to the group in force', async () => {
    const { page, context } = await openConsole(browser, { viewport: DESKTOP, timezoneId: ZONE });
    await signIn(page, origin, `/console/fiscal-groups/${groupId}`);
    const icms = page.getByLabel(`ICMS rate for NCM ${PREPARED_FOOD}`, { exact: true });
    await icms.fill('20');
    await page.getByRole('button', { name: 'Preview impact' }).click();
    const preview = page.getByTestId('impact-preview');
    await preview.waitFor();

    await page.getByRole('button', { name: 'Schedule for…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Schedule this change' });
    await dialog.getByLabel('Takes effect at').fill(midnightAhead(30));
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('status').filter({ hasText: 'Scheduled: revision 2 takes effect on' }).waitFor();
    // The editor holds the group in force again; a preview of the edits it no longer holds would mislead.
    await expect(icms.inputValue()).resolves.toBe('18');
    expect(await page.getByRole('region', { name: 'Impact of the edited group' }).count()).toBe(0);
    expect(await preview.count()).toBe(0);
    await context.close();
  });

  it('tells a person an admin deactivated that the access was removed, not that the session expired', async () => {
    const person = await personWith(t, 'support');
    const { page, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, '/console/orders', person);
    const deactivated = await t.http.request('PATCH', `/admin/users/${person.id}`, { active: false }, { token: await t.adminToken() });
    expect(deactivated.status).toBe(200);

    const refused = page.waitForResponse((response) => response.url().includes('/api/') && response.status() === 401);
    await page.reload();
    // Its body (ACCESS_REMOVED) cannot be read here: the console navigates to sign-in at once. The message below is
    // what only that code shows.
    expect((await refused).status()).toBe(401);
    await page.getByRole('alert').filter({ hasText: 'Your access to the console was removed by an admin.' }).waitFor();
    expect(await page.getByText('Your session expired.').count()).toBe(0);
    await context.close();
  });
});
