import { Injectable } from '@nestjs/common';
import { In, type EntityManager } from 'typeorm';
import { sql, SqlRunner } from '../database/sql-runner.js';
import type { FiscalGroupLoader, StoreGroupRevisions } from '../fiscal-lookup/fiscal-lookup.service.js';
import type { FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';
import { FiscalGroupEntity, FiscalGroupStoreEntity, type StoreRef } from './fiscal-group.entity.js';
import type { FiscalGroupRevisionSnapshot } from './fiscal-group-revision.entity.js';
import { FiscalGroupRevisionsRepository } from './fiscal-group-revisions.repository.js';

/**
 * The group's stores in the order of the list; a store already held by another group is not inserted (a concurrent
 * claim waits for the first one to commit).
 */
export const CLAIM = sql<{ store_id: string }>(
  'fiscal-group-claim-stores',
  `INSERT INTO fiscal_group_store (store_id, fiscal_group_id, store_name, position)
   SELECT listed.store_id, $2, listed.store_name, listed.place - 1
   FROM unnest($1::varchar[], $3::varchar[]) WITH ORDINALITY AS listed (store_id, store_name, place)
   ON CONFLICT (store_id) DO NOTHING
   RETURNING store_id`,
  { store_id: true },
);

interface HeldStoreRow {
  store_id: string;
  fiscal_group_id: string;
  store_name: string;
  position: number;
}
export const STORES_OF_GROUPS = sql<HeldStoreRow>(
  'fiscal-group-stores-of-groups',
  `SELECT store_id, fiscal_group_id, store_name, position FROM fiscal_group_store WHERE fiscal_group_id = ANY($1::uuid[]) ORDER BY position`,
  { store_id: true, fiscal_group_id: true, store_name: true, position: true },
);
export const HOLDERS = sql<{ store_id: string; id: string; name: string }>(
  'fiscal-group-store-holders',
  `SELECT s.store_id, g.id, g.name FROM fiscal_group_store s JOIN fiscal_group g ON g.id = s.fiscal_group_id WHERE s.store_id = ANY($1)`,
  { store_id: true, id: true, name: true },
);

interface GroupRevisionsRow {
  id: string;
  external_id: string | null;
  uf: string;
  tax_regime: string | null;
  tax_matrix: FiscalGroupSnapshot['taxMatrix'] | null;
  settings: FiscalGroupSnapshot['settings'] | null;
  revision: number | null;
  revisions: Array<{
    revision: number;
    effectiveFrom: string;
    snapshot: Omit<FiscalGroupRevisionSnapshot, 'stores' | 'externalId'>;
  }> | null;
  complete: boolean;
}
/**
 * The order path's read of a store's group (through FiscalLookupService's cache): the group's revisions that can
 * be in force at or after `$2` (the one in force then and every later one, scheduled ones included), oldest first;
 * `complete` when none took effect before `$2` (the list is the whole history). The row's own columns only for a
 * group without revisions (written outside the service), and its external id for every revision: the id changes at
 * once, never by a revision.
 */
export const GROUP_BY_STORE = sql<GroupRevisionsRow>(
  'fiscal-group-by-store',
  `SELECT g.id, g.external_id, g.uf, g.tax_regime, CASE WHEN revs.list IS NULL THEN g.tax_matrix END AS tax_matrix, g.settings, g.revision,
          revs.list AS revisions, since.effective_from IS NULL AS complete
   FROM fiscal_group_store s JOIN fiscal_group g ON g.id = s.fiscal_group_id
   CROSS JOIN LATERAL (
     SELECT max(r.effective_from) AS effective_from FROM fiscal_group_revision r
     WHERE r.fiscal_group_id = g.id AND r.cancelled_at IS NULL AND r.kind <> 'delete' AND r.effective_from <= $2
   ) AS since
   CROSS JOIN LATERAL (
     SELECT json_agg(json_build_object('revision', r.revision, 'effectiveFrom', r.effective_from, 'snapshot', r.snapshot - '{stores,externalId}'::text[])
                     ORDER BY r.effective_from, r.revision) AS list
     FROM fiscal_group_revision r
     WHERE r.fiscal_group_id = g.id AND r.cancelled_at IS NULL AND r.kind <> 'delete'
       AND r.effective_from >= coalesce(since.effective_from, '-infinity')
   ) AS revs
   WHERE s.store_id = $1`,
  {
    id: true,
    external_id: true,
    uf: true,
    tax_regime: true,
    tax_matrix: true,
    settings: true,
    revision: true,
    revisions: true,
    complete: true,
  },
);

export const GROUP_IDS_BY_STORES = sql<{ store_id: string; fiscal_group_id: string }>(
  'fiscal-group-ids-by-stores',
  'SELECT store_id, fiscal_group_id::text AS fiscal_group_id FROM fiscal_group_store WHERE store_id = ANY($1)',
  { store_id: true, fiscal_group_id: true },
);

export interface StoreHolder {
  storeId: string;
  groupId: string;
  groupName: string;
}

/**
 * Which group holds each store (`fiscal_group_store`), written with the group in the same transaction,
 * and the order path's reads of the groups by store: FiscalLookupService's FISCAL_GROUP_LOADER (bound in FiscalGroupsPortsModule).
 */
@Injectable()
export class FiscalGroupStoresRepository implements FiscalGroupLoader {
  constructor(
    private readonly db: SqlRunner,
    private readonly revisions: FiscalGroupRevisionsRepository,
  ) {}

  /** Claims the stores for the group, in this order; the ids actually claimed (the others are held by another group). */
  async claim(manager: EntityManager, groupId: string, stores: StoreRef[]): Promise<Set<string>> {
    const rows = await this.db.rows(
      CLAIM,
      [stores.map((store) => store.store_id), groupId, stores.map((store) => store.store_name)],
      manager,
    );
    return new Set(rows.map((row) => row.store_id));
  }

  /** The group's stores, in the order of its list. */
  async listOf(manager: EntityManager, groupId: string): Promise<StoreRef[]> {
    const rows = await this.db.rows(STORES_OF_GROUPS, [[groupId]], manager);
    return rows.map((row) => ({ store_id: row.store_id, store_name: row.store_name }));
  }

  /** Loads the stores of groups read without them (a list page), in one query. */
  async attachTo(groups: FiscalGroupEntity[]): Promise<void> {
    if (groups.length === 0) return;
    const rows = await this.db.rows(STORES_OF_GROUPS, [groups.map((group) => group.id)]);
    for (const group of groups) {
      group.stores = rows
        .filter((row) => row.fiscal_group_id === group.id)
        .map((row) =>
          Object.assign(new FiscalGroupStoreEntity(), {
            storeId: row.store_id,
            fiscalGroupId: row.fiscal_group_id,
            storeName: row.store_name,
            position: row.position,
          }),
        );
    }
  }

  /**
   * Inserts the group and its stores unless a group already has its external id or one of its stores (seeding,
   * which never overwrites); whether it was inserted. Run it under a lock that serializes the seeders.
   */
  async insertUnlessTaken(
    manager: EntityManager,
    group: Pick<FiscalGroupEntity, 'externalId' | 'name' | 'uf' | 'taxRegime' | 'taxMatrix' | 'settings'>,
    stores: StoreRef[],
  ): Promise<boolean> {
    const storeTaken = await manager.existsBy(FiscalGroupStoreEntity, { storeId: In(stores.map((store) => store.store_id)) });
    const groupExists = group.externalId !== null && (await manager.existsBy(FiscalGroupEntity, { externalId: group.externalId }));
    if (storeTaken || groupExists) return false;
    const { identifiers } = await manager.insert(FiscalGroupEntity, { ...group, revision: 1 });
    const groupId = identifiers[0]!.id as string;
    await this.claim(manager, groupId, stores);
    await this.revisions.insert(
      manager,
      {
        groupId,
        kind: 'create',
        actor: null,
        snapshot: { ...group, settings: group.settings ?? {}, stores },
      },
      // A new group: no order names it yet.
      null,
    );
    return true;
  }

  /** Marks the group changed (`updated_at`) when only its stores changed. */
  async touchGroup(manager: EntityManager, groupId: string): Promise<void> {
    await manager.update(FiscalGroupEntity, { id: groupId }, { updatedAt: () => 'now()' });
  }

  async releaseAll(manager: EntityManager, groupId: string): Promise<void> {
    await manager.delete(FiscalGroupStoreEntity, { fiscalGroupId: groupId });
  }

  async holders(manager: EntityManager | undefined, storeIds: string[]): Promise<StoreHolder[]> {
    const rows = await this.db.rows(HOLDERS, [storeIds], manager);
    return rows.map((row) => ({ storeId: row.store_id, groupId: row.id, groupName: row.name }));
  }

  async groupRevisionsByStore(storeId: string, since: Date, manager?: EntityManager): Promise<StoreGroupRevisions | undefined> {
    const row = await this.db.row(GROUP_BY_STORE, [storeId, since], manager);
    if (!row) return undefined;
    const identity = { id: row.id, externalId: row.external_id };
    if (row.revisions === null) {
      const group = {
        ...identity,
        uf: row.uf,
        taxRegime: row.tax_regime,
        taxMatrix: row.tax_matrix ?? {},
        settings: row.settings ?? {},
      };
      return { complete: true, revisions: [{ revision: row.revision, effectiveFrom: Number.NEGATIVE_INFINITY, group }] };
    }
    return {
      complete: row.complete,
      revisions: row.revisions.map(({ revision, effectiveFrom, snapshot }) => ({
        revision,
        effectiveFrom: Date.parse(effectiveFrom),
        group: {
          ...identity,
          uf: snapshot.uf,
          taxRegime: snapshot.taxRegime,
          taxMatrix: snapshot.taxMatrix,
          settings: snapshot.settings ?? {},
        },
      })),
    };
  }

  async groupIdsByStores(storeIds: string[], manager?: EntityManager): Promise<Map<string, string>> {
    const rows = await this.db.rows(GROUP_IDS_BY_STORES, [storeIds], manager);
    return new Map(rows.map((row) => [row.store_id, row.fiscal_group_id]));
  }
}
