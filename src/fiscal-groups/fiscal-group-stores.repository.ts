import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sql, SqlRunner } from '../database/sql-runner.js';
import { FiscalGroupStoreEntity } from './fiscal-group.entity.js';

/** A store already held by another group is not inserted (a concurrent claim waits for the first one to commit). */
const CLAIM = sql(
  'fiscal-group-claim-stores',
  `INSERT INTO fiscal_group_store (store_id, fiscal_group_id)
   SELECT unnest($1::varchar[]), $2
   ON CONFLICT (store_id) DO NOTHING
   RETURNING store_id`,
);
const HOLDERS = sql(
  'fiscal-group-store-holders',
  `SELECT s.store_id, g.id, g.name FROM fiscal_group_store s JOIN fiscal_group g ON g.id = s.fiscal_group_id WHERE s.store_id = ANY($1)`,
);

export interface StoreHolder {
  storeId: string;
  groupId: string;
  groupName: string;
}

/** Which group holds each store (`fiscal_group_store`), written with the group in the same transaction. */
@Injectable()
export class FiscalGroupStoresRepository {
  constructor(private readonly db: SqlRunner) {}

  /** Claims the stores for the group; the ids actually claimed (the others are held by another group). */
  async claim(manager: EntityManager, groupId: string, storeIds: string[]): Promise<Set<string>> {
    const rows = await this.db.rows<{ store_id: string }>(CLAIM, [storeIds, groupId], manager);
    return new Set(rows.map((row) => row.store_id));
  }

  async releaseAll(manager: EntityManager, groupId: string): Promise<void> {
    await manager.delete(FiscalGroupStoreEntity, { fiscalGroupId: groupId });
  }

  async holders(manager: EntityManager | undefined, storeIds: string[]): Promise<StoreHolder[]> {
    const rows = await this.db.rows<{ store_id: string; id: string; name: string }>(HOLDERS, [storeIds], manager);
    return rows.map((row) => ({ storeId: row.store_id, groupId: row.id, groupName: row.name }));
  }
}
