import type { ErrorBody } from '../support/api.js';
import { existingOrderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * `?profile=ifood` on what iFood's documents do inconsistently: a benefit whose target names nothing is
 * applied to the whole cart with a warning, a benefit without sponsors is taxed without lowering a base with a
 * warning, a long campaign name is cut; only a document that cannot be read as an order is a 400, and it names
 * the path in iFood's document (docs/ifood-profile.md).
 */
type Json = Record<string, any>;

const STORE_ID = 'ifood-own-words-store';

/** CST 00 at 18 % ICMS, PIS 0.65 %, COFINS 3 % (ICMS out of the PIS/COFINS base): every figure below follows from it. */
const rule = (ncm: string) => ({
  NCM: ncm,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
});

/**
 * An order shaped as the example of iFood's order-details guide: one item, `index: 0`, with one option, and a
 * 10.00 benefit on `target: ITEM` whose `targetId: "1"` names no item (the example's own inconsistency), 6.00
 * paid by iFood and 4.00 by the store.
 */
function documentationOrder(id: string, benefit: Json = {}): Json {
  return {
    id,
    displayId: 'fc999',
    orderType: 'TAKEOUT',
    orderTiming: 'IMMEDIATE',
    salesChannel: 'IFOOD',
    category: 'FOOD',
    createdAt: '2026-01-01T12:00:00.000Z',
    isTest: false,
    extraInfo: 'Pago Online. NÃO LEVAR MÁQUINA',
    merchant: { id: STORE_ID, name: 'Nome da Loja' },
    customer: { id: 'customer-1', name: 'Nome do Cliente' },
    items: [
      {
        index: 0,
        id: '2cd6b2c1-4a0f-4b8e-9b1e-3c54bb7f1a01',
        name: 'Pizza calabresa',
        externalCode: 'own-words-pizza',
        unit: 'UN',
        quantity: 1,
        unitPrice: 45,
        price: 45,
        optionsPrice: 5,
        totalPrice: 50,
        options: [
          {
            id: '2cd6b2c1-4a0f-4b8e-9b1e-3c54bb7f1a02',
            name: 'Borda catupiry',
            externalCode: 'own-words-crust',
            unit: 'UN',
            quantity: 1,
            unitPrice: 5,
            price: 5,
          },
        ],
      },
    ],
    benefits: [
      {
        value: 10,
        target: 'ITEM',
        targetId: '1',
        sponsorshipValues: [
          { name: 'IFOOD', value: 6, description: 'Incentivo iFood' },
          { name: 'MERCHANT', value: 4, description: 'Incentivo da loja' },
        ],
        campaign: { id: 'campaign-1', name: 'Pizza em dobro' },
        ...benefit,
      },
    ],
    total: { subTotal: 50, deliveryFee: 0, benefits: 10, additionalFees: 0, orderAmount: 40 },
    payments: { prepaid: 40, pending: 0, methods: [{ value: 40, currency: 'BRL', method: 'CREDIT', type: 'ONLINE' }] },
  };
}

describe('POST /api/enrich-order?profile=ifood on inconsistent documents (e2e)', () => {
  let t: TestApp;
  let orders: string;

  beforeAll(async () => {
    t = await bootTestApp();
    const admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Own words',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: STORE_ID, store_name: 'Nome da Loja' }],
        taxMatrix: { '19059090': rule('19059090'), '04061010': rule('04061010') },
      },
      { token: admin },
    );
    expect(group.status).toBe(201);
    for (const [productId, ncm] of [
      ['own-words-pizza', '19059090'],
      ['own-words-crust', '04061010'],
    ]) {
      const created = await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token: admin });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const enrich = (body: unknown, query: Record<string, string | boolean> = {}) =>
    t.http.post<Json>('/enrich-order', body, { token: orders, query: { profile: 'ifood', ...query } });

  it("iFood's documentation example (targetId naming no item): the benefit lowers the cart as a whole-order discount, with a warning", async () => {
    const response = await enrich(documentationOrder('own-words-doc'));
    expect(response.status).toBe(200);
    const payload = response.body.payload as Json;
    expect(payload.order.discounts).toEqual([
      {
        amount: 6,
        sponsor: 'PLATFORM',
        target: 'ITEMS',
        description: 'iFood benefit sponsored by IFOOD: Incentivo iFood',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Incentivo iFood' },
      },
      {
        amount: 4,
        sponsor: 'MERCHANT',
        target: 'ITEMS',
        description: 'iFood benefit sponsored by MERCHANT: Incentivo da loja',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'MERCHANT', detail: 'Incentivo da loja' },
      },
    ]);
    expect(payload.taxSummary.warnings).toEqual([
      {
        code: 'DISCOUNT_TARGET_NOT_FOUND',
        path: 'sourceOrder.benefits[0].targetId',
        message: 'targetId "1" names no item of the order (by index, else id): the benefit was applied to the whole cart (ITEMS)',
      },
    ]);
    // The store's 4.00 is split over the cart in proportion (45.00 and 5.00 of 50.00), the last item taking the rest:
    // pizza 4.00 × 45 / 50 = 3.60, crust 4.00 − 3.60 = 0.40. iFood's 6.00 lowers no base: it is paid back to the store.
    // Pizza 45.00 − 3.60 = 41.40: ICMS 18 % = 7.452 → 7.45; PIS/COFINS base 41.40 − 7.45 = 33.95:
    //   PIS 0.65 % = 0.220675 → 0.22, COFINS 3 % = 1.0185 → 1.02.
    // Crust 5.00 − 0.40 = 4.60: ICMS 0.828 → 0.83; base 4.60 − 0.83 = 3.77: PIS 0.024505 → 0.02, COFINS 0.1131 → 0.11.
    // Totals: base 41.40 + 4.60 = 46.00, ICMS 8.28, PIS 0.24, COFINS 1.13, all taxes 9.65.
    const [pizza] = payload.order.products as Json[];
    expect(pizza.tax).toMatchObject({ discount: 3.6, netAmount: 41.4, ICMS_value: 7.45, PIS_value: 0.22, COFINS_value: 1.02 });
    expect(pizza.modifierGroups[0].selectedModifiers[0].tax).toMatchObject({
      discount: 0.4,
      netAmount: 4.6,
      ICMS_value: 0.83,
      PIS_value: 0.02,
      COFINS_value: 0.11,
    });
    expect(payload.taxSummary.totals).toMatchObject({
      base: 46,
      discount: 4,
      ICMS_value: 8.28,
      PIS_value: 0.24,
      COFINS_value: 1.13,
      total_tax: 9.65,
    });
    expect(payload.taxSummary.thirdPartyPayments).toEqual([
      {
        amount: 6,
        sponsor: 'PLATFORM',
        description: 'iFood benefit sponsored by IFOOD: Incentivo iFood',
        // The same as a code and parameters, which the console says in the reader's language.
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Incentivo iFood' },
      },
    ]);

    // The same benefit sent on the whole cart is taxed alike, without the warning.
    const cart = await enrich(documentationOrder('own-words-cart', { target: 'CART', targetId: undefined }), { dryRun: true });
    expect(cart.status).toBe(200);
    expect(cart.body.payload.taxSummary.totals).toEqual(payload.taxSummary.totals);
    expect(cart.body.payload.taxSummary.warnings).toEqual([]);

    // Stored with its warning, which taxing the stored order again reports again.
    const row = await existingOrderRow(t.dataSource, 'own-words-doc');
    expect(row.status).toBe('ENRICHED');
    expect((row.payload as Json).intakeWarnings).toEqual(payload.taxSummary.warnings);
    expect((row.enrichedPayload as Json).taxSummary.warnings).toEqual(payload.taxSummary.warnings);
  });

  it('a benefit without sponsors is taxed as paid back by the platform, lowering no base, with DISCOUNT_SPONSOR_UNKNOWN', async () => {
    const response = await enrich(documentationOrder('own-words-no-sponsor', { target: 'CART', sponsorshipValues: [] }), { dryRun: true });
    expect(response.status).toBe(200);
    const summary = response.body.payload.taxSummary as Json;
    expect(summary.warnings).toEqual([
      {
        code: 'DISCOUNT_SPONSOR_UNKNOWN',
        path: 'sourceOrder.benefits[0].sponsorshipValues',
        message: expect.stringContaining('10.00'),
      },
    ]);
    // Nothing comes off the items (no share is split to them): pizza 45.00, ICMS 18 % = 8.10; crust 5.00, ICMS 0.90;
    // base 50.00, ICMS 9.00.
    expect(summary.totals).toMatchObject({ base: 50, ICMS_value: 9 });
    expect(summary.totals.discount).toBeUndefined();
    expect(summary.thirdPartyPayments).toEqual([
      {
        amount: 10,
        sponsor: 'PLATFORM',
        description: expect.any(String),
        descriptionCode: expect.any(String),
        descriptionParams: expect.any(Object),
      },
    ]);
  });

  it('a 600-character campaign name and fee description are cut to the 500 a description takes, not refused', async () => {
    const body = documentationOrder('own-words-long', {
      sponsorshipValues: [{ name: 'MERCHANT', value: 4 }],
      campaign: { name: 'C'.repeat(600) },
    });
    body.additionalFees = [{ type: 'SMALL_ORDER_FEE', value: 0.99, description: 'F'.repeat(600) }];
    const response = await enrich(body, { dryRun: true });
    expect(response.status).toBe(200);
    const { discounts, otherCharges } = response.body.payload.order as Json;
    expect(discounts[0].description).toHaveLength(500);
    expect(discounts[0].description).toMatch(/^iFood benefit sponsored by MERCHANT: C+…$/);
    expect(discounts[0].descriptionParams.detail).toHaveLength(500);
    expect(otherCharges[0].description).toHaveLength(500);
    expect(otherCharges[0].description).toMatch(/^iFood SMALL_ORDER_FEE: F+…$/);
    // The document is kept whole.
    expect(response.body.payload.sourceOrder.benefits[0].campaign.name).toHaveLength(600);
  });

  it("a document that cannot be read as an order is a 400 naming the paths in iFood's document", async () => {
    const many = documentationOrder('own-words-many', {
      target: 'CART',
      sponsorshipValues: Array.from({ length: 101 }, () => ({ name: 'MERCHANT', value: 0.01 })),
    });
    const tooMany = await t.http.post<ErrorBody>('/enrich-order', many, { token: orders, query: { profile: 'ifood', dryRun: true } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toEqual([{ field: 'benefits', problem: expect.stringContaining('at most 100') }]);

    const malformed = documentationOrder('own-words-malformed');
    malformed.benefits[0].sponsorshipValues[0].value = 'six';
    const refused = await t.http.post<ErrorBody>('/enrich-order', malformed, { token: orders, query: { profile: 'ifood', dryRun: true } });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual([{ field: 'benefits[0].sponsorshipValues[0].value', problem: 'must be a number' }]);
  });
});
