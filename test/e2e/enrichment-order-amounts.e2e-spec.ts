import type { ErrorBody } from '../support/api.js';
import { orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * Discounts, delivery fees, service charges and other charges through POST /api/enrich-order: one
 * order per rule (dry runs), the shares on the lines, the taxes on the net amounts, what stays
 * outside the invoice, and the 400 that names a malformed entry.
 */
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

type Tax = Record<string, unknown> | null;
interface Enriched {
  payload: {
    order: { products: Array<{ tax: Tax; modifierGroups?: Array<{ selectedModifiers: Array<{ tax: Tax }> }> }> };
    taxSummary: Record<string, any>;
  };
}

describe('order-level amounts through /api/enrich-order (e2e)', () => {
  let t: TestApp;
  let orders: string;
  const storeId = unique('store-amounts');

  const item = (productId: string, total: number, modifiers: unknown[] = []) => ({
    productId,
    quantity: 1,
    price: { totalPrice: { total } },
    ...(modifiers.length ? { modifierGroups: [{ name: 'Extras', selectedModifiers: modifiers }] } : {}),
  });
  const orderOf = (products: unknown[], amounts: Record<string, unknown>) => ({
    orderId: unique('order'),
    store: { id: storeId },
    order: { products, ...amounts },
  });
  const dryRun = async (body: unknown) => {
    const response = await t.http.post<Enriched>('/enrich-order?dryRun=true', body, { token: orders });
    expect(response.status).toBe(200);
    return response.body.payload;
  };
  const shares = (tax: Tax) => [tax?.discount, tax?.freight, tax?.otherCharges, tax?.netAmount];

  beforeAll(async () => {
    // The forwarding route checks its webhook is configured before it reads the body; nothing is sent there.
    t = await bootTestApp({ ORDER_WEBHOOK_URL: 'http://127.0.0.1:9/orders' });
    const admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
    const rule = (ncm: string, fields: Record<string, unknown>) => ({
      NCM: ncm,
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: 18,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
      ...fields,
    });
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Restaurante com descontos',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: storeId, store_name: 'Centro' }],
        taxMatrix: {
          '21069090': rule('21069090', {}),
          // ICMS 10 %, no PIS/COFINS: each share shows plainly in the value
          '99999999': rule('99999999', { ICMS_rate: 10, PIS_rate: 0, COFINS_rate: 0 }),
          '19059090': rule('19059090', { CST_ICMS: '020', ICMS_rate: 7, ICMS_base_reduction: 41.67 }),
        },
      },
      { token: admin },
    );
    expect(group.status).toBe(201);
    for (const [productId, ncm] of [
      ['amt-burger', '21069090'],
      ['amt-flat', '99999999'],
      ['amt-bread', '19059090'],
    ]) {
      expect(
        (await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token: admin })).status,
      ).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('a store discount of the whole order: proportional, the remainder on the last item, taxes on the net amounts', async () => {
    const enriched = await dryRun(
      orderOf([item('amt-burger', 10), item('amt-burger', 10), item('amt-burger', 10)], {
        discounts: [{ amount: 5, sponsor: 'MERCHANT', target: 'ITEMS' }],
      }),
    );
    // 5.00 × 10/30 = 1.6667 → 1.67, 1.67; last 1.66. Net 8.33: ICMS 1.4994 → 1.50; base 6.83; PIS 0.04; COFINS 0.2049 → 0.20
    const [first, , last] = enriched.order.products;
    expect(shares(first!.tax)).toEqual([1.67, 0, 0, 8.33]);
    expect(first!.tax).toMatchObject({ ICMS_base: 8.33, ICMS_value: 1.5, PIS_base: 6.83, PIS_value: 0.04, COFINS_value: 0.2 });
    // net 8.34: ICMS 1.5012 → 1.50; base 6.84; PIS 0.04446 → 0.04; COFINS 0.2052 → 0.21
    expect(shares(last!.tax)).toEqual([1.66, 0, 0, 8.34]);
    expect(last!.tax).toMatchObject({ ICMS_value: 1.5, COFINS_value: 0.21 });
    expect(enriched.taxSummary.totals).toEqual({
      base: 25,
      ICMS_value: 4.5,
      PIS_value: 0.12,
      COFINS_value: 0.61,
      total_tax: 5.23,
      discount: 5,
      freight: 0,
      otherCharges: 0,
    });
    expect(enriched.taxSummary.engineVersion).toBe('1.2.0');
  });

  it('an ITEM discount over a line and its modifiers; a discount above the amount is capped with a warning', async () => {
    const enriched = await dryRun(
      orderOf([item('amt-flat', 20, [item('amt-flat', 5)]), item('amt-flat', 10)], {
        discounts: [
          { amount: 2.5, sponsor: 'MERCHANT', target: 'ITEM', productIndex: 0 },
          { amount: 100, sponsor: 'MERCHANT', target: 'ITEMS', description: 'Too generous' },
        ],
      }),
    );
    // first: 2.50 × 20/25 = 2.00 on the line, 0.50 on its modifier. second: 100.00 on the 32.50 left → capped at 32.50
    const [line, other] = enriched.order.products;
    expect(shares(line!.tax)).toEqual([20, 0, 0, 0]);
    expect(shares(line!.modifierGroups![0]!.selectedModifiers[0]!.tax)).toEqual([5, 0, 0, 0]);
    expect(shares(other!.tax)).toEqual([10, 0, 0, 0]);
    expect(enriched.taxSummary.totals).toMatchObject({ base: 0, ICMS_value: 0, discount: 35 });
    expect(enriched.taxSummary.warnings).toEqual([
      { code: 'DISCOUNT_ABOVE_AMOUNT', path: 'order.discounts[1]', message: expect.stringContaining('32.50 was applied') },
    ]);
  });

  it('the store delivers: a DELIVERY_FEE discount lowers the fee, the rest is freight on the items', async () => {
    const enriched = await dryRun(
      orderOf([item('amt-flat', 10), item('amt-flat', 30)], {
        deliveryFee: { amount: 8, deliveredBy: 'MERCHANT' },
        discounts: [{ amount: 3, sponsor: 'MERCHANT', target: 'DELIVERY_FEE' }],
      }),
    );
    // 8.00 − 3.00 = 5.00; 5.00 × 10/40 = 1.25; last 3.75. ICMS 11.25 × 10 % = 1.125 → 1.13; 33.75 → 3.375 → 3.38
    expect(enriched.order.products.map((line) => shares(line.tax))).toEqual([
      [0, 1.25, 0, 11.25],
      [0, 3.75, 0, 33.75],
    ]);
    expect(enriched.taxSummary.totals).toMatchObject({ base: 45, ICMS_value: 4.51, freight: 5 });
  });

  it('the platform delivers and pays a coupon: both stay outside the invoice, the coupon as a third-party payment', async () => {
    const enriched = await dryRun(
      orderOf([item('amt-flat', 40)], {
        deliveryFee: { amount: 7.99, deliveredBy: 'PLATFORM' },
        discounts: [{ amount: '5.00', sponsor: 'PLATFORM', target: 'ITEMS', description: 'Platform coupon' }],
        otherCharges: [{ amount: 0.99, chargedBy: 'PLATFORM', description: 'Small order fee' }],
      }),
    );
    // Nothing enters the invoice: the line keeps its shape; ICMS 10 % of 40.00 = 4.00
    expect(enriched.order.products[0]!.tax).not.toHaveProperty('netAmount');
    expect(enriched.taxSummary.totals).toEqual({ base: 40, ICMS_value: 4, PIS_value: 0, COFINS_value: 0, total_tax: 4 });
    expect(enriched.taxSummary.outsideInvoice).toEqual([
      { kind: 'DELIVERY_FEE', amount: 7.99, reason: 'DELIVERED_BY_PLATFORM' },
      { kind: 'DISCOUNT', amount: 5, reason: 'PAID_BY_PLATFORM' },
      { kind: 'OTHER_CHARGE', amount: 0.99, reason: 'CHARGED_BY_PLATFORM' },
    ]);
    expect(enriched.taxSummary.thirdPartyPayments).toEqual([{ amount: 5, sponsor: 'PLATFORM', description: 'Platform coupon' }]);
  });

  it('service charge: 10.00 on 100.00 stays outside; 10.01 enters as other charges with a warning', async () => {
    const lines = [item('amt-flat', 60), item('amt-flat', 40)];
    const within = await dryRun(orderOf(lines, { serviceCharge: { amount: 10 } }));
    expect(within.taxSummary.outsideInvoice).toEqual([{ kind: 'SERVICE_CHARGE', amount: 10, reason: 'SERVICE_CHARGE_AT_MOST_10_PERCENT' }]);
    expect(within.taxSummary.totals.ICMS_value).toBe(10);
    const above = await dryRun(orderOf(lines, { serviceCharge: { amount: 10.01 } }));
    // 10.01 × 60/100 = 6.006 → 6.01; last 4.00. ICMS 66.01 × 10 % = 6.601 → 6.60; 44.00 → 4.40; total 11.00
    expect(above.order.products.map((line) => shares(line.tax))).toEqual([
      [0, 0, 6.01, 66.01],
      [0, 0, 4, 44],
    ]);
    expect(above.taxSummary.totals).toMatchObject({ base: 110.01, ICMS_value: 11, otherCharges: 10.01 });
    expect(above.taxSummary.warnings.map((w: { code: string }) => w.code)).toEqual(['SERVICE_CHARGE_ABOVE_10_PERCENT']);
  });

  it('the reduced ICMS base applies after the discount', async () => {
    const enriched = await dryRun(orderOf([item('amt-bread', 150)], { discounts: [{ amount: 50, sponsor: 'MERCHANT', target: 'ITEMS' }] }));
    // net 100.00; ICMS base 100.00 × 58.33 % = 58.33; ICMS 7 % = 4.0831 → 4.08
    // PIS/COFINS base 95.92; PIS 0.62348 → 0.62; COFINS 2.8776 → 2.88; total 7.58
    expect(enriched.order.products[0]!.tax).toMatchObject({
      netAmount: 100,
      ICMS_base: 58.33,
      ICMS_value: 4.08,
      PIS_base: 95.92,
      PIS_value: 0.62,
      COFINS_value: 2.88,
      total_tax: 7.58,
    });
  });

  it('a line priced per unit is taxed on round(unitPrice × quantity, 2)', async () => {
    const enriched = await dryRun(orderOf([{ productId: 'amt-burger', quantity: 0.35, price: { unitPrice: { total: 12.99 } } }], {}));
    // 12.99 × 0.35 = 4.5465 → 4.55: ICMS 0.819 → 0.82; base 3.73; PIS 0.024245 → 0.02; COFINS 0.1119 → 0.11
    expect(enriched.order.products[0]!.tax).toMatchObject({
      amountFrom: 'unitPrice×quantity',
      ICMS_base: 4.55,
      ICMS_value: 0.82,
      total_tax: 0.95,
    });
  });

  it('stores the shares with the order', async () => {
    const sent = orderOf([item('amt-flat', 20)], { otherCharges: [{ amount: 2, chargedBy: 'MERCHANT', description: 'Packaging' }] });
    const response = await t.http.post<Enriched>('/enrich-order', sent, { token: orders });
    expect(response.status).toBe(200);
    const row = await orderRow(t.dataSource, sent.orderId);
    // 20.00 + 2.00 = 22.00; ICMS 2.20
    expect((row?.enrichedPayload as Enriched['payload']).order.products[0]!.tax).toMatchObject({
      otherCharges: 2,
      netAmount: 22,
      ICMS_value: 2.2,
    });
  });

  it("the group's settings: platform discounts in the base, the fee always on the invoice, the service charge in the base", async () => {
    const admin = await t.tokenFor(['admin']);
    const settingsStore = unique('store-settings');
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Estado sem o Convênio 125/11',
        uf: 'RJ',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: settingsStore, store_name: 'Lapa' }],
        settings: { platformDiscountsReduceBase: true, deliveryFeeOnInvoice: 'ALWAYS', serviceChargeInIcmsBase: true },
        taxMatrix: {
          '99999999': {
            NCM: '99999999',
            CEST: '',
            CST_ICMS: '00',
            ICMS_rate: 10,
            CST_PIS: '01',
            PIS_rate: 0,
            CST_COFINS: '01',
            COFINS_rate: 0,
          },
        },
      },
      { token: admin },
    );
    expect(group.status).toBe(201);
    const enriched = await dryRun({
      orderId: unique('order'),
      store: { id: settingsStore },
      order: {
        products: [item('amt-flat', 60), item('amt-flat', 40)],
        discounts: [{ amount: 5, sponsor: 'PLATFORM', target: 'ITEMS' }],
        deliveryFee: { amount: 6, deliveredBy: 'PLATFORM' },
        serviceCharge: { amount: 10 },
      },
    });
    // discount 5.00: 3.00 and 2.00; freight 6.00: 3.60 and 2.40; service charge 10.00 (10 %): 6.00 and 4.00
    // nets 60.00 − 3.00 + 3.60 + 6.00 = 66.60 and 40.00 − 2.00 + 2.40 + 4.00 = 44.40; ICMS 6.66 + 4.44 = 11.10
    expect(enriched.order.products.map((line) => shares(line.tax))).toEqual([
      [3, 3.6, 6, 66.6],
      [2, 2.4, 4, 44.4],
    ]);
    expect(enriched.taxSummary.totals).toMatchObject({ base: 111, ICMS_value: 11.1, discount: 5, freight: 6, otherCharges: 10 });
    expect(enriched.taxSummary.outsideInvoice).toBeUndefined();
    expect(enriched.taxSummary.thirdPartyPayments).toBeUndefined();
    expect(enriched.taxSummary.warnings).toEqual([]);
  });

  describe('a malformed entry is a 400 naming its path, and nothing is stored', () => {
    it.each([
      [
        {
          discounts: [
            { amount: 1, sponsor: 'MERCHANT', target: 'ITEMS' },
            { amount: 1, sponsor: 'STORE', target: 'ITEMS' },
          ],
        },
        'order.discounts[1].sponsor',
      ],
      [{ discounts: [{ amount: 0, sponsor: 'MERCHANT', target: 'ITEMS' }] }, 'order.discounts[0].amount'],
      [{ discounts: [{ amount: 1, sponsor: 'MERCHANT', target: 'ITEM', productIndex: 3 }] }, 'order.discounts[0].productIndex'],
      [{ deliveryFee: { amount: 'free', deliveredBy: 'MERCHANT' } }, 'order.deliveryFee.amount'],
      [{ serviceCharge: { amount: -1 } }, 'order.serviceCharge.amount'],
      [{ otherCharges: [{ amount: 1, chargedBy: 'IFOOD' }] }, 'order.otherCharges[0].chargedBy'],
    ])('%j → %s', async (amounts, field) => {
      const sent = orderOf([item('amt-flat', 10)], amounts);
      const response = await t.http.post<ErrorBody>('/enrich-order', sent, { token: orders });
      expect([response.status, response.body.error, response.body.details]).toEqual([
        400,
        'VALIDATION_FAILED',
        [{ field, problem: expect.any(String) }],
      ]);
      expect(await orderRow(t.dataSource, sent.orderId)).toBeNull();
    });

    it('under payload, the path starts with payload.; the forwarding route refuses it too', async () => {
      const sent = orderOf([item('amt-flat', 10)], { discounts: [{ amount: 1, sponsor: 'MERCHANT', target: 'CART' }] });
      const wrapped = await t.http.post<ErrorBody>('/enrich-order', { payload: sent }, { token: orders });
      expect([wrapped.status, wrapped.body.details?.[0]?.field]).toEqual([400, 'payload.order.discounts[0].target']);
      const forward = await t.http.post<ErrorBody>('/enrich-order-forward', sent, { token: orders });
      expect([forward.status, forward.body.details?.[0]?.field]).toEqual([400, 'order.discounts[0].target']);
    });
  });
});
