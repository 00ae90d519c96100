import { FiscalGroupEntity } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { ProductFiscalCategoryEntity } from '../../src/product-categories/product-fiscal-category.entity.js';
import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import { FiscalLookupService } from '../../src/fiscal-lookup/fiscal-lookup.service.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import { fiscalGroup, productCategory, taxMatrixWith } from '../factories/index.js';
import {
  bootIntegration,
  eventually,
  withoutFiscalNotifications,
  type IntegrationContext,
  FISCAL_LOOKUP_MODULES,
} from '../support/integration.js';
import { AuditModule } from '../../src/audit/audit.module.js';

describe('FiscalLookupService (integration)', () => {
  let db: IntegrationContext;
  let lookup: FiscalLookupService;

  /** Only `invalidate()` can drop the caches while `work` runs. */
  const withoutNotifications = (work: () => Promise<void>) => withoutFiscalNotifications(db.dataSource, work);
  const icmsOf = async (storeId: string) => (await lookup.groupByStore(storeId))?.taxMatrix['21069090']?.ICMS_rate;
  const ncmsOf = async (productIds: string[]) => {
    const index = await lookup.categoriesFor(productIds);
    return { byProductId: Object.fromEntries(index.byProductId), byExternalProductId: Object.fromEntries(index.byExternalProductId) };
  };

  beforeAll(async () => {
    // The lookup's loaders are provided by the modules that own the tables.
    db = await bootIntegration({ imports: [AuditModule, ...FISCAL_LOOKUP_MODULES, FiscalGroupsModule, ProductCategoriesModule] });
    lookup = db.get(FiscalLookupService);
  });
  afterAll(async () => {
    await db.close();
  });

  describe('groupByStore', () => {
    it('answers the snapshot the tax engine needs of the group holding the store', async () => {
      const group = await fiscalGroup(db.dataSource, {
        externalId: 'ERP-7',
        uf: 'RJ',
        taxRegime: 'SIMPLES_NACIONAL',
        stores: ['snap-1', 'snap-2'],
        taxMatrix: taxMatrixWith(20),
        settings: { includeIcmsInPisCofinsBase: true },
      });
      const expected = {
        id: group.id,
        externalId: 'ERP-7',
        uf: 'RJ',
        taxRegime: 'SIMPLES_NACIONAL',
        taxMatrix: taxMatrixWith(20),
        settings: { includeIcmsInPisCofinsBase: true },
      };
      expect(await lookup.groupByStore('snap-1')).toEqual(expected);
      expect(await lookup.groupByStore('snap-2')).toEqual(expected);
    });

    it('answers undefined for a store no group holds', async () => {
      await fiscalGroup(db.dataSource, { stores: ['held'] });
      expect(await lookup.groupByStore('not-held')).toBeUndefined();
    });
  });

  describe('categoriesFor', () => {
    it('indexes the NCM of each product id found, by product id and by external product id', async () => {
      await productCategory(db.dataSource, { productId: 'burger', ncm: '21069090', externalProductId: 'SKU-BURGER' });
      await productCategory(db.dataSource, { productId: 'cola', ncm: '22021000' });
      // "dual" is one product's id and another product's external id.
      await productCategory(db.dataSource, { productId: 'dual', ncm: '19059090' });
      await productCategory(db.dataSource, { productId: 'other', ncm: '04069000', externalProductId: 'dual' });
      expect(await ncmsOf(['burger', 'SKU-BURGER', 'cola', 'dual', 'unknown'])).toEqual({
        byProductId: { burger: '21069090', cola: '22021000', dual: '19059090' },
        byExternalProductId: { 'SKU-BURGER': '21069090', dual: '04069000' },
      });
    });

    it('answers empty indexes for no product ids', async () => {
      expect(await ncmsOf([])).toEqual({ byProductId: {}, byExternalProductId: {} });
    });
  });

  describe('the cache', () => {
    it('answers from memory until invalidated', async () => {
      const group = await fiscalGroup(db.dataSource, { stores: ['mem-store'], taxMatrix: taxMatrixWith(18) });
      await productCategory(db.dataSource, { productId: 'mem-product', ncm: '21069090' });
      await db.settleNotifications();
      expect(await icmsOf('mem-store')).toBe(18);
      expect((await ncmsOf(['mem-product'])).byProductId).toEqual({ 'mem-product': '21069090' });

      await withoutNotifications(async () => {
        await db.dataSource.getRepository(FiscalGroupEntity).update(group.id, { taxMatrix: taxMatrixWith(12) });
        await db.dataSource.getRepository(ProductFiscalCategoryEntity).update('mem-product', { ncm: '22021000' });
        expect(await icmsOf('mem-store')).toBe(18);
        expect((await ncmsOf(['mem-product'])).byProductId).toEqual({ 'mem-product': '21069090' });

        lookup.invalidate();
        expect(await icmsOf('mem-store')).toBe(12);
        expect((await ncmsOf(['mem-product'])).byProductId).toEqual({ 'mem-product': '22021000' });
      });
    });

    it('reads only the product ids it has not seen yet', async () => {
      await productCategory(db.dataSource, { productId: 'seen', ncm: '21069090' });
      await db.settleNotifications();
      expect((await ncmsOf(['seen'])).byProductId).toEqual({ seen: '21069090' });
      await withoutNotifications(async () => {
        await db.dataSource.getRepository(ProductFiscalCategoryEntity).update('seen', { ncm: '22021000' });
        await productCategory(db.dataSource, { productId: 'unseen', ncm: '19059090' });
        expect((await ncmsOf(['seen', 'unseen'])).byProductId).toEqual({ seen: '21069090', unseen: '19059090' });
      });
      lookup.invalidate();
    });

    it('is dropped when any writer changes the fiscal tables (NOTIFY from the triggers)', async () => {
      const group = await fiscalGroup(db.dataSource, { stores: ['notified-store'], taxMatrix: taxMatrixWith(18) });
      await productCategory(db.dataSource, { productId: 'notified-product', ncm: '21069090' });
      expect(await icmsOf('notified-store')).toBe(18);
      expect(await icmsOf('notified-new-store')).toBeUndefined();
      expect((await ncmsOf(['notified-product'])).byProductId).toEqual({ 'notified-product': '21069090' });

      // Written beside the service, as another instance, the CLI or SQL by hand would.
      await db.dataSource.getRepository(FiscalGroupEntity).update(group.id, { taxMatrix: taxMatrixWith(7) });
      await eventually(async () => expect(await icmsOf('notified-store')).toBe(7));
      await fiscalGroup(db.dataSource, { stores: ['notified-new-store'], taxMatrix: taxMatrixWith(4) });
      await eventually(async () => expect(await icmsOf('notified-new-store')).toBe(4));
      await db.dataSource.getRepository(ProductFiscalCategoryEntity).delete('notified-product');
      await eventually(async () => expect((await ncmsOf(['notified-product'])).byProductId).toEqual({}));
    });
  });
});
