import { expectDeclaredError } from '../support/declared-errors.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const BASE = '/admin/product-fiscal-categories';
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

describe('product fiscal categories (e2e)', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
  });
  afterAll(async () => {
    await t.close();
  });

  const create = (body: Record<string, unknown>) => t.http.post(BASE, body, { token });
  const body = (overrides: Record<string, unknown> = {}) => ({
    productId: unique('prod'),
    productName: 'Coca-Cola lata 350 ml',
    ncm: '22021000',
    externalProductId: unique('sku'),
    ...overrides,
  });

  it('creates with 201 and exactly the ProductFiscalCategory fields', async () => {
    const sent = body();
    const response = await create(sent);
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(['createdAt', 'externalProductId', 'ncm', 'productId', 'productName']);
    expect(response.body).toMatchObject(sent);
    expect(new Date(response.body.createdAt).toISOString()).toBe(response.body.createdAt);
  });

  it('creates without externalProductId (null)', async () => {
    const response = await create(body({ externalProductId: undefined }));
    expect(response.status).toBe(201);
    expect(response.body.externalProductId).toBeNull();
  });

  it.each([
    ['missing productId', { productId: undefined }, 'productId'],
    ['an empty productId', { productId: '' }, 'productId'],
    ['a productId over 100 characters', { productId: 'p'.repeat(101) }, 'productId'],
    ['missing productName', { productName: undefined }, 'productName'],
    ['missing ncm', { ncm: undefined }, 'ncm'],
    ['an ncm of 7 digits', { ncm: '2202100' }, 'ncm'],
    ['an ncm with letters', { ncm: '2202100A' }, 'ncm'],
    ['an ncm as a number', { ncm: 22021000 }, 'ncm'],
    ['an externalProductId of the wrong type', { externalProductId: 5 }, 'externalProductId'],
    ['an unknown property', { price: 5 }, 'price'],
  ])('answers 400 for %s', async (_label, overrides, field) => {
    const response = await create(body(overrides));
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('VALIDATION_FAILED');
    expect(response.body.details.map((detail: { field: string }) => detail.field)).toContain(field);
  });

  it('answers 409 for a duplicate productId and a duplicate externalProductId', async () => {
    const first = await create(body());
    const sameId = await create(body({ productId: first.body.productId }));
    expect(sameId.status).toBe(409);
    expect(sameId.body).toEqual({
      error: 'PRODUCT_ID_EXISTS',
      message: `A product fiscal category with productId "${first.body.productId}" already exists`,
      details: [{ field: 'productId', problem: 'already exists', productId: first.body.productId }],
    });
    expectDeclaredError('POST', '/api/admin/product-fiscal-categories', sameId);
    const sameExternal = await create(body({ externalProductId: first.body.externalProductId }));
    expect(sameExternal.status).toBe(409);
    expect(sameExternal.body).toEqual({
      error: 'EXTERNAL_PRODUCT_ID_IN_USE',
      message: `externalProductId "${first.body.externalProductId}" is already used by product ${first.body.productId}`,
      details: [
        {
          field: 'externalProductId',
          problem: 'is already used by another product',
          externalProductId: first.body.externalProductId,
          productId: first.body.productId,
        },
      ],
    });
    expectDeclaredError('POST', '/api/admin/product-fiscal-categories', sameExternal);
  });

  it('lists all categories as an array', async () => {
    const created = await create(body());
    const list = await t.http.get(BASE, { token });
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toContainEqual(created.body);
  });

  it('gets one, 404 for an unknown productId', async () => {
    const created = await create(body({ productId: unique('with space') }));
    const found = await t.http.get(`${BASE}/${encodeURIComponent(created.body.productId)}`, { token });
    expect(found.status).toBe(200);
    expect(found.body).toEqual(created.body);
    const missing = await t.http.get(`${BASE}/nope-${Date.now()}`, { token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: expect.any(String), error: 'NOT_FOUND' });
  });

  describe('PUT', () => {
    it('updates only the properties sent (200)', async () => {
      const created = await create(body());
      const updated = await t.http.put(`${BASE}/${created.body.productId}`, { ncm: '22030000' }, { token });
      expect(updated.status).toBe(200);
      expect(updated.body).toEqual({ ...created.body, ncm: '22030000' });
    });

    it('clears externalProductId with null', async () => {
      const created = await create(body());
      const updated = await t.http.put(`${BASE}/${created.body.productId}`, { externalProductId: null }, { token });
      expect(updated.status).toBe(200);
      expect(updated.body.externalProductId).toBeNull();
    });

    it('answers 400 when productId is in the body', async () => {
      const created = await create(body());
      const response = await t.http.put(`${BASE}/${created.body.productId}`, { productId: 'other', productName: 'x' }, { token });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'productId', problem: expect.stringMatching(/cannot be sent/) }]);
      expect((await t.http.get(`${BASE}/${created.body.productId}`, { token })).body.productName).toBe(created.body.productName);
    });

    it('answers 400 for an invalid ncm, 404 for an unknown productId, 409 for a taken externalProductId', async () => {
      const a = await create(body());
      const b = await create(body());
      expect((await t.http.put(`${BASE}/${a.body.productId}`, { ncm: '123' }, { token })).status).toBe(400);
      expect((await t.http.put(`${BASE}/unknown-${Date.now()}`, { ncm: '22030000' }, { token })).status).toBe(404);
      const taken = await t.http.put(`${BASE}/${a.body.productId}`, { externalProductId: b.body.externalProductId }, { token });
      expect(taken.status).toBe(409);
      expect(taken.body.message).toContain(b.body.productId);
      expect(taken.body).toMatchObject({
        error: 'EXTERNAL_PRODUCT_ID_IN_USE',
        details: [{ field: 'externalProductId', externalProductId: b.body.externalProductId, productId: b.body.productId }],
      });
      expectDeclaredError('PUT', '/api/admin/product-fiscal-categories/{productId}', taken);
    });
  });

  it('deletes with 204, then 404', async () => {
    const created = await create(body());
    const deleted = await t.http.delete(`${BASE}/${created.body.productId}`, { token });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.http.get(`${BASE}/${created.body.productId}`, { token })).status).toBe(404);
    expect((await t.http.delete(`${BASE}/${created.body.productId}`, { token })).status).toBe(404);
  });

  it('requires the admin scope', async () => {
    const platformOnly = await t.tokenFor(['platform']);
    expect((await t.http.post(BASE, body(), { token: platformOnly })).status).toBe(403);
  });
});
