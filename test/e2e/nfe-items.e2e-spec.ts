import { failed, ok, type Api, type Schemas } from '../support/api.js';
import { schemaErrorsOf } from '../support/nfe-schema.js';
import { asPerson, signedInPerson } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/** GET /api/orders/{orderId}/nfe through the whole service and its database. */
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
  CFOP: '5102',
  ...fields,
});

type Products = NonNullable<NonNullable<Schemas['OrderPayloadDto']['order']>['products']>;

/** The JSON answer of a route that can also answer XML. */
function json<Body>(answer: string | Body): Body {
  if (typeof answer === 'string') throw new Error(`expected JSON, got text: ${answer.slice(0, 80)}`);
  return answer;
}

describe('GET /api/orders/{orderId}/nfe (e2e)', () => {
  let t: TestApp;
  let admin: Api;
  let orders: Api;
  let limited: Api;
  let ordersToken: string;
  const store = unique('nfe-store');
  const otherStore = unique('nfe-other');

  const enrich = async (orderId: string, storeId: string, products: Products, extra: Record<string, unknown> = {}) => {
    ok(await orders.POST('/api/enrich-order', { body: { orderId, store: { id: storeId }, order: { products, ...extra } } }), 200);
  };

  beforeAll(async () => {
    t = await bootTestApp();
    admin = t.apiAs(await t.tokenFor(['admin']));
    ordersToken = await t.tokenFor(['orders']);
    orders = t.apiAs(ordersToken);
    const created = await admin.POST('/api/admin/fiscal-groups', {
      body: {
        name: 'Restaurante NFC-e',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [
          { store_id: store, store_name: 'Paulista' },
          { store_id: otherStore, store_name: 'Moema' },
        ],
        taxMatrix: {
          '21069090': rule('21069090'),
          '22021000': rule('22021000', { CST_ICMS: '10' }),
        },
      },
    });
    ok(created, 201);
    for (const [productId, ncm] of [
      ['nfe-burger', '21069090'],
      ['nfe-cola', '22021000'],
    ]) {
      ok(await admin.POST('/api/admin/product-fiscal-categories', { body: { productId, productName: productId, ncm } }), 201);
    }
    const client = ok(await admin.POST('/api/admin/clients', { body: { name: 'POS Paulista', scopes: ['orders'], stores: [store] } }), 201);
    const login = ok(
      await t.api.POST('/api/authentication/login', {
        body: { client_id: client.clientId, client_secret: client.secret, grant_type: 'client_credentials' },
      }),
      200,
    );
    limited = t.apiAs(login.accessToken);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers the det and total of a CST 00 order as JSON, in the schema layout', async () => {
    const orderId = unique('nfe-00');
    await enrich(orderId, store, [
      { productId: 'nfe-burger', name: 'X-Burger & Fritas', quantity: 2, price: { totalPrice: { total: 51.8 } } },
    ]);
    const items = ok(await orders.GET('/api/orders/{orderId}/nfe', { params: { path: { orderId } } }), 200);
    // vBC = 51.80; vICMS = 51.80 × 18 % = 9.324 → 9.32
    // PIS/COFINS base = 51.80 − 9.32 = 42.48; vPIS = 42.48 × 0.65 % = 0.27612 → 0.28; vCOFINS = 42.48 × 3 % = 1.2744 → 1.27
    expect(items).toEqual({
      orderId,
      model: '65',
      crt: '3',
      layout: 'PL_010_V1.30',
      det: [
        {
          '@nItem': '1',
          prod: {
            cProd: 'nfe-burger',
            cEAN: 'SEM GTIN',
            xProd: 'X-Burger & Fritas',
            NCM: '21069090',
            CFOP: '5102',
            uCom: 'UN',
            qCom: '2.0000',
            vUnCom: '25.90',
            vProd: '51.80',
            cEANTrib: 'SEM GTIN',
            uTrib: 'UN',
            qTrib: '2.0000',
            vUnTrib: '25.90',
            indTot: '1',
          },
          imposto: {
            ICMS: { ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '51.80', pICMS: '18.0000', vICMS: '9.32' } },
            PIS: { PISAliq: { CST: '01', vBC: '42.48', pPIS: '0.6500', vPIS: '0.28' } },
            COFINS: { COFINSAliq: { CST: '01', vBC: '42.48', pCOFINS: '3.0000', vCOFINS: '1.27' } },
          },
        },
      ],
      total: {
        ICMSTot: {
          vBC: '51.80',
          vICMS: '9.32',
          vICMSDeson: '0.00',
          vFCP: '0.00',
          vBCST: '0.00',
          vST: '0.00',
          vFCPST: '0.00',
          vFCPSTRet: '0.00',
          vProd: '51.80',
          vFrete: '0.00',
          vSeg: '0.00',
          vDesc: '0.00',
          vII: '0.00',
          vIPI: '0.00',
          vIPIDevol: '0.00',
          vPIS: '0.28',
          vCOFINS: '1.27',
          vOutro: '0.00',
          vNF: '51.80',
        },
      },
    });
  });

  it('answers XML with Accept: application/xml, valid against the schema once in an infNFe, for model 55 too', async () => {
    const orderId = unique('nfe-xml');
    await enrich(orderId, store, [
      { productId: 'nfe-burger', name: 'Pão de queijo <grande>', quantity: 1, price: { totalPrice: { total: 10 } } },
    ]);
    for (const model of ['65', '55'] as const) {
      const response = await t.http.get(`/orders/${orderId}/nfe`, {
        token: ordersToken,
        query: { model },
        headers: { accept: 'application/xml' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
      expect(response.text).toContain('<NFeItens xmlns="http://www.portalfiscal.inf.br/nfe"><det nItem="1">');
      expect(response.text).toContain('<xProd>Pão de queijo &lt;grande&gt;</xProd>');
      expect(await schemaErrorsOf(response.text, model, '3')).toEqual([]);
    }
  });

  it("answers another store's order to a store-limited client as an unknown one (404), and its own", async () => {
    const mine = unique('nfe-mine');
    const theirs = unique('nfe-theirs');
    await enrich(mine, store, [{ productId: 'nfe-burger', quantity: 1, price: { totalPrice: { total: 10 } } }]);
    await enrich(theirs, otherStore, [{ productId: 'nfe-burger', quantity: 1, price: { totalPrice: { total: 10 } } }]);
    const nfeOf = (orderId: string) => limited.GET('/api/orders/{orderId}/nfe', { params: { path: { orderId } } });
    ok(await nfeOf(mine), 200);
    const other = failed(await nfeOf(theirs), 404);
    const unknown = failed(await nfeOf(unique('nfe-unknown')), 404);
    expect({ ...other, message: '' }).toEqual({ ...unknown, message: '' });
    expect(other).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('422 NFE_NOT_ISSUABLE with one detail per cause, naming the path and the code', async () => {
    const orderId = unique('nfe-422');
    await enrich(orderId, store, [
      { productId: 'nfe-burger', quantity: 1, price: { totalPrice: { total: 10 } } },
      { productId: 'nfe-cola', quantity: 1, price: { totalPrice: { total: 6 } } },
      { productId: 'nfe-unknown-product', quantity: 1, price: { totalPrice: { total: 3 } } },
    ]);
    const refusal = failed(await orders.GET('/api/orders/{orderId}/nfe', { params: { path: { orderId } } }), 422);
    expect(refusal).toMatchObject({
      error: 'NFE_NOT_ISSUABLE',
      details: [
        { field: 'order.products[1]', code: 'ICMS_ST_NOT_COMPUTED', problem: expect.any(String) },
        { field: 'order.products[2]', code: 'NO_TAX', problem: expect.any(String) },
      ],
    });
    expect(refusal.details).toHaveLength(2);
  });

  it('people of every role read the items through the console session', async () => {
    const orderId = unique('nfe-person');
    await enrich(orderId, store, [{ productId: 'nfe-burger', quantity: 1, price: { totalPrice: { total: 10 } } }]);
    const support = await signedInPerson(t, 'support');
    const items = ok(await t.apiAs().GET('/api/orders/{orderId}/nfe', { params: { path: { orderId } }, ...asPerson(support) }), 200);
    expect(json(items).orderId).toBe(orderId);
  });

  it('400 for an unknown model or freightAs; 401 without a token; 403 without the scope', async () => {
    const orderId = unique('nfe-400');
    await enrich(orderId, store, [{ productId: 'nfe-burger', quantity: 1, price: { totalPrice: { total: 10 } } }]);
    const path = { orderId };
    // Values the document does not allow (the typed client would not compile them), sent raw.
    expect((await t.http.get(`/orders/${orderId}/nfe`, { token: ordersToken, query: { model: '57' } })).status).toBe(400);
    expect((await t.http.get(`/orders/${orderId}/nfe`, { token: ordersToken, query: { freightAs: 'vSeg' } })).status).toBe(400);
    failed(await t.apiAs().GET('/api/orders/{orderId}/nfe', { params: { path } }), 401);
    failed(await admin.GET('/api/orders/{orderId}/nfe', { params: { path } }), 403);
  });
});
