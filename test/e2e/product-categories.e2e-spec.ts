import { failed, ok, type Api, type ErrorBody, type Schemas } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const BASE = '/admin/product-fiscal-categories';
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

describe('product fiscal categories (e2e)', () => {
  let t: TestApp;
  let token: string;
  let api: Api;

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.tokenFor(['admin']);
    api = t.apiAs(token);
  });
  afterAll(async () => {
    await t.close();
  });

  type NewCategory = Schemas['CreateProductFiscalCategoryDto'];
  const create = (body: NewCategory) => api.POST('/api/admin/product-fiscal-categories', { body });
  const created = async (sent: NewCategory = body()) => ok(await create(sent), 201);
  const path = (productId: string) => ({ params: { path: { productId } } });
  const get = (productId: string) => api.GET('/api/admin/product-fiscal-categories/{productId}', path(productId));
  const update = (productId: string, change: Schemas['UpdateProductFiscalCategoryDto']) =>
    api.PUT('/api/admin/product-fiscal-categories/{productId}', { ...path(productId), body: change });
  const body = (overrides: Partial<NewCategory> = {}): NewCategory => ({
    productId: unique('prod'),
    productName: 'Coca-Cola lata 350 ml',
    ncm: '22021000',
    externalProductId: unique('sku'),
    ...overrides,
  });

  it('creates with 201 and exactly the ProductFiscalCategory fields', async () => {
    const sent = body();
    const response = await created(sent);
    expect(Object.keys(response).sort()).toEqual(['createdAt', 'externalProductId', 'ncm', 'productId', 'productName']);
    expect(response).toMatchObject(sent);
    expect(new Date(response.createdAt).toISOString()).toBe(response.createdAt);
  });

  it('creates without externalProductId (null)', async () => {
    expect((await created(body({ externalProductId: undefined }))).externalProductId).toBeNull();
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
    // Bodies outside the schema: sent raw, the answer read as the documented error body.
    const response = await t.http.post<ErrorBody>(BASE, { ...body(), ...overrides }, { token });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('VALIDATION_FAILED');
    expect(response.body.details?.map((detail) => detail.field)).toContain(field);
  });

  it('answers 409 for a duplicate productId and a duplicate externalProductId', async () => {
    const first = await created();
    const sameId = failed(await create(body({ productId: first.productId })), 409);
    expect(sameId).toEqual({
      error: 'PRODUCT_ID_EXISTS',
      message: `A product fiscal category with productId "${first.productId}" already exists`,
      details: [{ field: 'productId', problem: 'already exists', productId: first.productId }],
    });
    expectDeclaredError('POST', '/api/admin/product-fiscal-categories', { status: 409, body: sameId });
    const sameExternal = failed(await create(body({ externalProductId: first.externalProductId ?? undefined })), 409);
    expect(sameExternal).toEqual({
      error: 'EXTERNAL_PRODUCT_ID_IN_USE',
      message: `externalProductId "${first.externalProductId}" is already used by product ${first.productId}`,
      details: [
        {
          field: 'externalProductId',
          problem: 'is already used by another product',
          externalProductId: first.externalProductId,
          productId: first.productId,
        },
      ],
    });
    expectDeclaredError('POST', '/api/admin/product-fiscal-categories', { status: 409, body: sameExternal });
  });

  it('lists all categories as an array', async () => {
    const category = await created();
    const list = ok(await api.GET('/api/admin/product-fiscal-categories'), 200);
    expect(Array.isArray(list)).toBe(true);
    expect(list).toContainEqual(category);
  });

  it('gets one, 404 for an unknown productId', async () => {
    const category = await created(body({ productId: unique('with space') }));
    expect(ok(await get(category.productId), 200)).toEqual(category);
    expect(failed(await get(`nope-${Date.now()}`), 404)).toEqual({ message: expect.any(String), error: 'NOT_FOUND' });
  });

  describe('PUT', () => {
    it('updates only the properties sent (200)', async () => {
      const category = await created();
      expect(ok(await update(category.productId, { ncm: '22030000' }), 200)).toEqual({ ...category, ncm: '22030000' });
    });

    it('clears externalProductId with null', async () => {
      const category = await created();
      expect(ok(await update(category.productId, { externalProductId: null }), 200).externalProductId).toBeNull();
    });

    it.each(['productName', 'ncm'])('answers 400 naming %s when it is sent as null, and changes nothing', async (field) => {
      const category = await created();
      // null is outside the update schema: sent raw.
      const response = await t.http.put<ErrorBody>(`${BASE}/${category.productId}`, { [field]: null }, { token });
      expect(response.status).toBe(400);
      expect(response.body.error).toBe('VALIDATION_FAILED');
      expect(new Set(response.body.details?.map((detail) => detail.field))).toEqual(new Set([field]));
      expect(ok(await get(category.productId), 200)).toEqual(category);
    });

    it('answers 400 when productId is in the body', async () => {
      const category = await created();
      // productId is outside the update schema: sent raw.
      const response = await t.http.put<ErrorBody>(`${BASE}/${category.productId}`, { productId: 'other', productName: 'x' }, { token });
      expect(response.status).toBe(400);
      expect(response.body.details).toEqual([{ field: 'productId', problem: expect.stringMatching(/cannot be sent/) }]);
      expect(ok(await get(category.productId), 200).productName).toBe(category.productName);
    });

    it.each([
      ['null', 'null'],
      ['7', '7'],
      ['"s"', '"s"'],
      ['true', 'true'],
      ['[]', '[]'],
      ['no body', undefined],
    ])('answers 400 to %s, which is not an object, and changes nothing', async (_label, raw) => {
      const category = await created();
      // Not a JSON object (undefined: no body at all): outside the update schema, sent raw.
      const response = await t.http.put<ErrorBody>(`${BASE}/${category.productId}`, undefined, {
        token,
        ...(raw === undefined ? {} : { raw, headers: { 'content-type': 'application/json' } }),
      });
      expect([response.status, response.body.error]).toEqual([400, 'VALIDATION_FAILED']);
      expect(ok(await get(category.productId), 200)).toEqual(category);
    });

    it('answers 400 for an invalid ncm, 404 for an unknown productId, 409 for a taken externalProductId', async () => {
      const a = await created();
      const b = await created();
      failed(await update(a.productId, { ncm: '123' }), 400);
      failed(await update(`unknown-${Date.now()}`, { ncm: '22030000' }), 404);
      const taken = failed(await update(a.productId, { externalProductId: b.externalProductId }), 409);
      expect(taken.message).toContain(b.productId);
      expect(taken).toMatchObject({
        error: 'EXTERNAL_PRODUCT_ID_IN_USE',
        details: [{ field: 'externalProductId', externalProductId: b.externalProductId, productId: b.productId }],
      });
      expectDeclaredError('PUT', '/api/admin/product-fiscal-categories/{productId}', { status: 409, body: taken });
    });
  });

  it('deletes with 204, then 404', async () => {
    const category = await created();
    const remove = () => api.DELETE('/api/admin/product-fiscal-categories/{productId}', path(category.productId));
    const deleted = await remove();
    ok(deleted, 204);
    expect(await deleted.response.text()).toBe('');
    failed(await get(category.productId), 404);
    failed(await remove(), 404);
  });

  it('requires the admin scope', async () => {
    const platformOnly = t.apiAs(await t.tokenFor(['platform']));
    failed(await platformOnly.POST('/api/admin/product-fiscal-categories', { body: body() }), 403);
  });
});
