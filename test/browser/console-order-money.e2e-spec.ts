import type { Browser, Locator, Page } from 'playwright-core';
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

/** Money as the console writes it in each language (pt-BR puts a no-break space after R$). */
const money = (value: number, locale = 'en') => new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' }).format(value);

const STORE = 'store-console-money';
const MATRIX = {
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 1.65,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
    CFOP: '5102',
  },
};

/** A burger of 30.00 with a cheese of 10.00, and fries of 20.00: items 60.00. */
const PRODUCTS = [
  {
    productId: 'money-burger',
    name: 'Burger',
    quantity: 1,
    price: { totalPrice: { total: 30 } },
    modifierGroups: [
      {
        name: 'Extras',
        selectedModifiers: [{ productId: 'money-cheese', name: 'Cheese', quantity: 1, price: { totalPrice: { total: 10 } } }],
      },
    ],
  },
  { productId: 'money-fries', name: 'Fries', quantity: 1, price: { totalPrice: { total: 20 } } },
];

/** The store's coupon of 6.00, a discount of 5.00 the platform pays back, and a delivery fee of 9.00 the store delivers. */
function orderBody(orderId: string): Record<string, unknown> {
  return {
    orderId,
    source: 'console',
    store: { id: STORE, name: 'Money burgers' },
    order: {
      type: 'DELIVERY',
      products: PRODUCTS,
      discounts: [
        { amount: 6, sponsor: 'MERCHANT', target: 'ITEMS', description: 'Cupom BEMVINDO' },
        { amount: 5, sponsor: 'PLATFORM', target: 'ITEMS', description: 'Cupom da plataforma' },
      ],
      deliveryFee: { amount: 9, deliveredBy: 'MERCHANT' },
    },
  };
}

/*
 * By hand: the coupon and the fee are split over the taxed items in proportion (30 : 10 : 20), the last taking the remainder:
 *   coupon 6.00: burger 6 × 30/60 = 3.00, cheese 6 × 10/60 = 1.00, fries 6 − 3 − 1 = 2.00
 *   fee 9.00:    burger 9 × 30/60 = 4.50, cheese 9 × 10/60 = 1.50, fries 9 − 4.50 − 1.50 = 3.00
 *   net:         burger 30 − 3 + 4.50 = 31.50, cheese 10 − 1 + 1.50 = 10.50, fries 20 − 2 + 3 = 21.00
 * ICMS 18 % of the net amount; PIS 1.65 % and COFINS 7.6 % of the net amount less the ICMS:
 *   burger ICMS 5.67; base 25.83; PIS 0.426195 → 0.43; COFINS 1.96308 → 1.96
 *   cheese ICMS 1.89; base 8.61;  PIS 0.142065 → 0.14; COFINS 0.65436 → 0.65
 *   fries  ICMS 3.78; base 17.22; PIS 0.28413 → 0.28;  COFINS 1.30872 → 1.31
 * The platform's 5.00 stays outside the invoice, paid back to the store.
 */
const EXPECTED = {
  burger: { discount: 3, freight: 4.5, netAmount: 31.5, ICMS_base: 31.5, ICMS_value: 5.67, PIS_value: 0.43, COFINS_value: 1.96 },
  cheese: { discount: 1, freight: 1.5, netAmount: 10.5, ICMS_value: 1.89 },
  fries: { discount: 2, freight: 3, netAmount: 21, ICMS_value: 3.78, COFINS_value: 1.31 },
};

/** The same order as iFood's order details: the store's 6.00 and iFood's 5.00 in one benefit, delivered by the store. */
const IFOOD_ORDER = {
  id: '5d0f3a71-2c4b-4e8a-9f61-0b7c2d3e4f50',
  displayId: '7351',
  orderType: 'DELIVERY',
  createdAt: '2026-11-26T12:00:00.000Z',
  merchant: { id: STORE, name: 'Money burgers' },
  delivery: { mode: 'DEFAULT', deliveredBy: 'MERCHANT' },
  items: [
    {
      index: 1,
      id: 'item-burger',
      name: 'Burger',
      externalCode: 'money-burger',
      quantity: 1,
      unitPrice: 30,
      price: 30,
      optionsPrice: 10,
      totalPrice: 40,
      options: [{ index: 2, id: 'option-cheese', name: 'Cheese', externalCode: 'money-cheese', quantity: 1, unitPrice: 10, price: 10 }],
    },
    {
      index: 3,
      id: 'item-fries',
      name: 'Fries',
      externalCode: 'money-fries',
      quantity: 1,
      unitPrice: 20,
      price: 20,
      optionsPrice: 0,
      totalPrice: 20,
    },
  ],
  benefits: [
    {
      value: 11,
      target: 'CART',
      sponsorshipValues: [
        { name: 'MERCHANT', value: 6 },
        { name: 'IFOOD', value: 5 },
      ],
    },
  ],
  // subTotal 40 + 20 = 60; orderAmount 60 + 9 − 11 = 58.
  total: { subTotal: 60, deliveryFee: 9, benefits: 11, additionalFees: 0, orderAmount: 58 },
};

/** The label/value pairs of an item's facts (its own description list, not its modifiers'), read from the page. */
async function factsOf(page: Page, anchorId: string): Promise<Record<string, string>> {
  const list = page.locator(`[id="${anchorId}"] > div > dl`).first();
  await list.waitFor();
  const [terms, values] = await Promise.all([list.locator('dt').allTextContents(), list.locator('dd').allTextContents()]);
  return Object.fromEntries(terms.map((term, index) => [term, values[index] ?? '']));
}

/** The rows of a table named `name` (inside `scope`) as the texts of their cells. */
async function rowsOf(scope: Page | Locator, name: string): Promise<string[][]> {
  const table = scope.getByRole('table', { name, exact: true });
  await table.waitFor();
  const rows = await table.locator('tr').all();
  return Promise.all(rows.map(async (row) => (await row.locator('th, td').allTextContents()).map((text) => text.trim())));
}

describeWithBrowser('admin console: discounts, fees and amounts outside the invoice (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let token: string;
  const orderId = `MONEY-${Date.now()}`;
  let orderDbId: string;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    token = await t.adminToken();
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Money SP',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: STORE, store_name: 'Money burgers' }],
        taxMatrix: MATRIX,
      },
      { token },
    );
    expect(group.status).toBe(201);
    for (const productId of ['money-burger', 'money-cheese', 'money-fries']) {
      const category = await t.http.post(
        '/admin/product-fiscal-categories',
        { productId, productName: productId, ncm: '21069090' },
        { token },
      );
      expect(category.status).toBe(201);
    }

    // Stored through the API, taxed by the engine: the figures the console shows are the service's.
    const stored = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', orderBody(orderId), {
      token: await t.tokenFor(['orders']),
    });
    expect(stored.status).toBe(200);
    orderDbId = stored.body.orderDbId!;
    const [burgerLine, friesLine] = stored.body.payload.order!.products!;
    expect(burgerLine!.tax).toMatchObject(EXPECTED.burger);
    expect(burgerLine!.modifierGroups![0]!.selectedModifiers![0]!.tax).toMatchObject(EXPECTED.cheese);
    expect(friesLine!.tax).toMatchObject(EXPECTED.fries);
    const summary = stored.body.payload.taxSummary;
    // Totals: discount 3 + 1 + 2 = 6.00; freight 4.50 + 1.50 + 3 = 9.00.
    expect(summary.totals).toMatchObject({ discount: 6, freight: 9 });
    expect(summary.outsideInvoice).toEqual([expect.objectContaining({ kind: 'DISCOUNT', amount: 5 })]);
    expect(summary.thirdPartyPayments).toEqual([{ amount: 5, sponsor: 'PLATFORM', description: 'Cupom da plataforma' }]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the shares, net amounts, totals and the amounts outside the invoice of a stored order (English, 1280 px)', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/orders/${orderDbId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();
    await page.getByRole('table', { name: 'Taxes of line 1', exact: true }).waitFor();

    expect(await factsOf(page, 'tax-line-0')).toMatchObject({
      'Line amount': money(30),
      'Discount share (vDesc)': money(3),
      'Freight share (vFrete)': money(4.5),
      'Net amount': money(31.5),
    });
    expect(await factsOf(page, 'tax-line-0-modifier-0-0')).toMatchObject({ 'Discount share (vDesc)': money(1), 'Net amount': money(10.5) });
    expect(await factsOf(page, 'tax-line-1')).toMatchObject({ 'Freight share (vFrete)': money(3), 'Net amount': money(21) });
    // The taxes are on the net amounts.
    const burgerTaxes = await rowsOf(page, 'Taxes of line 1');
    expect(burgerTaxes.find(([tax]) => tax === 'ICMS')).toEqual(['ICMS', '00', money(31.5), '18 %', money(5.67), '—']);
    expect((await rowsOf(page, 'Taxes of line 2')).find(([tax]) => tax === 'COFINS')?.[4]).toBe(money(1.31));

    const totals = await rowsOf(page, 'Document totals');
    expect(totals).toEqual(
      expect.arrayContaining([
        ['Discounts (vDesc)', money(6)],
        ['Freight (vFrete)', money(9)],
      ]),
    );

    const outside = page.getByRole('region', { name: 'Outside the invoice' });
    const [, discount] = await rowsOf(outside, 'Amounts outside the invoice');
    expect(discount!.slice(0, 2)).toEqual(['Discount', money(5)]);
    expect(await rowsOf(outside, 'Payments by third parties')).toEqual([
      ['Paid by', 'Amount', 'Description'],
      ['The platform', money(5), 'Cupom da plataforma'],
    ]);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'order-money-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows the same order in Portuguese at 390 px, nothing wider than the screen', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: PHONE, locale: 'pt-BR' });
    await signIn(page, origin, `/console/orders/${orderDbId}`);
    await page.getByRole('table', { name: 'Impostos da linha 1', exact: true }).waitFor();

    expect(await factsOf(page, 'tax-line-0')).toMatchObject({
      'Rateio do desconto (vDesc)': money(3, 'pt-BR'),
      'Rateio do frete (vFrete)': money(4.5, 'pt-BR'),
      'Valor líquido': money(31.5, 'pt-BR'),
    });
    const outside = page.getByRole('region', { name: 'Fora da nota fiscal' });
    const [, discount] = await rowsOf(outside, 'Valores fora da nota fiscal');
    expect(discount!.slice(0, 2)).toEqual(['Desconto', money(5, 'pt-BR')]);
    expect((await rowsOf(outside, 'Pagamentos de terceiros'))[1]).toEqual(['A plataforma', money(5, 'pt-BR'), 'Cupom da plataforma']);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'order-money-phone-pt');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no serious accessibility violation and nothing wider than the screen, in both languages at both widths', async () => {
    for (const [viewport, locale, table] of [
      [DESKTOP, 'pt-BR', 'Valores fora da nota fiscal'],
      [PHONE, 'en-US', 'Amounts outside the invoice'],
    ] as const) {
      const { page, errors, context } = await openConsole(browser, { viewport, locale });
      await signIn(page, origin, `/console/orders/${orderDbId}`);
      await page.getByRole('table', { name: table, exact: true }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(overflow).toBeLessThanOrEqual(0);
      expect(errors).toEqual([]);
      await context.close();
    }
  });

  it("computes the order in the calculator from its form controls, showing the API's 400 at the field it names", async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/calculator?storeId=${STORE}`);
    await page.getByRole('heading', { level: 1, name: 'Tax calculator' }).waitFor();
    const plain = { orderId: 'CALC-MONEY-1', store: { id: STORE }, order: { type: 'DELIVERY', products: PRODUCTS } };
    await page.getByText('JSON', { exact: true }).click();
    await page.getByLabel('Order (JSON)').fill(JSON.stringify(plain, null, 2));

    await page.getByRole('button', { name: 'Add a discount' }).click();
    const coupon = page.getByRole('group', { name: 'Discount 1' });
    await coupon.getByRole('textbox', { name: 'Amount' }).fill('seis');
    await coupon.getByRole('textbox', { name: 'Description' }).fill('Cupom BEMVINDO');
    const refused = page.waitForResponse((r) => r.url().includes('/api/enrich-order'));
    await page.getByRole('button', { name: 'Calculate taxes' }).click();
    const answer = await refused;
    expect(answer.status()).toBe(400);
    const problem = (await answer.json()) as { details: { field: string; problem: string }[] };
    const detail = problem.details.find((d) => d.field === 'order.discounts[0].amount');
    expect(detail).toBeDefined();
    await page.getByRole('alert').getByText(`order.discounts[0].amount: ${detail!.problem}`, { exact: true }).waitFor();
    const amount = coupon.getByRole('textbox', { name: 'Amount' });
    await expect(amount.getAttribute('aria-invalid')).resolves.toBe('true');

    await amount.fill('6,00');
    await page.getByRole('button', { name: 'Add a discount' }).click();
    const platform = page.getByRole('group', { name: 'Discount 2' });
    await platform.getByRole('textbox', { name: 'Amount' }).fill('5');
    await platform.getByRole('combobox', { name: 'Paid by' }).selectOption('PLATFORM');
    await platform.getByRole('textbox', { name: 'Description' }).fill('Cupom da plataforma');
    const fee = page.getByRole('group', { name: 'Delivery fee' });
    await fee.getByRole('textbox', { name: /^Amount/ }).fill('9');
    await fee.getByRole('combobox', { name: 'Delivered by' }).selectOption('MERCHANT');
    const answered = page.waitForResponse((r) => r.url().includes('/api/enrich-order?dryRun=true'));
    await page.getByRole('button', { name: 'Calculate taxes' }).click();
    expect((await answered).status()).toBe(200);

    const result = page.getByRole('region', { name: 'Result' });
    await result.getByRole('table', { name: 'Taxes of line 1', exact: true }).waitFor();
    expect(await factsOf(page, 'tax-line-0')).toMatchObject({ 'Discount share (vDesc)': money(3), 'Net amount': money(31.5) });
    expect((await rowsOf(result, 'Taxes of line 1')).find(([tax]) => tax === 'ICMS')?.[4]).toBe(money(5.67));
    expect((await rowsOf(result, 'Payments by third parties'))[1]).toEqual(['The platform', money(5), 'Cupom da plataforma']);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'calculator-money-desktop');
    expect(withoutExpected(errors, [400])).toEqual([]);
    await context.close();
  });

  it('computes the same order pasted as iFood sends it, in Portuguese at 390 px', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: PHONE, locale: 'pt-BR' });
    await signIn(page, origin, '/console/calculator');
    await page.getByRole('heading', { level: 1, name: 'Calculadora de impostos' }).waitFor();
    await page.getByText('Pedido do iFood', { exact: true }).click();
    await page.getByTestId('calculator-ifood-hint').waitFor();
    await page.getByLabel('Pedido do iFood (JSON)').fill(JSON.stringify(IFOOD_ORDER, null, 2));
    const answered = page.waitForResponse((r) => r.url().includes('/api/enrich-order?'));
    await page.getByRole('button', { name: 'Calcular impostos' }).click();
    const answer = await answered;
    expect(new URL(answer.url()).searchParams.get('profile')).toBe('ifood');
    expect(answer.status()).toBe(200);
    // The mapped order is taxed as the platform's order above: the same shares, the same taxes.
    const body = (await answer.json()) as Schemas['EnrichOrderResponseDto'];
    expect(body.payload.order!.products![0]!.tax).toMatchObject(EXPECTED.burger);

    const result = page.getByRole('region', { name: 'Resultado' });
    await result.getByRole('table', { name: 'Impostos da linha 1', exact: true }).waitFor();
    expect(await factsOf(page, 'tax-line-0')).toMatchObject({ 'Valor líquido': money(31.5, 'pt-BR') });
    expect((await rowsOf(result, 'Pagamentos de terceiros'))[1]!.slice(0, 2)).toEqual(['A plataforma', money(5, 'pt-BR')]);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'calculator-ifood-phone-pt');
    expect(errors).toEqual([]);
    await context.close();
  });
});
