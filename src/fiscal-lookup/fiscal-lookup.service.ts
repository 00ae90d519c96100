import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CategoryIndex, FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';

const GROUP_BY_STORE_SQL = `
  SELECT g.id, g.external_id, g.uf, g.tax_regime, g.tax_matrix, g.settings
  FROM fiscal_group_store s JOIN fiscal_group g ON g.id = s.fiscal_group_id
  WHERE s.store_id = $1`;

const CATEGORIES_SQL = `
  SELECT product_id, external_product_id, ncm FROM product_fiscal_category
  WHERE product_id = ANY($1::varchar[]) OR external_product_id = ANY($1::varchar[])`;

const EMPTY_INDEX: CategoryIndex = { byProductId: new Map(), byExternalProductId: new Map() };

/** The two reads the order path makes before the engine runs: each one indexed query. */
@Injectable()
export class FiscalLookupService {
  constructor(private readonly dataSource: DataSource) {}

  async groupByStore(storeId: string): Promise<FiscalGroupSnapshot | undefined> {
    const rows: Array<{
      id: string;
      external_id: string | null;
      uf: string;
      tax_regime: string | null;
      tax_matrix: FiscalGroupSnapshot['taxMatrix'];
      settings: FiscalGroupSnapshot['settings'];
    }> = await this.dataSource.query(GROUP_BY_STORE_SQL, [storeId]);
    const row = rows[0];
    if (!row) return undefined;
    return {
      id: row.id,
      externalId: row.external_id,
      uf: row.uf,
      taxRegime: row.tax_regime,
      taxMatrix: row.tax_matrix,
      settings: row.settings ?? {},
    };
  }

  async categoriesFor(productIds: string[]): Promise<CategoryIndex> {
    if (productIds.length === 0) return EMPTY_INDEX;
    const rows: Array<{ product_id: string; external_product_id: string | null; ncm: string }> = await this.dataSource.query(
      CATEGORIES_SQL,
      [productIds],
    );
    const byProductId = new Map<string, string>();
    const byExternalProductId = new Map<string, string>();
    for (const row of rows) {
      byProductId.set(row.product_id, row.ncm);
      if (row.external_product_id) byExternalProductId.set(row.external_product_id, row.ncm);
    }
    return { byProductId, byExternalProductId };
  }
}
