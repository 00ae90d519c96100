import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sql, SqlRunner } from '../database/sql-runner.js';
import { ProductFiscalCategoryEntity } from './product-fiscal-category.entity.js';
import type { ProductCategoryLoader, ProductCategoryRecord } from '../fiscal-lookup/fiscal-lookup.service.js';

export const CATEGORIES_MATCHING = sql<{ product_id: string; external_product_id: string | null; ncm: string }>(
  'product-categories-by-ids',
  `SELECT product_id, external_product_id, ncm FROM product_fiscal_category
   WHERE product_id = ANY($1::varchar[]) OR external_product_id = ANY($1::varchar[])`,
  { product_id: true, external_product_id: true, ncm: true },
);

/**
 * The order path's read of the categories (`product_fiscal_category`): FiscalLookupService's PRODUCT_CATEGORY_LOADER
 * (bound in ProductCategoriesPortsModule).
 */
@Injectable()
export class ProductCategoriesRepository implements ProductCategoryLoader {
  constructor(private readonly db: SqlRunner) {}

  /** Inserts the categories whose product id is not stored yet (seeding, which never overwrites); how many. */
  async insertMissing(
    manager: EntityManager,
    categories: ReadonlyArray<Omit<ProductFiscalCategoryEntity, 'createdAt' | 'updatedAt'>>,
  ): Promise<number> {
    const inserted = await manager
      .createQueryBuilder()
      .insert()
      .into(ProductFiscalCategoryEntity)
      .values(categories.map(({ productId, productName, ncm, externalProductId }) => ({ productId, productName, ncm, externalProductId })))
      .orIgnore()
      .returning(['productId'])
      .execute();
    return (inserted.raw as unknown[]).length;
  }

  async categoriesMatching(ids: string[], manager?: EntityManager): Promise<ProductCategoryRecord[]> {
    const rows = await this.db.rows(CATEGORIES_MATCHING, [ids], manager);
    return rows.map((row) => ({ productId: row.product_id, externalProductId: row.external_product_id, ncm: row.ncm }));
  }
}
