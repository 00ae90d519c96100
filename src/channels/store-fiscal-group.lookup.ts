import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Which fiscal group holds each store (contract §9: the group whose `stores` hold
 * `store_id == String(storeId)`). Reads `fiscal_group_store`, the table of the fiscal-groups
 * feature; while that table does not exist the answer is empty, so every `fiscalGroupId` is null.
 */
@Injectable()
export class StoreFiscalGroupLookup {
  async lookup(manager: EntityManager, storeIds: string[]): Promise<Map<string, string>> {
    const groups = new Map<string, string>();
    if (storeIds.length === 0) return groups;
    const [{ present }] = (await manager.query(`SELECT to_regclass('public.fiscal_group_store') IS NOT NULL AS present`)) as Array<{
      present: boolean;
    }>;
    if (!present) return groups;
    const rows = (await manager.query(
      'SELECT store_id, fiscal_group_id::text AS fiscal_group_id FROM fiscal_group_store WHERE store_id = ANY($1)',
      [storeIds],
    )) as Array<{ store_id: string; fiscal_group_id: string }>;
    for (const row of rows) groups.set(row.store_id, row.fiscal_group_id);
    return groups;
  }
}
