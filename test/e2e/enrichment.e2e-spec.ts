import { eventually } from '../support/eventually.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const ENRICH = '/enrich-order';
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

describe('POST /api/enrich-order (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let orders: string;
  const storeId = unique('store');

  const order = (orderId: string, overrides: Record<string, unknown> = {}) => ({
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
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
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
      { token: admin },
    );
    expect(group.status).toBe(201);
    for (const category of [
      { productId: 'e2e-burger', productName: 'Burger', ncm: '21069090' },
      { productId: 'e2e-cheese', productName: 'Cheese', ncm: '04069000' },
      { productId: 'e2e-cola', productName: 'Cola', ncm: '22021000', externalProductId: 'SKU-E2E-COLA' },
    ]) {
      expect((await t.http.post('/admin/product-fiscal-categories', category, { token: admin })).status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const stored = async (orderId: string) => (await t.dataSource.query('SELECT * FROM orders WHERE order_id = $1', [orderId]))[0];

  it('enriches an order at the root, stores it and answers 200 with the enriched payload', async () => {
    const orderId = unique('root');
    const sent = order(orderId);
    const response = await t.http.post(ENRICH, sent, { token: orders });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(['message', 'orderDbId', 'orderId', 'payload']);
    expect(response.body.orderId).toBe(orderId);
    expect(response.body.orderDbId).toMatch(/^[0-9a-f-]{36}$/);

    const enriched = response.body.payload;
    // Burger 25.90: ICMS 4.662 → 4.66; base 21.24; PIS 0.13806 → 0.14; COFINS 0.6372 → 0.64; total 5.44
    expect(enriched.order.products[0].tax).toMatchObject({
      NCM: '21069090',
      ICMS_value: 4.66,
      PIS_value: 0.14,
      COFINS_value: 0.64,
      total_tax: 5.44,
      matchedBy: 'productId',
    });
    // Cheese 3.50 by prefix 0406 at 7 %: ICMS 0.245 → 0.25; base 3.25; PIS 0.021125 → 0.02; COFINS 0.0975 → 0.10; total 0.37
    expect(enriched.order.products[0].modifierGroups[0].selectedModifiers[0].tax).toMatchObject({
      matchedKey: '0406',
      ICMS_value: 0.25,
      total_tax: 0.37,
    });
    // Cola 13.00 by externalProductId: CST 60 and 04 → no tax
    expect(enriched.order.products[1].tax).toMatchObject({
      matchedBy: 'externalProductId',
      total_tax: 0,
      zeroReasons: { ICMS: 'CST_60', PIS: 'CST_04', COFINS: 'CST_04' },
    });
    // Totals: base 25.90 + 3.50 + 13.00 = 42.40; ICMS 4.66 + 0.25 = 4.91; PIS 0.14 + 0.02 = 0.16; COFINS 0.64 + 0.10 = 0.74; total 5.81
    expect(enriched.taxSummary.totals).toEqual({ base: 42.4, ICMS_value: 4.91, PIS_value: 0.16, COFINS_value: 0.74, total_tax: 5.81 });
    expect(enriched.taxSummary).toMatchObject({ uf: 'SP', taxRegime: 'LUCRO_PRESUMIDO', warnings: [], engineVersion: '1.1.0' });
    // Everything the platform sent is kept.
    expect(enriched.customer).toEqual(sent.customer);
    expect(enriched.payments).toEqual(sent.payments);

    const row = await stored(orderId);
    expect(row).toMatchObject({ id: response.body.orderDbId, status: 'ENRICHED', store_id: storeId, source: 'ifood', webhook_attempts: 0 });
    expect(row.payload).toEqual(sent);
    expect(row.enriched_payload).toEqual(enriched);
  });

  it('accepts the order wrapped under payload and answers the enriched payload itself', async () => {
    const orderId = unique('wrapped');
    const response = await t.http.post(ENRICH, { payload: order(orderId) }, { token: orders });
    expect(response.status).toBe(200);
    expect(response.body.orderId).toBe(orderId);
    expect(response.body.payload.orderId).toBe(orderId);
    expect(response.body.payload.taxSummary.totals.total_tax).toBe(5.81);
    expect((await stored(orderId)).payload.orderId).toBe(orderId);
  });

  it('reports lines it cannot tax as warnings with tax: null', async () => {
    const orderId = unique('warn');
    const sent = order(orderId, {
      order: {
        products: [
          { productId: 'nobody-knows', price: { totalPrice: { total: 10 } } },
          { productId: 'e2e-burger', price: {} },
        ],
      },
    });
    const response = await t.http.post(ENRICH, sent, { token: orders });
    expect(response.status).toBe(200);
    expect(response.body.message).toMatch(/2 warning/);
    expect(response.body.payload.order.products.map((line: { tax: unknown }) => line.tax)).toEqual([null, null]);
    expect(response.body.payload.taxSummary.warnings.map((warning: { code: string }) => warning.code)).toEqual([
      'PRODUCT_CATEGORY_NOT_FOUND',
      'MISSING_AMOUNT',
    ]);
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
      const response = await t.http.post(ENRICH, undefined, {
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
      const response = await t.http.post(ENRICH, order(orderId, { customer: { name: 'Ana\u0000' } }), { token: orders });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/NUL character/);
      expect(await stored(orderId)).toBeUndefined();
    });

    it('for an invalid dryRun value', async () => {
      const response = await t.http.post(ENRICH, order(unique('dry')), { token: orders, query: { dryRun: 'maybe' } });
      expect(response.status).toBe(400);
      expect(response.body.details[0].field).toBe('dryRun');
    });
  });

  describe('422 FISCAL_GROUP_NOT_FOUND', () => {
    it('stores the order as ENRICHMENT_FAILED when no group holds the store', async () => {
      const orderId = unique('nogroup');
      const sent = order(orderId, { store: { id: 'store-without-group' } });
      const response = await t.http.post(ENRICH, sent, { token: orders });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message: expect.stringContaining('store-without-group'), error: 'FISCAL_GROUP_NOT_FOUND' });
      const row = await stored(orderId);
      expect(row).toMatchObject({ status: 'ENRICHMENT_FAILED', store_id: 'store-without-group', enriched_payload: null });
      expect(row.payload).toEqual(sent);
    });

    it('stores the order as ENRICHMENT_FAILED when it has no store.id', async () => {
      const orderId = unique('nostore');
      const response = await t.http.post(ENRICH, { orderId, order: { products: [] } }, { token: orders });
      expect(response.status).toBe(422);
      expect((await stored(orderId)).status).toBe('ENRICHMENT_FAILED');
    });
  });

  describe('storage by orderId', () => {
    it('leaves one row and one orderDbId for 20 concurrent sends of one order', async () => {
      const orderId = unique('concurrent');
      const responses = await Promise.all(Array.from({ length: 20 }, () => t.http.post(ENRICH, order(orderId), { token: orders })));
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(200));
      expect(new Set(responses.map((response) => response.body.orderDbId)).size).toBe(1);
      const rows = await t.dataSource.query('SELECT count(*)::int AS n FROM orders WHERE order_id = $1', [orderId]);
      expect(rows[0].n).toBe(1);
    });

    it('keeps orderDbId, createdAt and webhookAttempts on a re-send and refreshes the payload', async () => {
      const orderId = unique('resend');
      const first = await t.http.post(ENRICH, order(orderId), { token: orders });
      const before = await stored(orderId);
      await t.dataSource.query('UPDATE orders SET webhook_attempts = 3 WHERE order_id = $1', [orderId]);
      const changed = order(orderId, {
        source: 'rappi',
        order: { products: [{ productId: 'e2e-burger', price: { totalPrice: { total: 10 } } }] },
      });
      const second = await t.http.post(ENRICH, changed, { token: orders });
      expect(second.status).toBe(200);
      expect(second.body.orderDbId).toBe(first.body.orderDbId);
      const after = await stored(orderId);
      expect(after.created_at).toEqual(before.created_at);
      expect(after.webhook_attempts).toBe(3);
      expect(after.source).toBe('rappi');
      expect(after.payload).toEqual(changed);
      // 10.00: ICMS 1.80; base 8.20; PIS 0.0533 → 0.05; COFINS 0.246 → 0.25; total 2.10
      expect(after.enriched_payload.taxSummary.totals.total_tax).toBe(2.1);
      expect(new Date(after.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(before.updated_at).getTime());
    });

    it('does not move an order back from a fulfillment status', async () => {
      const orderId = unique('accepted');
      await t.http.post(ENRICH, order(orderId), { token: orders });
      await t.dataSource.query("UPDATE orders SET status = 'ACCEPTED' WHERE order_id = $1", [orderId]);
      expect((await t.http.post(ENRICH, order(orderId), { token: orders })).status).toBe(200);
      expect((await stored(orderId)).status).toBe('ACCEPTED');
    });

    it('moves a failed order to ENRICHED once its store has a group, and records the history', async () => {
      const orderId = unique('retry');
      await t.http.post(ENRICH, order(orderId, { store: { id: 'unknown-store' } }), { token: orders });
      await t.http.post(ENRICH, order(orderId), { token: orders });
      const row = await stored(orderId);
      expect(row.status).toBe('ENRICHED');
      const history = await t.dataSource.query(
        'SELECT from_status, to_status, via, client_id FROM order_status_history WHERE order_db_id = $1 ORDER BY id',
        [row.id],
      );
      expect(history).toEqual([
        { from_status: null, to_status: 'ENRICHMENT_FAILED', via: 'POST /api/enrich-order', client_id: expect.stringMatching(/^\d+$/) },
        {
          from_status: 'ENRICHMENT_FAILED',
          to_status: 'ENRICHED',
          via: 'POST /api/enrich-order',
          client_id: expect.stringMatching(/^\d+$/),
        },
      ]);
    });
  });

  it('stores nothing on a dry run', async () => {
    const orderId = unique('dry');
    const response = await t.http.post(ENRICH, order(orderId), { token: orders, query: { dryRun: 'true' } });
    expect(response.status).toBe(200);
    expect(response.body.orderDbId).toBeNull();
    expect(response.body.payload.taxSummary.totals.total_tax).toBe(5.81);
    expect(await stored(orderId)).toBeUndefined();
    const failed = await t.http.post(ENRICH, order(orderId, { store: { id: 'nope' } }), { token: orders, query: { dryRun: 'true' } });
    expect(failed.status).toBe(422);
    expect(await stored(orderId)).toBeUndefined();
  });

  describe('fiscal configuration changes reach the order path', () => {
    const burgerOrder = (orderId: string) =>
      order(orderId, { order: { products: [{ productId: 'e2e-burger', price: { totalPrice: { total: 10 } } }] } });
    const groupId = async () =>
      (await t.dataSource.query('SELECT fiscal_group_id FROM fiscal_group_store WHERE store_id = $1', [storeId]))[0].fiscal_group_id;
    const icmsOf = async () =>
      (await t.http.post(ENRICH, burgerOrder(unique('cache')), { token: orders, query: { dryRun: 'true' } })).body.payload.order.products[0]
        .tax;

    const reachesOrderPath = (check: () => Promise<boolean>) =>
      eventually(check, { timeoutMs: 5000, intervalMs: 20, what: 'the change to reach the order path' });

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
      const current = (await t.http.get(`/admin/fiscal-groups/${await groupId()}`, { token: admin })).body;
      const matrix = { ...current.taxMatrix, '21069090': { ...current.taxMatrix['21069090'], ICMS_rate: 12 } };
      expect((await t.http.put(`/admin/fiscal-groups/${current.id}`, { taxMatrix: matrix }, { token: admin })).status).toBe(200);
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
    expect((await t.http.post(ENRICH, order(unique('scope')), { token: admin })).status).toBe(403);
  });
});
