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

interface EnrichAnswer {
  payload: Record<string, unknown>;
  nfe?: { orderId: string; model: string; det: Array<{ prod: Record<string, string> }>; total: Record<string, Record<string, string>> };
  nfeProblems?: Array<{ field: string; code: string; problem: string }>;
}

describe('?nfe= on the enrich routes (e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let orders: string;
  const store = unique('nfe-enrich-store');

  const order = (orderId: string, productId = 'nfe-e-burger') => ({
    orderId,
    store: { id: store },
    order: { products: [{ productId, name: 'Burger', quantity: 1, price: { totalPrice: { total: 20 } } }] },
  });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url });
    orders = await t.tokenFor(['orders']);
    const admin = await t.tokenFor(['admin']);
    const created = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Default CFOP',
        uf: 'SP',
        taxRegime: 'LUCRO_REAL',
        stores: [{ store_id: store, store_name: 'Centro' }],
        // The rules carry no CFOP: the group's default gives it, but to the ST rule, which cannot be printed anyway.
        settings: { defaultCfop: '5102' },
        taxMatrix: { '21069090': rule('21069090'), '22021000': rule('22021000', { CST_ICMS: '70' }) },
      },
      { token: admin },
    );
    expect(created.status).toBe(201);
    for (const [productId, ncm] of [
      ['nfe-e-burger', '21069090'],
      ['nfe-e-cola', '22021000'],
    ]) {
      expect(
        (await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token: admin })).status,
      ).toBe(201);
    }
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('POST /enrich-order?nfe=65 answers nfe, equal to GET /orders/{orderId}/nfe, the payload unchanged; the CFOP from the group', async () => {
    const orderId = unique('nfe-e');
    const plain = await t.http.post<EnrichAnswer>('/enrich-order', order(orderId), { token: orders, query: { dryRun: true } });
    const withNfe = await t.http.post<EnrichAnswer>('/enrich-order', order(orderId), { token: orders, query: { nfe: '65' } });
    expect(withNfe.status).toBe(200);
    const calculated = (body: EnrichAnswer) => ({
      ...body.payload,
      taxSummary: { ...(body.payload.taxSummary as object), calculatedAt: '', fiscalDocument: null },
    });
    expect(calculated(withNfe.body)).toEqual(calculated(plain.body));
    expect(plain.body.nfe).toBeUndefined();
    // vBC 20.00; vICMS = 20.00 × 18 % = 3.60; PIS/COFINS base 20.00 − 3.60 = 16.40; vPIS = 0.1066 → 0.11; vCOFINS = 0.492 → 0.49
    expect(withNfe.body.nfe).toMatchObject({
      orderId,
      model: '65',
      det: [{ prod: { CFOP: '5102', vProd: '20.00' } }],
      total: { ICMSTot: { vICMS: '3.60', vPIS: '0.11', vCOFINS: '0.49', vNF: '20.00' } },
    });
    const got = await t.http.get(`/orders/${orderId}/nfe`, { token: orders });
    expect(got.body).toEqual(withNfe.body.nfe);
  });

  it('model 55 and dryRun: nfe answered, nothing stored', async () => {
    const orderId = unique('nfe-dry');
    const answer = await t.http.post<EnrichAnswer>('/enrich-order', order(orderId), { token: orders, query: { nfe: '55', dryRun: true } });
    expect(answer.status).toBe(200);
    expect(answer.body.nfe).toMatchObject({ orderId, model: '55' });
    expect((await t.http.get(`/orders/${orderId}/nfe`, { token: orders })).status).toBe(404);
  });

  it('an order that cannot be printed: nfeProblems instead of nfe, the answer otherwise unchanged', async () => {
    const orderId = unique('nfe-problems');
    const answer = await t.http.post<EnrichAnswer>('/enrich-order', order(orderId, 'nfe-e-cola'), { token: orders, query: { nfe: '65' } });
    expect(answer.status).toBe(200);
    expect(answer.body.nfe).toBeUndefined();
    expect(answer.body.nfeProblems).toEqual([{ field: 'order.products[0]', code: 'ICMS_ST_NOT_COMPUTED', problem: expect.any(String) }]);
    expect(answer.body.payload).toMatchObject({ orderId });
  });

  it('400 for another nfe value', async () => {
    const response = await t.http.post('/enrich-order', order(unique('nfe-400')), { token: orders, query: { nfe: '57' } });
    expect(response.status).toBe(400);
  });

  it('POST /enrich-order-forward?nfe=65: the forwarded body and the answer carry nfe', async () => {
    receiver.reset();
    const orderId = unique('nfe-fwd');
    const response = await t.http.post<{ message: string; nfe?: unknown }>('/enrich-order-forward', order(orderId), {
      token: orders,
      query: { nfe: '65' },
    });
    expect(response.status).toBe(200);
    expect(receiver.requests).toHaveLength(1);
    const sent = JSON.parse(receiver.requests[0]!.body) as { orderId: string; nfe: unknown; taxSummary: unknown };
    expect(sent.orderId).toBe(orderId);
    expect(sent.taxSummary).toBeDefined();
    expect(sent.nfe).toEqual((await t.http.get(`/orders/${orderId}/nfe`, { token: orders })).body);
    expect(response.body.nfe).toEqual(sent.nfe);
  });
});
