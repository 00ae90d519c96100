import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/**
 * Which fiscal group holds each store (contract §9: the group whose `stores` hold
 * `store_id == String(storeId)`), from the fiscal groups' store ownership table.
 */
@Injectable()
export class StoreFiscalGroupLookup {
  async lookup(manager: EntityManager, storeIds: string[]): Promise<Map<string, string>> {
    const groups = new Map<string, string>();
    if (storeIds.length === 0) return groups;
    const rows = (await manager.query(
      'SELECT store_id, fiscal_group_id::text AS fiscal_group_id FROM fiscal_group_store WHERE store_id = ANY($1)',
      [storeIds],
    )) as Array<{ store_id: string; fiscal_group_id: string }>;
    for (const row of rows) groups.set(row.store_id, row.fiscal_group_id);
    return groups;
  }
}
