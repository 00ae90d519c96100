import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sql, SqlRunner } from '../database/sql-runner.js';

export const HAS_CODE = sql<{ found: number }>(
  'store-has-code',
  `SELECT 1 AS found FROM store WHERE store_id::text = $1 AND store_code = $2`,
  { found: true },
);
export const BY_ID_OR_CODE = sql<{ store_id: string; by_id: boolean }>(
  'store-by-id-or-code',
  `SELECT store_id::text AS store_id, store_id::text = $1 AS by_id FROM store WHERE store_id::text = $1 OR store_code = $1
   ORDER BY by_id DESC, store_id`,
  { store_id: true, by_id: true },
);

export interface StoreMatch {
  storeId: string;
  /** True when `store` is the store's id, false when it is its configured code. */
  byId: boolean;
}

/** The configured stores (`store`, kept by `POST /v3/channels-stores`), for the modules that name stores by id or code. */
@Injectable()
export class StoresRepository {
  constructor(private readonly db: SqlRunner) {}

  /** Whether the configured store `storeId` has the code `code`. */
  async hasCode(storeId: string, code: string, manager?: EntityManager): Promise<boolean> {
    return (await this.db.rows(HAS_CODE, [storeId, code], manager)).length > 0;
  }

  /** The stores whose id or code is `store`: the one matched by id first. */
  async matching(store: string, manager?: EntityManager): Promise<StoreMatch[]> {
    const rows = await this.db.rows(BY_ID_OR_CODE, [store], manager);
    return rows.map((row) => ({ storeId: row.store_id, byId: row.by_id }));
  }
}
