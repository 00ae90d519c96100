import { readFileSync } from 'node:fs';
import { IFOOD_ORDER_EXAMPLE } from '../../src/enrichment/ifood/ifood-order-example.js';
import type { ErrorBody } from '../support/api.js';
import { existingOrderRow, orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { forwardedPayload, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * `?profile=ifood` through the whole service: iFood's two sandbox orders, as they are, are mapped,
 * taxed (dry run and stored), stored and forwarded with the iFood order under `sourceOrder`; the OpenAPI
 * example is taxed by the demo data; unknown profiles and malformed iFood orders are 400s.
 */
type Json = Record<string, any>;

const sample = (name: string): Json => JSON.parse(readFileSync(new URL(`../fixtures/ifood/${name}.json`, import.meta.url), 'utf8')) as Json;
const SMALL = 'sandbox-delivery-merchant-small-order-fee';
const MULTI = 'sandbox-delivery-merchant-five-items-multi-options';
const MERCHANT_ID = '86c364e5-aa30-499e-aeb1-a2d3ddfc2b3e';

/** CST 00 at 18 % ICMS, PIS 0.65 %, COFINS 3 %: every figure below follows from it. */
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

/** The sample's products by their mapped productId (externalCode, else id). */
const SAMPLE_CATEGORIES: Array<[string, string]> = [
  ['1e71b649-8b72-43a4-89d7-3fd8b3e8c6f4', '22021000'], // soda 2 L, no externalCode
  ['5619', '21050010'], // Duplo Brigadeiro
  ['2589', '21050010'], // Copo G
  ['2467', '21050010'], // Copo M
  ['4145b406-21ef-44f9-942f-044a8b5a4b23', '19059090'], // Brownie, no externalCode
  ['20d54896-25ae-4e3b-a1e0-6b1a69eb47e1', '21069090'], // Morango
  ['cf5fb901-a6ff-4eed-9404-0d6ab559432a', '21069090'], // Suspiro
];

const itemsOf = (payload: Json): Json[] =>
  (payload.order.products as Json[]).flatMap((line) => [
    line,
    ...((line.modifierGroups ?? []) as Json[]).flatMap((group) => group.selectedModifiers as Json[]),
  ]);

describe('POST /api/enrich-order?profile=ifood (e2e)', () => {
  let t: TestApp;
  let orders: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ SEED_DEMO_DATA: 'true', ORDER_WEBHOOK_URL: receiver.url, WEBHOOK_RETRY_ENABLED: 'false' });
    const admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Sweet Confetty',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: MERCHANT_ID, store_name: 'Teste - Admin Sweet Confetty' }],
        taxMatrix: Object.fromEntries(['22021000', '21050010', '19059090', '21069090'].map((ncm) => [ncm, rule(ncm)])),
      },
      { token: admin },
    );
    expect(group.status).toBe(201);
    for (const [productId, ncm] of SAMPLE_CATEGORIES) {
      const created = await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token: admin });
      expect(created.status).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const enrich = (body: unknown, query: Record<string, string | boolean>) =>
    t.http.post<Json>('/enrich-order', body, { token: orders, query: { profile: 'ifood', ...query } });

  it('the small order with a fee: mapped and taxed on a dry run, nothing stored', async () => {
    const response = await enrich(sample(SMALL), { dryRun: true });
    expect(response.status).toBe(200);
    expect(response.body.orderDbId).toBeNull();
    expect(response.body.orderId).toBe('a78c1d62-3cd6-4dac-a1c2-f413b363d671');
    const payload = response.body.payload as Json;
    expect(payload.store.id).toBe(MERCHANT_ID);
    // The store delivers: its 8.90 fee is freight on the one item; iFood's 0.99 small-order fee stays outside.
    // Soda 10.00 + 8.90 = 18.90: ICMS 18 % = 3.402 → 3.40; PIS/COFINS base 18.90 − 3.40 = 15.50:
    // PIS 0.10075 → 0.10, COFINS 0.465 → 0.47; 3.97 in all.
    expect(payload.order.products[0].tax).toMatchObject({
      NCM: '22021000',
      freight: 8.9,
      netAmount: 18.9,
      ICMS_base: 18.9,
      ICMS_value: 3.4,
      PIS_value: 0.1,
      COFINS_value: 0.47,
      total_tax: 3.97,
    });
    expect(payload.taxSummary.totals).toMatchObject({ base: 18.9, ICMS_value: 3.4, total_tax: 3.97, freight: 8.9 });
    expect(payload.taxSummary.outsideInvoice).toEqual([{ kind: 'OTHER_CHARGE', amount: 0.99, reason: 'CHARGED_BY_PLATFORM' }]);
    expect(payload.taxSummary.warnings).toEqual([]);
    expect(payload.order.deliveryFee).toEqual({ amount: 8.9, deliveredBy: 'MERCHANT' });
    expect(payload.order.otherCharges).toEqual([{ amount: 0.99, chargedBy: 'PLATFORM', description: 'iFood SMALL_ORDER_FEE' }]);
    expect(payload.sourceOrder).toEqual(sample(SMALL));
    expect(await orderRow(t.dataSource, 'a78c1d62-3cd6-4dac-a1c2-f413b363d671')).toBeNull();
  });

  it('the five-item order: every line and option taxed, stored with the iFood order under sourceOrder', async () => {
    const dryRun = await enrich(sample(MULTI), { dryRun: true });
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.orderDbId).toBeNull();
    expect(dryRun.body.payload.taxSummary.totals).toMatchObject({ base: 74.15, ICMS_value: 13.34 });
    const response = await enrich(sample(MULTI), {});
    expect(response.status).toBe(200);
    expect(response.body.orderDbId).toEqual(expect.any(String));
    const payload = response.body.payload as Json;
    const items = itemsOf(payload);
    // 5 lines and 6 options.
    expect(items).toHaveLength(11);
    for (const item of items) expect(item.tax).toEqual(expect.objectContaining({ ICMS_rate: 18 }));
    // The store delivers: its 8.90 fee is split as freight over the items (65.25 in all, the order's subTotal),
    // 8.90 × amount / 65.25 half-up, the last item taking the remainder:
    // 10.00 → 1.36398 → 1.36; 15.00 → 2.04597 → 2.05; 10.00 → 1.36 twice; 5.00 → 0.68199 → 0.68;
    // 1.45 → 0.19778 → 0.20; 3.80 → 0.51831 → 0.52; the last soda 8.90 − 7.53 = 1.37; the 0.00 items take nothing.
    expect(items.map((item) => item.tax.freight)).toEqual([1.36, 0, 2.05, 0, 1.36, 0, 1.36, 0.68, 0.2, 0.52, 1.37]);
    // ICMS 18 % of each net amount: 11.36 → 2.0448 → 2.04 (three times); 17.05 → 3.069 → 3.07; 5.68 → 1.0224 → 1.02;
    // 1.65 → 0.297 → 0.30; 4.32 → 0.7776 → 0.78; 11.37 → 2.0466 → 2.05. 13.34 in all, on 65.25 + 8.90 = 74.15.
    expect(items.map((item) => item.tax.ICMS_value)).toEqual([2.04, 0, 3.07, 0, 2.04, 0, 2.04, 1.02, 0.3, 0.78, 2.05]);
    expect(payload.taxSummary.totals).toMatchObject({ base: 74.15, ICMS_value: 13.34, freight: 8.9, discount: 0 });
    expect(payload.taxSummary.warnings).toEqual([]);

    const row = await existingOrderRow(t.dataSource, '30357a33-385d-4a2f-87ba-bc4e99da1115');
    expect(row.status).toBe('ENRICHED');
    expect(row.storeId).toBe(MERCHANT_ID);
    expect(row.source).toBe('ifood');
    const stored = row.payload as Json;
    expect(stored.sourceOrder).toEqual(sample(MULTI));
    expect(stored.order.deliveryFee).toEqual({ amount: 8.9, deliveredBy: 'MERCHANT' });
    expect((row.enrichedPayload as Json).sourceOrder).toEqual(sample(MULTI));
  });

  it('the small order stored keeps its fees in the payload', async () => {
    expect((await enrich(sample(SMALL), {})).status).toBe(200);
    const stored = (await existingOrderRow(t.dataSource, 'a78c1d62-3cd6-4dac-a1c2-f413b363d671')).payload as Json;
    expect(stored.order.otherCharges).toEqual([{ amount: 0.99, chargedBy: 'PLATFORM', description: 'iFood SMALL_ORDER_FEE' }]);
    expect(stored.order.deliveryFee).toEqual({ amount: 8.9, deliveredBy: 'MERCHANT' });
    expect(stored.sourceOrder).toEqual(sample(SMALL));
  });

  it("the OpenAPI document's iFood example is taxed by the demo data, every line and option", async () => {
    const response = await enrich(IFOOD_ORDER_EXAMPLE, { dryRun: true });
    expect(response.status).toBe(200);
    const payload = response.body.payload as Json;
    expect(payload.store.id).toBe('demo-store-1');
    expect(payload.taxSummary.warnings).toEqual([]);
    for (const item of itemsOf(payload)) expect(item.tax).not.toBeNull();
    // 13.00 + 15.00 + 15.00 + 58.80 + 14.90 = 116.70, the example's subTotal; the store's 4.00 of the coupon comes off,
    // its 8.90 delivery fee goes on: 116.70 − 4.00 + 8.90 = 121.60. iFood's 6.00 is a third-party payment.
    expect(payload.taxSummary.totals).toMatchObject({ base: 121.6, discount: 4, freight: 8.9 });
    expect(payload.taxSummary.thirdPartyPayments).toEqual([
      {
        amount: 6,
        sponsor: 'PLATFORM',
        description: expect.any(String),
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: expect.any(Object),
      },
    ]);
    expect(payload.order.discounts).toHaveLength(2);
  });

  it('an unknown profile, or an order that is not an iFood order, is a 400 naming the path', async () => {
    const unknown = await t.http.post<ErrorBody>('/enrich-order', sample(SMALL), { token: orders, query: { profile: 'glovo' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([expect.objectContaining({ field: 'profile' })]);
    // The answer lists the profiles the service knows.
    expect(unknown.body.details![0]!.problem).toContain('standard, ifood, rappi, 99food, opendelivery, keeta');
    const malformed = await t.http.post<ErrorBody>(
      '/enrich-order',
      { id: 'x', merchant: { id: MERCHANT_ID }, items: {} },
      {
        token: orders,
        query: { profile: 'ifood' },
      },
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toEqual([{ field: 'items', problem: 'must be an array' }]);
    // Without the profile, or with the service's own (`standard`), an iFood order has no orderId.
    const plain = await t.http.post<ErrorBody>('/enrich-order', sample(SMALL), { token: orders });
    expect(plain.status).toBe(400);
    const standard = await t.http.post<ErrorBody>('/enrich-order', sample(SMALL), { token: orders, query: { profile: 'standard' } });
    expect(standard.status).toBe(400);
    expect(standard.body.details).toEqual([expect.objectContaining({ field: 'orderId' })]);
  });

  it('a client limited to stores is checked against the mapped store, and the 403 names merchant.id', async () => {
    const limitedTo = async (stores: string[]) => {
      const created = (
        await t.http.post<Json>(
          '/admin/clients',
          { name: `POS ${stores.join(',')}`, scopes: ['orders'], stores },
          { token: await t.adminToken() },
        )
      ).body;
      const login = await t.http.post<Json>('/authentication/login', {
        client_id: created.clientId,
        client_secret: created.secret,
        grant_type: 'client_credentials',
      });
      return login.body.accessToken as string;
    };
    const other = await limitedTo(['another-store']);
    const refused = await t.http.post<ErrorBody>('/enrich-order', sample(SMALL), {
      token: other,
      query: { profile: 'ifood', dryRun: true },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('STORE_NOT_ALLOWED');
    // Named in iFood's words: the store is its merchant.id.
    expect(refused.body.details).toEqual([expect.objectContaining({ field: 'merchant.id', storeId: MERCHANT_ID })]);
    const own = await limitedTo([MERCHANT_ID]);
    const allowed = await t.http.post<Json>('/enrich-order', sample(SMALL), { token: own, query: { profile: 'ifood', dryRun: true } });
    expect(allowed.status).toBe(200);
  });

  it('/enrich-order-forward maps the iFood order the same way and forwards the enriched payload, sourceOrder included', async () => {
    const unknown = await t.http.post<ErrorBody>('/enrich-order-forward', sample(SMALL), { token: orders, query: { profile: 'rappi' } });
    expect(unknown.status).toBe(400);
    expect(receiver.requests).toHaveLength(0);
    const forwarded = await t.http.post<Json>('/enrich-order-forward', sample(SMALL), { token: orders, query: { profile: 'ifood' } });
    expect(forwarded.status).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    const sent = forwardedPayload(receiver.requests[0]!) as Json;
    expect(sent.orderId).toBe('a78c1d62-3cd6-4dac-a1c2-f413b363d671');
    // Soda 10.00 with the 8.90 fee as freight: 3.40 + 0.10 + 0.47 = 3.97, as on /enrich-order.
    expect(sent.taxSummary.totals).toMatchObject({ base: 18.9, total_tax: 3.97 });
    expect(sent.sourceOrder).toEqual(sample(SMALL));
    expect((await existingOrderRow(t.dataSource, 'a78c1d62-3cd6-4dac-a1c2-f413b363d671')).status).toBe('FORWARDED');
  });
});
