import { ok, failed, type Api, type Schemas } from '../support/api.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { ProductFiscalCategoryEntity } from '../../src/product-categories/product-fiscal-category.entity.js';
import { ProductFiscalCategoryHistoryEntity } from '../../src/product-categories/product-fiscal-category-history.entity.js';

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

describe('product fiscal category history (e2e)', () => {
  let t: TestApp;
  let api: Api;

  beforeAll(async () => {
    t = await bootTestApp();
    api = t.apiAs(await t.tokenFor(['admin']));
  });
  afterAll(async () => {
    await t.close();
  });

  const path = (productId: string) => ({ params: { path: { productId } } });
  const create = async (body: Schemas['CreateProductFiscalCategoryDto']) =>
    ok(await api.POST('/api/admin/product-fiscal-categories', { body }), 201);
  const update = (productId: string, body: Schemas['UpdateProductFiscalCategoryDto']) =>
    api.PUT('/api/admin/product-fiscal-categories/{productId}', { ...path(productId), body });
  const history = (productId: string, query: { page?: number; pageSize?: number } = {}) =>
    api.GET('/api/admin/product-fiscal-categories/{productId}/history', { params: { path: { productId }, query } });

  it('lists the creation, each NCM change and the deletion, newest first, with actor and before/after', async () => {
    const productId = unique('prod');
    const sku = unique('sku');
    await create({ productId, productName: 'Guaraná lata', ncm: '22021000', externalProductId: sku });
    ok(await update(productId, { ncm: '22029900' }), 200);
    ok(await update(productId, { ncm: '22011000', externalProductId: null }), 200);
    // Nothing changes: no entry.
    ok(await update(productId, { ncm: '22011000' }), 200);
    ok(await api.DELETE('/api/admin/product-fiscal-categories/{productId}', path(productId)), 204);

    const page = ok(await history(productId), 200);
    expect(page).toMatchObject({ total: 4, page: 1, pageSize: 20, totalPages: 1 });
    const fields = (ncm: string, externalProductId: string | null) => ({ productName: 'Guaraná lata', ncm, externalProductId });
    expect(page.items.map(({ kind, before, after }) => ({ kind, before, after }))).toEqual([
      { kind: 'delete', before: fields('22011000', null), after: null },
      { kind: 'update', before: fields('22029900', sku), after: fields('22011000', null) },
      { kind: 'update', before: fields('22021000', sku), after: fields('22029900', sku) },
      { kind: 'create', before: null, after: fields('22021000', sku) },
    ]);
    const actor = page.items[0]!.actor;
    expect(actor).toEqual({ type: 'client', id: expect.any(String), name: 'test client' });
    expect(page.items.every((item) => item.productId === productId && JSON.stringify(item.actor) === JSON.stringify(actor))).toBe(true);
    const times = page.items.map((item) => Date.parse(item.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    // A deleted category's history stays readable, paged.
    const second = ok(await history(productId, { page: 2, pageSize: 3 }), 200);
    expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3, totalPages: 2 });
    expect(second.items.map((item) => item.kind)).toEqual(['create']);
  });

  it('keeps no entry for a change that was rolled back', async () => {
    const taken = unique('sku');
    await create({ productId: unique('prod'), productName: 'Other', ncm: '22021000', externalProductId: taken });
    const productId = unique('prod');
    await create({ productId, productName: 'Água', ncm: '22011000' });
    // The unique externalProductId fails the UPDATE after the NCM was set in the same statement: the transaction rolls back.
    failed(await update(productId, { ncm: '22029900', externalProductId: taken }), 409);
    // A change whose row was written (and its entry with it) in a transaction that then rolls back.
    await expect(
      t.dataSource.transaction(async (manager) => {
        await manager.update(ProductFiscalCategoryEntity, { productId }, { ncm: '22029900' });
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    const page = ok(await history(productId), 200);
    expect(page.items.map((item) => item.kind)).toEqual(['create']);
    expect(ok(await api.GET('/api/admin/product-fiscal-categories/{productId}', path(productId)), 200).ncm).toBe('22011000');
  });

  it('answers 404 for a product id that never had a category', async () => {
    expect(failed(await history(unique('never')), 404)).toMatchObject({ error: 'NOT_FOUND' });
  });

  it('records a change made by SQL by hand, without an actor', async () => {
    const productId = unique('prod');
    await create({ productId, productName: 'Suco', ncm: '20091100' });
    await t.dataSource.getRepository(ProductFiscalCategoryEntity).update({ productId }, { ncm: '20098990' });
    const [latest] = ok(await history(productId), 200).items;
    expect(latest).toMatchObject({ kind: 'update', actor: null, before: { ncm: '20091100' }, after: { ncm: '20098990' } });
  });

  it('keeps the history append-only: the database refuses to change or delete an entry', async () => {
    const productId = unique('prod');
    await create({ productId, productName: 'Chá', ncm: '21012010' });
    const repository = t.dataSource.getRepository(ProductFiscalCategoryHistoryEntity);
    // Through the database itself: the trigger is what is tested.
    await expect(repository.update({ productId }, { ncmAfter: '00000000' })).rejects.toThrow(/append-only/);
    await expect(repository.delete({ productId })).rejects.toThrow(/append-only/);
    expect(await repository.countBy({ productId, ncmAfter: '21012010' })).toBe(1);
  });
});
