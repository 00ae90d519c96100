import { failed, ok, type Api } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** `?nfe=65|55` on POST /api/enrich-order and /api/enrich-order-forward, through the whole service. */
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

const rule = (ncm: string, fields: Record<string, unknown> = {}) => ({
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

describe('?nfe= on the enrich routes (e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let orders: Api;
  const store = unique('nfe-enrich-store');

  let ordersToken: string;
  type EnrichQuery = { dryRun?: boolean; nfe?: '65' | '55' };
  const enrich = (body: ReturnType<typeof order>, query: EnrichQuery) => orders.POST('/api/enrich-order', { body, params: { query } });
  const nfeOf = (orderId: string) => orders.GET('/api/orders/{orderId}/nfe', { params: { path: { orderId } } });

  const order = (orderId: string, productId = 'nfe-e-burger') => ({
    orderId,
    store: { id: store },
    order: { products: [{ productId, name: 'Burger', quantity: 1, price: { totalPrice: { total: 20 } } }] },
  });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url });
    ordersToken = await t.tokenFor(['orders']);
    orders = t.apiAs(ordersToken);
    const admin = t.apiAs(await t.tokenFor(['admin']));
    const created = await admin.POST('/api/admin/fiscal-groups', {
      body: {
        name: 'Default CFOP',
        uf: 'SP',
        taxRegime: 'LUCRO_REAL',
        stores: [{ store_id: store, store_name: 'Centro' }],
        // The rules carry no CFOP: the group's default gives it, but to the ST rule, which cannot be printed anyway.
        settings: { defaultCfop: '5102' },
        taxMatrix: { '21069090': rule('21069090'), '22021000': rule('22021000', { CST_ICMS: '70' }) },
      },
    });
    ok(created, 201);
    for (const [productId, ncm] of [
      ['nfe-e-burger', '21069090'],
      ['nfe-e-cola', '22021000'],
    ]) {
      ok(await admin.POST('/api/admin/product-fiscal-categories', { body: { productId, productName: productId, ncm } }), 201);
    }
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('POST /enrich-order?nfe=65 answers nfe, equal to GET /orders/{orderId}/nfe, the payload unchanged; the CFOP from the group', async () => {
    const orderId = unique('nfe-e');
    const plain = ok(await enrich(order(orderId), { dryRun: true }), 200);
    const withNfe = ok(await enrich(order(orderId), { nfe: '65' }), 200);
    const calculated = (body: typeof plain) => ({
      ...body.payload,
      taxSummary: { ...(body.payload.taxSummary as object), calculatedAt: '', fiscalDocument: null },
    });
    expect(calculated(withNfe)).toEqual(calculated(plain));
    expect(plain.nfe).toBeUndefined();
    // vBC 20.00; vICMS = 20.00 × 18 % = 3.60; PIS/COFINS base 20.00 − 3.60 = 16.40; vPIS = 0.1066 → 0.11; vCOFINS = 0.492 → 0.49
    expect(withNfe.nfe).toMatchObject({
      orderId,
      model: '65',
      det: [{ prod: { CFOP: '5102', vProd: '20.00' } }],
      total: { ICMSTot: { vICMS: '3.60', vPIS: '0.11', vCOFINS: '0.49', vNF: '20.00' } },
    });
    expect(ok(await nfeOf(orderId), 200)).toEqual(withNfe.nfe);
  });

  it('model 55 and dryRun: nfe answered, nothing stored', async () => {
    const orderId = unique('nfe-dry');
    const answer = ok(await enrich(order(orderId), { nfe: '55', dryRun: true }), 200);
    expect(answer.nfe).toMatchObject({ orderId, model: '55' });
    failed(await nfeOf(orderId), 404);
  });

  it('an order that cannot be printed: nfeProblems instead of nfe, the answer otherwise unchanged', async () => {
    const orderId = unique('nfe-problems');
    const answer = ok(await enrich(order(orderId, 'nfe-e-cola'), { nfe: '65' }), 200);
    expect(answer.nfe).toBeUndefined();
    expect(answer.nfeProblems).toEqual([{ field: 'order.products[0]', code: 'ICMS_ST_NOT_COMPUTED', problem: expect.any(String) }]);
    expect(answer.payload).toMatchObject({ orderId });
  });

  it('400 for another nfe value', async () => {
    // A value the document does not allow: the typed client would not compile it, so it goes raw.
    const response = await t.http.post('/enrich-order', order(unique('nfe-400')), { token: ordersToken, query: { nfe: '57' } });
    expect(response.status).toBe(400);
  });

  it('POST /enrich-order-forward?nfe=65: the forwarded body and the answer carry nfe', async () => {
    receiver.reset();
    const orderId = unique('nfe-fwd');
    const answer = ok(await orders.POST('/api/enrich-order-forward', { body: order(orderId), params: { query: { nfe: '65' } } }), 200);
    expect(receiver.requests).toHaveLength(1);
    const sent = JSON.parse(receiver.requests[0]!.body) as { orderId: string; nfe: unknown; taxSummary: unknown };
    expect(sent.orderId).toBe(orderId);
    expect(sent.taxSummary).toBeDefined();
    expect(sent.nfe).toEqual(ok(await nfeOf(orderId), 200));
    expect(answer.nfe).toEqual(sent.nfe);
  });
});
