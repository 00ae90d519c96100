import { ProductFiscalCategoryEntity } from '../../src/product-categories/product-fiscal-category.entity.js';
import { managerOf, nextNumber, type Db } from './sequence.js';

/** A product fiscal category row. Defaults: `product-<n>`, NCM 21069090, no external id. */
export async function productCategory(db: Db, overrides: Partial<ProductFiscalCategoryEntity> = {}): Promise<ProductFiscalCategoryEntity> {
  const n = nextNumber();
  const manager = managerOf(db);
  const category = manager.create(ProductFiscalCategoryEntity, {
    productId: `product-${n}`,
    productName: `Product ${n}`,
    ncm: '21069090',
    externalProductId: null,
    ...overrides,
  });
  await manager.insert(ProductFiscalCategoryEntity, category);
  return manager.findOneByOrFail(ProductFiscalCategoryEntity, { productId: category.productId });
}
