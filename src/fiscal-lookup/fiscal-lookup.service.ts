import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { DatabaseListener } from '../database/database-listener.js';
import { sql, SqlRunner } from '../database/sql-runner.js';
import type { CategoryIndex, FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';

const GROUP_BY_STORE = sql(
  'fiscal-group-by-store',
  `
  SELECT g.id, g.external_id, g.uf, g.tax_regime, g.tax_matrix, g.settings
  FROM fiscal_group_store s JOIN fiscal_group g ON g.id = s.fiscal_group_id
  WHERE s.store_id = $1`,
);

const CATEGORIES = sql(
  'product-categories-by-ids',
  `
  SELECT product_id, external_product_id, ncm FROM product_fiscal_category
  WHERE product_id = ANY($1::varchar[]) OR external_product_id = ANY($1::varchar[])`,
);

const GROUP_IDS_BY_STORES = sql(
  'fiscal-group-ids-by-stores',
  'SELECT store_id, fiscal_group_id::text AS fiscal_group_id FROM fiscal_group_store WHERE store_id = ANY($1)',
);

export const FISCAL_CHANGE_CHANNEL = 'fiscal_config_changed';
/** Past this many entries a cache starts over rather than grow without bound. */
const MAX_ENTRIES = 200_000;

interface CategoryEntry {
  byProductId?: string;
  byExternalProductId?: string;
}

/**
 * The order path's two reads (the fiscal group of a store; the categories of the
 * order's products), each one indexed query, with the answers kept in memory.
 *
 * Any write to the fiscal tables notifies `fiscal_config_changed` (database triggers),
 * which empties the caches of every instance; writes through this instance also
 * empty them at once. A generation counter keeps a read that raced with a change
 * from caching what it saw. While the notification connection is down nothing is
 * cached, so a change can never be missed.
 */
@Injectable()
export class FiscalLookupService implements OnModuleInit {
  private generation = 0;
  private caching = false;
  private readonly groups = new Map<string, FiscalGroupSnapshot | null>();
  private readonly categories = new Map<string, CategoryEntry>();

  constructor(
    private readonly db: SqlRunner,
    private readonly listener: DatabaseListener,
  ) {}

  onModuleInit(): void {
    this.caching = this.listener.isConnected;
    this.listener.subscribe(FISCAL_CHANGE_CHANNEL, {
      onNotification: () => this.invalidate(),
      onReset: () => {
        this.invalidate();
        this.caching = this.listener.isConnected;
      },
    });
  }

  invalidate(): void {
    this.generation += 1;
    this.groups.clear();
    this.categories.clear();
  }

  /**
   * With `inTransaction`, a cache miss is read on that transaction's connection: a caller that
   * holds a pooled connection never waits for a second one (40 concurrent transfers on a pool
   * of 10 would otherwise wait on each other until the pool's connect timeout).
   */
  async groupByStore(storeId: string, inTransaction?: EntityManager): Promise<FiscalGroupSnapshot | undefined> {
    if (this.caching && this.groups.has(storeId)) return this.groups.get(storeId) ?? undefined;
    const generation = this.generation;
    const rows = await this.db.rows<{
      id: string;
      external_id: string | null;
      uf: string;
      tax_regime: string | null;
      tax_matrix: FiscalGroupSnapshot['taxMatrix'];
      settings: FiscalGroupSnapshot['settings'] | null;
    }>(GROUP_BY_STORE, [storeId], inTransaction);
    const row = rows[0];
    const snapshot = row
      ? {
          id: row.id,
          externalId: row.external_id,
          uf: row.uf,
          taxRegime: row.tax_regime,
          taxMatrix: row.tax_matrix,
          settings: row.settings ?? {},
        }
      : undefined;
    if (this.caching && generation === this.generation) {
      if (this.groups.size >= MAX_ENTRIES) this.groups.clear();
      this.groups.set(storeId, snapshot ?? null);
    }
    return snapshot;
  }

  /**
   * Which fiscal group holds each store (the group whose `stores` hold
   * `store_id == String(storeId)`); stores no group holds are absent. Not cached: read on
   * `manager`'s transaction, so it agrees with the writes made there.
   */
  async groupIdsByStores(storeIds: string[], manager?: EntityManager): Promise<Map<string, string>> {
    if (storeIds.length === 0) return new Map();
    const rows = await this.db.rows<{ store_id: string; fiscal_group_id: string }>(GROUP_IDS_BY_STORES, [storeIds], manager);
    return new Map(rows.map((row) => [row.store_id, row.fiscal_group_id]));
  }

  /** See `groupByStore` for `inTransaction`. */
  async categoriesFor(productIds: string[], inTransaction?: EntityManager): Promise<CategoryIndex> {
    const index = { byProductId: new Map<string, string>(), byExternalProductId: new Map<string, string>() };
    const missing = this.caching ? productIds.filter((id) => !this.categories.has(id)) : productIds;
    const fetched = new Map<string, CategoryEntry>();
    if (missing.length > 0) {
      const generation = this.generation;
      const rows = await this.db.rows<{ product_id: string; external_product_id: string | null; ncm: string }>(
        CATEGORIES,
        [missing],
        inTransaction,
      );
      for (const id of missing) fetched.set(id, {});
      for (const row of rows) {
        const byId = fetched.get(row.product_id);
        if (byId) byId.byProductId = row.ncm;
        const byExternal = row.external_product_id ? fetched.get(row.external_product_id) : undefined;
        if (byExternal) byExternal.byExternalProductId = row.ncm;
      }
      if (this.caching && generation === this.generation) {
        if (this.categories.size + fetched.size >= MAX_ENTRIES) this.categories.clear();
        for (const [id, entry] of fetched) this.categories.set(id, entry);
      }
    }
    for (const id of productIds) {
      const entry = fetched.get(id) ?? this.categories.get(id);
      if (entry?.byProductId) index.byProductId.set(id, entry.byProductId);
      if (entry?.byExternalProductId) index.byExternalProductId.set(id, entry.byExternalProductId);
    }
    return index;
  }
}
