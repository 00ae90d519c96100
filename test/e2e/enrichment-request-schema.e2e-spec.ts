import type { ErrorBody, Schemas } from '../support/api.js';
import { seedFiscalData, unique } from '../support/orders.js';
import { requestBodyProblems } from '../support/request-schemas.js';
import { existingOrderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * The request schema `openapi.json` gives `POST /api/enrich-order` (and `-forward`) must take every order the
 * service takes: a gateway validating requests against the document would otherwise refuse orders that the
 * service taxes with a warning, or stores as ENRICHMENT_FAILED. Each body below is sent, its answer checked,
 * and the body validated against the committed document.
 */
const OPERATIONS = ['/api/enrich-order', '/api/enrich-order-forward'];

describe('the request schema of the enrichment routes (e2e)', () => {
  let t: TestApp;
  let token: string;
  const storeId = unique('store-schema');

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['orders']);
    await seedFiscalData(t.http, await t.adminToken(), storeId);
  });
  afterAll(() => t.close());

  const burger = { productId: 'rel-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } };
  const orderWith = (order: object | undefined) => ({ orderId: unique('schema'), store: { id: storeId }, ...(order && { order }) });

  it.each<[string, object, string[]]>([
    ['a line without price', orderWith({ products: [{ productId: 'rel-burger', quantity: 1 }] }), ['MISSING_AMOUNT']],
    [
      'a line without productId',
      orderWith({ products: [{ quantity: 1, price: { totalPrice: { total: 10 } } }] }),
      ['PRODUCT_CATEGORY_NOT_FOUND'],
    ],
    ['a totalPrice without total', orderWith({ products: [{ productId: 'rel-burger', price: { totalPrice: {} } }] }), ['MISSING_AMOUNT']],
    [
      'a unitPrice without total',
      orderWith({ products: [{ productId: 'rel-burger', quantity: 2, price: { unitPrice: {} } }] }),
      ['MISSING_AMOUNT'],
    ],
    ['a line priced per unit', orderWith({ products: [{ productId: 'rel-burger', quantity: 2, price: { unitPrice: 12.95 } }] }), []],
    [
      'a modifier without productId or price, and a group without selectedModifiers',
      orderWith({ products: [{ ...burger, modifierGroups: [{ selectedModifiers: [{ quantity: 1 }] }, { name: 'Empty' }] }] }),
      ['PRODUCT_CATEGORY_NOT_FOUND'],
    ],
    ['an order without products', orderWith({ type: 'DELIVERY' }), ['NO_PRODUCTS']],
    ['no order', orderWith(undefined), ['NO_PRODUCTS']],
    ['a wrapped order with a line without price', { payload: orderWith({ products: [{ productId: 'rel-cola' }] }) }, ['MISSING_AMOUNT']],
  ])('takes %s: 200 with its warnings, and so does the schema', async (_case, body, warnings) => {
    const answer = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', body, { token });
    expect(answer.status).toBe(200);
    expect(answer.body.payload.taxSummary.warnings.map((warning) => warning.code)).toEqual(warnings);
    for (const operation of OPERATIONS) expect([operation, requestBodyProblems('POST', operation, body)]).toEqual([operation, []]);
  });

  it.each<[string, object]>([
    ['no store', { orderId: unique('schema'), order: { products: [burger] } }],
    ['a store without id', { orderId: unique('schema'), store: {}, order: { products: [burger] } }],
  ])('takes an order with %s: 422 FISCAL_GROUP_NOT_FOUND, stored as ENRICHMENT_FAILED, and so does the schema', async (_case, body) => {
    const answer = await t.http.post<ErrorBody>('/enrich-order', body, { token });
    expect([answer.status, answer.body.error]).toEqual([422, 'FISCAL_GROUP_NOT_FOUND']);
    expect((await existingOrderRow(t.dataSource, (body as { orderId: string }).orderId)).status).toBe('ENRICHMENT_FAILED');
    for (const operation of OPERATIONS) expect([operation, requestBodyProblems('POST', operation, body)]).toEqual([operation, []]);
  });

  it('still refuses, as the service does, an order without orderId', async () => {
    const body = { store: { id: storeId }, order: { products: [burger] } };
    expect((await t.http.post<ErrorBody>('/enrich-order', body, { token })).status).toBe(400);
    for (const operation of OPERATIONS) expect(requestBodyProblems('POST', operation, body)).not.toEqual([]);
  });
});
