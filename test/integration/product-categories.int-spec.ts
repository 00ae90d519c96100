import { FiscalLookupService } from '../../src/fiscal-lookup/fiscal-lookup.service.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import { ProductCategoriesService } from '../../src/product-categories/product-categories.service.js';
import { productCategory } from '../factories/index.js';
import { bootIntegration, withoutFiscalNotifications, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';
import { AUDIT } from '../support/audit.js';
import { AuditModule } from '../../src/audit/audit.module.js';

describe('ProductCategoriesService (integration)', () => {
  let db: IntegrationContext;
  let service: ProductCategoriesService;

  beforeAll(async () => {
    // FiscalLookupModule is global in the app: the service drops its cache after each write.
    db = await bootIntegration({ imports: [AuditModule, ProductCategoriesModule, ...FISCAL_LOOKUP_MODULES] });
    service = db.get(ProductCategoriesService);
  });
  afterAll(async () => {
    await db.close();
  });

  describe('create', () => {
    it('stores the category and answers it as stored', async () => {
      const created = await service.create(
        { productId: 'cola', productName: 'Cola 350 ml', ncm: '22021000', externalProductId: 'SKU-1' },
        AUDIT,
      );
      expect(created).toMatchObject({ productId: 'cola', productName: 'Cola 350 ml', ncm: '22021000', externalProductId: 'SKU-1' });
      expect(created.createdAt).toBeInstanceOf(Date);
      expect(await service.findOne('cola')).toEqual(created);
    });

    it('stores no external id as null', async () => {
      expect((await service.create({ productId: 'plain', productName: 'Plain', ncm: '21069090' }, AUDIT)).externalProductId).toBeNull();
    });

    it('refuses with 409 a productId that exists', async () => {
      await productCategory(db.dataSource, { productId: 'twice', productName: 'First' });
      await expect(service.create({ productId: 'twice', productName: 'Second', ncm: '21069090' }, AUDIT)).rejects.toMatchObject({
        status: 409,
        code: 'PRODUCT_ID_EXISTS',
        message: 'A product fiscal category with productId "twice" already exists',
        details: [{ field: 'productId', problem: 'already exists', productId: 'twice' }],
      });
      expect((await service.findOne('twice')).productName).toBe('First');
    });

    it('refuses with 409 an externalProductId another product uses, naming that product', async () => {
      await productCategory(db.dataSource, { productId: 'owner', externalProductId: 'SKU-TAKEN' });
      await expect(
        service.create({ productId: 'newcomer', productName: 'New', ncm: '21069090', externalProductId: 'SKU-TAKEN' }, AUDIT),
      ).rejects.toMatchObject({
        status: 409,
        code: 'EXTERNAL_PRODUCT_ID_IN_USE',
        message: 'externalProductId "SKU-TAKEN" is already used by product owner',
        details: [
          { field: 'externalProductId', problem: 'is already used by another product', externalProductId: 'SKU-TAKEN', productId: 'owner' },
        ],
      });
      await expect(service.findOne('newcomer')).rejects.toMatchObject({ status: 404 });
    });
  });

  describe('list and findOne', () => {
    it('lists every category by productId', async () => {
      for (const productId of ['m-2', 'm-10', 'm-1']) await productCategory(db.dataSource, { productId });
      const ids = (await service.list()).map((category) => category.productId);
      expect(ids).toEqual([...ids].sort());
      expect(ids.filter((id) => id.startsWith('m-'))).toEqual(['m-1', 'm-10', 'm-2']);
    });

    it('answers 404 for an unknown product', async () => {
      await expect(service.findOne('nothing')).rejects.toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        message: 'Product fiscal category nothing not found',
      });
    });
  });

  describe('update', () => {
    it('changes only what is sent; null clears the external id', async () => {
      const category = await productCategory(db.dataSource, { productName: 'Old name', ncm: '21069090', externalProductId: 'SKU-OLD' });
      const renamed = await service.update(category.productId, { productName: 'New name' }, AUDIT);
      expect(renamed).toMatchObject({ productName: 'New name', ncm: '21069090', externalProductId: 'SKU-OLD' });
      const cleared = await service.update(category.productId, { ncm: '22021000', externalProductId: null }, AUDIT);
      expect(cleared).toMatchObject({ productName: 'New name', ncm: '22021000', externalProductId: null });
    });

    it('with nothing to change answers the category as it is, and 404 for an unknown one', async () => {
      const category = await productCategory(db.dataSource);
      expect(await service.update(category.productId, {}, AUDIT)).toEqual(category);
      await expect(service.update('ghost', {}, AUDIT)).rejects.toMatchObject({ status: 404 });
      await expect(service.update('ghost', { productName: 'x' }, AUDIT)).rejects.toMatchObject({
        status: 404,
        message: 'Product fiscal category ghost not found',
      });
    });

    it('refuses with 409 an externalProductId another product uses; nothing changes', async () => {
      await productCategory(db.dataSource, { productId: 'sku-holder', externalProductId: 'SKU-HELD' });
      const category = await productCategory(db.dataSource, { productName: 'Unchanged' });
      await expect(
        service.update(category.productId, { productName: 'Changed', externalProductId: 'SKU-HELD' }, AUDIT),
      ).rejects.toMatchObject({
        status: 409,
        message: 'externalProductId "SKU-HELD" is already used by product sku-holder',
      });
      expect(await service.findOne(category.productId)).toEqual(category);
    });
  });

  describe('remove', () => {
    it('deletes the category; a second delete is 404', async () => {
      const category = await productCategory(db.dataSource);
      await service.remove(category.productId, AUDIT);
      await expect(service.findOne(category.productId)).rejects.toMatchObject({ status: 404 });
      await expect(service.remove(category.productId, AUDIT)).rejects.toMatchObject({
        status: 404,
        message: `Product fiscal category ${category.productId} not found`,
      });
    });
  });

  it('every write drops the cached order-path lookups at once, without waiting for NOTIFY', async () => {
    const lookup = db.get(FiscalLookupService);
    const ncmOf = async (productId: string) => (await lookup.categoriesFor([productId])).byProductId.get(productId);
    await db.settleNotifications();
    await withoutFiscalNotifications(db.dataSource, async () => {
      expect(await ncmOf('cached')).toBeUndefined(); // now cached as "no category"
      await service.create({ productId: 'cached', productName: 'Cached', ncm: '21069090' }, AUDIT);
      expect(await ncmOf('cached')).toBe('21069090');
      await service.update('cached', { ncm: '22021000' }, AUDIT);
      expect(await ncmOf('cached')).toBe('22021000');
      await service.remove('cached', AUDIT);
      expect(await ncmOf('cached')).toBeUndefined();
    });
  });
});
