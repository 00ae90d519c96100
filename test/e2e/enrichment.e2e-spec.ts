import { OrderEntity } from '../../src/orders/order.entity.js';
import { failed, ok, type Schemas } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { enrichedPayloadOf, existingOrderRow, orderRow, statusHistory } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const ENRICH = '/enrich-order';
type OrderPayload = Schemas['OrderPayloadDto'];
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

describe('POST /api/enrich-order (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let orders: string;
  const storeId = unique('store');

  const order = (orderId: string, overrides: Partial<OrderPayload> = {}): OrderPayload => ({
    orderId,
    source: 'ifood',
    store: { id: storeId, name: 'Paulista' },
    customer: { name: 'Ana' },
    order: {
      products: [
        {
          productId: 'e2e-burger',
          quantity: 1,
          price: { totalPrice: { total: 25.9 } },
          modifierGroups: [{ name: 'Extras', selectedModifiers: [{ productId: 'e2e-cheese', price: { totalPrice: { total: 3.5 } } }] }],
        },
        { productId: 'SKU-E2E-COLA', quantity: 2, price: { totalPrice: { total: 13 } } },
      ],
    },
    payments: [{ method: 'PIX', value: 42.4 }],
    ...overrides,
  });

  beforeAll(async () => {
    t = await bootTestApp();
    admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
    const api = t.apiAs(admin);
    const group = await api.POST('/api/admin/fiscal-groups', {
      body: {
        externalId: unique('ext'),
        name: 'E2E SP',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: storeId, store_name: 'Paulista' }],
        taxMatrix: {
          '21069090': {
            NCM: '21069090',
            CEST: '',
            CST_ICMS: '00',
            ICMS_rate: 18,
            CST_PIS: '01',
            PIS_rate: 0.65,
            CST_COFINS: '01',
            COFINS_rate: 3,
            CFOP: '5102',
          },
          '0406': { NCM: '0406', CEST: '', CST_ICMS: '00', ICMS_rate: 7, CST_PIS: '01', PIS_rate: 0.65, CST_COFINS: '01', COFINS_rate: 3 },
          '22021000': {
            NCM: '22021000',
            CEST: '0300700',
            CST_ICMS: '60',
            ICMS_rate: 18,
            CST_PIS: '04',
            PIS_rate: 0.65,
            CST_COFINS: '04',
            COFINS_rate: 3,
          },
        },
      },
    });
    ok(group, 201);
    for (const category of [
      { productId: 'e2e-burger', productName: 'Burger', ncm: '21069090' },
      { productId: 'e2e-cheese', productName: 'Cheese', ncm: '04069000' },
      { productId: 'e2e-cola', productName: 'Cola', ncm: '22021000', externalProductId: 'SKU-E2E-COLA' },
    ]) {
      ok(await api.POST('/api/admin/product-fiscal-categories', { body: category }), 201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const stored = (orderId: string) => existingOrderRow(t.dataSource, orderId);
  const enrich = (body: OrderPayload | Schemas['WrappedOrderPayloadDto'], dryRun?: boolean) =>
    t.apiAs(orders).POST('/api/enrich-order', { body, params: { query: dryRun === undefined ? {} : { dryRun } } });

  it('enriches an order at the root, stores it and answers 200 with the enriched payload', async () => {
    const orderId = unique('root');
    const sent = order(orderId);
    const response = ok(await enrich(sent), 200);
    expect(Object.keys(response).sort()).toEqual(['message', 'orderDbId', 'orderId', 'payload']);
    expect(response.orderId).toBe(orderId);
    expect(response.orderDbId).toMatch(/^[0-9a-f-]{36}$/);

    const enriched = response.payload;
    // Burger 25.90: ICMS 4.662 → 4.66; base 21.24; PIS 0.13806 → 0.14; COFINS 0.6372 → 0.64; total 5.44
    expect(enriched.order!.products![0]!.tax).toMatchObject({
      NCM: '21069090',
      ICMS_value: 4.66,
      PIS_value: 0.14,
      COFINS_value: 0.64,
      total_tax: 5.44,
      matchedBy: 'productId',
    });
    // Cheese 3.50 by prefix 0406 at 7 %: ICMS 0.245 → 0.25; base 3.25; PIS 0.021125 → 0.02; COFINS 0.0975 → 0.10; total 0.37
    expect(enriched.order!.products![0]!.modifierGroups?.[0]?.selectedModifiers?.[0]?.tax).toMatchObject({
      matchedKey: '0406',
      ICMS_value: 0.25,
      total_tax: 0.37,
    });
    // Cola 13.00 by externalProductId: CST 60 and 04 → no tax
    expect(enriched.order!.products![1]!.tax).toMatchObject({
      matchedBy: 'externalProductId',
      total_tax: 0,
      zeroReasons: { ICMS: 'CST_60', PIS: 'CST_04', COFINS: 'CST_04' },
    });
    // Totals: base 25.90 + 3.50 + 13.00 = 42.40; ICMS 4.66 + 0.25 = 4.91; PIS 0.14 + 0.02 = 0.16; COFINS 0.64 + 0.10 = 0.74; total 5.81
    expect(enriched.taxSummary.totals).toEqual({ base: 42.4, ICMS_value: 4.91, PIS_value: 0.16, COFINS_value: 0.74, total_tax: 5.81 });
    expect(enriched.taxSummary).toMatchObject({ uf: 'SP', taxRegime: 'LUCRO_PRESUMIDO', warnings: [], engineVersion: '1.2.0' });
    // Everything the platform sent is kept.
    expect(enriched.customer).toEqual(sent.customer);
    expect(enriched.payments).toEqual(sent.payments);

    const row = await stored(orderId);
    expect(row).toMatchObject({ id: response.orderDbId, status: 'ENRICHED', storeId, source: 'ifood', webhookAttempts: 0 });
    expect(row.payload).toEqual(sent);
    expect(row.enrichedPayload).toEqual(enriched);
  });

  it('accepts the order wrapped under payload and answers the enriched payload itself', async () => {
    const orderId = unique('wrapped');
    const response = ok(await enrich({ payload: order(orderId) }), 200);
    expect(response.orderId).toBe(orderId);
    expect(response.payload.orderId).toBe(orderId);
    expect(response.payload.taxSummary.totals.total_tax).toBe(5.81);
    expect((await stored(orderId)).payload.orderId).toBe(orderId);
  });

  it('reports lines it cannot tax as warnings with tax: null', async () => {
    const orderId = unique('warn');
    const sent = {
      ...order(orderId),
      order: {
        products: [
          { productId: 'nobody-knows', price: { totalPrice: { total: 10 } } },
          { productId: 'e2e-burger', price: {} },
        ],
      },
    };
    // A line without an amount is outside the schema but accepted with a warning: sent raw, the answer read as documented.
    const answer = await t.http.post<Schemas['EnrichOrderResponseDto']>(ENRICH, sent, { token: orders });
    expect(answer.status).toBe(200);
    const response = answer.body;
    expect(response.message).toMatch(/2 warning/);
    expect(response.payload.order!.products!.map((line) => line.tax)).toEqual([null, null]);
    expect(response.payload.taxSummary.warnings.map((warning) => warning.code)).toEqual(['PRODUCT_CATEGORY_NOT_FOUND', 'MISSING_AMOUNT']);
  });

  describe('400', () => {
    it.each([
      ['no body', undefined, undefined],
      ['an empty JSON object', '{}', 'orderId'],
      ['a JSON array', '[{"orderId":"x"}]', undefined],
      ['a JSON string', '"ORD-1"', undefined],
      ['no orderId', JSON.stringify({ store: { id: 'x' } }), 'orderId'],
      ['a numeric orderId', JSON.stringify({ orderId: 123 }), 'orderId'],
      ['an empty orderId', JSON.stringify({ orderId: '' }), 'orderId'],
      ['an orderId over 100 characters', JSON.stringify({ orderId: 'x'.repeat(101) }), 'orderId'],
      ['a wrapped payload without orderId', JSON.stringify({ payload: { store: { id: 'x' } } }), 'payload.orderId'],
      ['malformed JSON', '{"orderId": "x"', undefined],
    ])('for %s', async (_label, raw, field) => {
      // Bodies outside the schema: sent raw, the answer read as the documented error body.
      const response = await t.http.post<Schemas['ErrorResponseDto']>(ENRICH, undefined, {
        token: orders,
        ...(raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } }),
      });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
      expect(typeof response.body.message).toBe('string');
      if (field) expect(response.body.details?.[0]?.field).toBe(field);
    });

    it('for a NUL character in the order (PostgreSQL cannot store it), and nothing is stored', async () => {
      const orderId = unique('nul');
      expect(failed(await enrich(order(orderId, { customer: { name: 'Ana\u0000' } })), 400).message).toMatch(/NUL character/);
      expect(await orderRow(t.dataSource, orderId)).toBeNull();
    });

    it('for an invalid dryRun value', async () => {
      // A query outside the schema: sent raw.
      const response = await t.http.post<Schemas['ErrorResponseDto']>(ENRICH, order(unique('dry')), {
        token: orders,
        query: { dryRun: 'maybe' },
      });
      expect(response.status).toBe(400);
      expect(response.body.details?.[0]?.field).toBe('dryRun');
    });
  });

  describe('422 FISCAL_GROUP_NOT_FOUND', () => {
    it('stores the order as ENRICHMENT_FAILED when no group holds the store', async () => {
      const orderId = unique('nogroup');
      const sent = order(orderId, { store: { id: 'store-without-group' } });
      expect(failed(await enrich(sent), 422)).toEqual({
        message: expect.stringContaining('store-without-group'),
        error: 'FISCAL_GROUP_NOT_FOUND',
      });
      const row = await stored(orderId);
      expect(row).toMatchObject({ status: 'ENRICHMENT_FAILED', storeId: 'store-without-group', enrichedPayload: null });
      expect(row.payload).toEqual(sent);
    });

    it('stores the order as ENRICHMENT_FAILED when it has no store.id', async () => {
      const orderId = unique('nostore');
      // A body outside the schema (no store): sent raw.
      const response = await t.http.post(ENRICH, { orderId, order: { products: [] } }, { token: orders });
      expect(response.status).toBe(422);
      expect((await stored(orderId)).status).toBe('ENRICHMENT_FAILED');
    });
  });

  describe('storage by orderId', () => {
    it('leaves one row and one orderDbId for 20 concurrent sends of one order', async () => {
      const orderId = unique('concurrent');
      const responses = await Promise.all(Array.from({ length: 20 }, async () => ok(await enrich(order(orderId)), 200)));
      expect(new Set(responses.map((response) => response.orderDbId)).size).toBe(1);
      expect(await t.dataSource.getRepository(OrderEntity).countBy({ orderId })).toBe(1);
    });

    it('keeps orderDbId, createdAt and webhookAttempts on a re-send and refreshes the payload', async () => {
      const orderId = unique('resend');
      const first = ok(await enrich(order(orderId)), 200);
      const before = await stored(orderId);
      await t.dataSource.getRepository(OrderEntity).update({ orderId }, { webhookAttempts: 3 });
      const changed = order(orderId, {
        source: 'rappi',
        order: { products: [{ productId: 'e2e-burger', price: { totalPrice: { total: 10 } } }] },
      });
      expect(ok(await enrich(changed), 200).orderDbId).toBe(first.orderDbId);
      const after = await stored(orderId);
      expect(after.createdAt).toEqual(before.createdAt);
      expect(after.webhookAttempts).toBe(3);
      expect(after.source).toBe('rappi');
      expect(after.payload).toEqual(changed);
      // 10.00: ICMS 1.80; base 8.20; PIS 0.0533 → 0.05; COFINS 0.246 → 0.25; total 2.10
      expect(enrichedPayloadOf(after).taxSummary.totals.total_tax).toBe(2.1);
      expect(after.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
    });

    it('does not move an order back from a fulfillment status', async () => {
      const orderId = unique('accepted');
      ok(await enrich(order(orderId)), 200);
      await t.dataSource.getRepository(OrderEntity).update({ orderId }, { status: 'ACCEPTED' });
      ok(await enrich(order(orderId)), 200);
      expect((await stored(orderId)).status).toBe('ACCEPTED');
    });

    it('moves a failed order to ENRICHED once its store has a group, and records the history', async () => {
      const orderId = unique('retry');
      failed(await enrich(order(orderId, { store: { id: 'unknown-store' } })), 422);
      ok(await enrich(order(orderId)), 200);
      expect((await stored(orderId)).status).toBe('ENRICHED');
      const history = (await statusHistory(t.dataSource, orderId)).map(({ fromStatus, toStatus, via, clientId }) => ({
        fromStatus,
        toStatus,
        via,
        clientId,
      }));
      expect(history).toEqual([
        { fromStatus: null, toStatus: 'ENRICHMENT_FAILED', via: 'POST /api/enrich-order', clientId: expect.stringMatching(/^\d+$/) },
        { fromStatus: 'ENRICHMENT_FAILED', toStatus: 'ENRICHED', via: 'POST /api/enrich-order', clientId: expect.stringMatching(/^\d+$/) },
      ]);
    });
  });

  it('stores nothing on a dry run', async () => {
    const orderId = unique('dry');
    const response = ok(await enrich(order(orderId), true), 200);
    expect(response.orderDbId).toBeNull();
    expect(response.payload.taxSummary.totals.total_tax).toBe(5.81);
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
    failed(await enrich(order(orderId, { store: { id: 'nope' } }), true), 422);
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
  });

  describe('fiscal configuration changes reach the order path', () => {
    const burgerOrder = (orderId: string) =>
      order(orderId, { order: { products: [{ productId: 'e2e-burger', price: { totalPrice: { total: 10 } } }] } });
    const groupId = async () =>
      ok(await t.apiAs(admin).GET('/api/admin/fiscal-groups/by-store/{storeId}', { params: { path: { storeId } } }), 200).id;
    const icmsOf = async () => {
      const tax = ok(await enrich(burgerOrder(unique('cache')), true), 200).payload.order!.products![0]!.tax;
      if (!tax) throw new Error('the burger was not taxed');
      return tax;
    };

    const reachesOrderPath = (check: () => Promise<boolean>) => eventually(check, { what: 'the change to reach the order path' });

    // The changes "behind the service's back" are raw SQL on purpose: only the database's NOTIFY triggers can tell the service.
    afterEach(async () => {
      // Back to the 18 % rule and the burger's own NCM for the other tests.
      await t.dataSource.query(`UPDATE fiscal_group SET tax_matrix = jsonb_set(tax_matrix, '{21069090,ICMS_rate}', '18') WHERE id = $1`, [
        await groupId(),
      ]);
      await t.dataSource.query("UPDATE product_fiscal_category SET ncm = '21069090' WHERE product_id = 'e2e-burger'");
      // Written behind the service's back: the next test starts once the notification has reached its cache.
      await reachesOrderPath(async () => {
        const tax = await icmsOf();
        return tax.matchedKey === '21069090' && tax.ICMS_value === 1.8;
      });
    });

    it('uses a matrix updated through the API at once', async () => {
      // 10.00 × 18 % = 1.80
      expect((await icmsOf()).ICMS_value).toBe(1.8);
      const api = t.apiAs(admin);
      const current = ok(await api.GET('/api/admin/fiscal-groups/{id}', { params: { path: { id: await groupId() } } }), 200);
      const matrix = { ...current.taxMatrix, '21069090': { ...current.taxMatrix['21069090']!, ICMS_rate: 12 } };
      ok(await api.PUT('/api/admin/fiscal-groups/{id}', { params: { path: { id: current.id } }, body: { taxMatrix: matrix } }), 200);
      // 10.00 × 12 % = 1.20
      expect((await icmsOf()).ICMS_value).toBe(1.2);
    });

    it('hears about a change written behind its back (another instance, the CLI, SQL) through NOTIFY', async () => {
      expect((await icmsOf()).ICMS_value).toBe(1.8);
      await t.dataSource.query(`UPDATE fiscal_group SET tax_matrix = jsonb_set(tax_matrix, '{21069090,ICMS_rate}', '7') WHERE id = $1`, [
        await groupId(),
      ]);
      // 10.00 × 7 % = 0.70
      await reachesOrderPath(async () => (await icmsOf()).ICMS_value === 0.7);
    });

    it('hears about a product category change', async () => {
      expect((await icmsOf()).matchedKey).toBe('21069090');
      await t.dataSource.query("UPDATE product_fiscal_category SET ncm = '04061000' WHERE product_id = 'e2e-burger'");
      // Now matched by the 0406 prefix at 7 %: 10.00 × 7 % = 0.70
      await reachesOrderPath(async () => {
        const tax = await icmsOf();
        return tax.matchedKey === '0406' && tax.ICMS_value === 0.7;
      });
    });
  });

  it('requires the orders scope', async () => {
    failed(await t.apiAs(admin).POST('/api/enrich-order', { body: order(unique('scope')) }), 403);
  });
});
