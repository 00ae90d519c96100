import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { DatabaseListener } from '../database/database-listener.js';
import type { CategoryIndex, FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';

/** A revision of a group as the order path uses it. */
export interface GroupRevision {
  /** Null for a group without revisions (written outside the service). */
  revision: number | null;
  /** Milliseconds since the epoch; -Infinity for a group without revisions. */
  effectiveFrom: number;
  group: FiscalGroupSnapshot;
}

/**
 * The revisions of the group holding a store that can be in force from some instant on, oldest first (never
 * empty): the one in force at that instant and every later one. `complete` when the list is the whole history.
 */
export interface StoreGroupRevisions {
  complete: boolean;
  revisions: GroupRevision[];
}

/**
 * The fiscal groups' reads of the order path: a port owned here, implemented by the module that owns the groups
 * (`src/fiscal-groups/`) and bound to `FISCAL_GROUP_LOADER` in its `FiscalGroupsPortsModule` (this module cannot import
 * it: it imports this one to invalidate the caches). See "Ports" in docs/adding-a-module.md.
 */
export interface FiscalGroupLoader {
  /** The revisions of the group holding the store that can be in force at or after `since`: one indexed query. */
  groupRevisionsByStore(storeId: string, since: Date, manager?: EntityManager): Promise<StoreGroupRevisions | undefined>;
  /** Which group holds each store; stores no group holds are absent. */
  groupIdsByStores(storeIds: string[], manager?: EntityManager): Promise<Map<string, string>>;
}

/** A product's fiscal category, by its id and its external id. */
export interface ProductCategoryRecord {
  productId: string;
  externalProductId: string | null;
  ncm: string;
}

/** The categories' read of the order path: a port like FiscalGroupLoader, bound in `ProductCategoriesPortsModule`. */
export interface ProductCategoryLoader {
  /** The categories whose product id or external product id is one of `ids`: one indexed query. */
  categoriesMatching(ids: string[], manager?: EntityManager): Promise<ProductCategoryRecord[]>;
}

export const FISCAL_GROUP_LOADER = Symbol('FiscalGroupLoader');
export const PRODUCT_CATEGORY_LOADER = Symbol('ProductCategoryLoader');

export const FISCAL_CHANGE_CHANNEL = 'fiscal_config_changed';

/**
 * How many times an order is taxed again when its storing statement finds that the revision that taxed it is no longer
 * the one in force at its tax instant (each retry follows a revision written or cancelled meanwhile).
 */
export const MAX_REVISION_RETRIES = 5;

/** The 503 after MAX_REVISION_RETRIES: the group's revisions kept changing under the order; nothing was stored. */
export function fiscalConfigurationChanging(orderId: string): ApiError {
  return new ApiError(
    ErrorCode.SERVICE_UNAVAILABLE,
    `The fiscal configuration of order ${orderId}'s store kept changing while it was taxed; nothing was stored: send it again`,
    { headers: { 'retry-after': '1' } },
  );
}
/** Past this many entries a cache starts over rather than grow without bound. */
const MAX_ENTRIES = 200_000;
/**
 * How far back a cached group's revisions reach: an order's tax instant is at most 24 hours before its receipt, and
 * an hour more keeps a slow clock or a long request inside. Older instants (a transfer days later) are read uncached.
 */
export const CACHED_HISTORY_MS = 25 * 60 * 60 * 1000;

interface GroupEntry extends StoreGroupRevisions {
  /** The instant the list was read from: earlier instants are covered only by a complete list. */
  since: number;
}

/**
 * The revision in force at `instantMs`: the last one that took effect at or before it (on equal instants, the
 * later revision); before the first revision, the first one (an order dated just before its group was created
 * is taxed by the group's first revision rather than by none).
 */
export function revisionAt(revisions: readonly GroupRevision[], instantMs: number): GroupRevision {
  let chosen = revisions[0]!;
  for (const candidate of revisions) {
    if (candidate.effectiveFrom > instantMs) break;
    chosen = candidate;
  }
  return chosen;
}

function covers(entry: GroupEntry, instantMs: number): boolean {
  return entry.complete || instantMs >= entry.since || instantMs >= entry.revisions[0]!.effectiveFrom;
}

interface CategoryEntry {
  byProductId?: string;
  byExternalProductId?: string;
}

/**
 * The order path's two reads (the fiscal group of a store; the categories of the
 * order's products), each one indexed query, with the answers kept in memory. The
 * queries belong to the modules that own the tables, injected through the ports
 * FISCAL_GROUP_LOADER and PRODUCT_CATEGORY_LOADER (this module cannot import them:
 * they import it to invalidate the caches).
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
  private readonly groups = new Map<string, GroupEntry | null>();
  private readonly categories = new Map<string, CategoryEntry>();

  constructor(
    private readonly listener: DatabaseListener,
    @Inject(FISCAL_GROUP_LOADER) private readonly groupLoader: FiscalGroupLoader,
    @Inject(PRODUCT_CATEGORY_LOADER) private readonly categoryLoader: ProductCategoryLoader,
  ) {}

  /** Nothing is cached until the channel is listened to (the listener's first `onReset()`): see DatabaseListener.subscribe. */
  async onModuleInit(): Promise<void> {
    await this.listener.subscribe(FISCAL_CHANGE_CHANNEL, {
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
   * The group holding the store as it is in force now. With `inTransaction`, a cache miss is read on that
   * transaction's connection: a caller that holds a pooled connection never waits for a second one (40 concurrent
   * transfers on a pool of 10 would otherwise wait on each other until the pool's connect timeout).
   */
  async groupByStore(storeId: string, inTransaction?: EntityManager): Promise<FiscalGroupSnapshot | undefined> {
    return (await this.groupAt(storeId, new Date(), inTransaction))?.group;
  }

  /**
   * The revision of the store's group in force at `instant` (an order's tax instant), chosen in memory among the
   * cached revisions, scheduled ones included: a revision takes effect at its instant on every instance without a
   * read. An instant older than the cached history is read from the database, uncached. See `groupByStore` for
   * `inTransaction`.
   */
  async groupAt(storeId: string, instant: Date, inTransaction?: EntityManager): Promise<GroupRevision | undefined> {
    const instantMs = instant.getTime();
    if (this.caching && this.groups.has(storeId)) {
      const entry = this.groups.get(storeId);
      if (!entry) return undefined;
      if (covers(entry, instantMs)) return revisionAt(entry.revisions, instantMs);
    }
    const generation = this.generation;
    const since = Math.min(Date.now() - CACHED_HISTORY_MS, instantMs);
    const loaded = await this.groupLoader.groupRevisionsByStore(storeId, new Date(since), inTransaction);
    const entry = loaded ? { ...loaded, since } : null;
    if (this.caching && generation === this.generation) {
      if (this.groups.size >= MAX_ENTRIES) this.groups.clear();
      this.groups.set(storeId, entry);
    }
    return entry ? revisionAt(entry.revisions, instantMs) : undefined;
  }

  /**
   * Which fiscal group holds each store (the group whose `stores` hold
   * `store_id == String(storeId)`); stores no group holds are absent. Not cached: read on
   * `manager`'s transaction, so it agrees with the writes made there.
   */
  async groupIdsByStores(storeIds: string[], manager?: EntityManager): Promise<Map<string, string>> {
    if (storeIds.length === 0) return new Map();
    return this.groupLoader.groupIdsByStores(storeIds, manager);
  }

  /** See `groupByStore` for `inTransaction`. */
  async categoriesFor(productIds: string[], inTransaction?: EntityManager): Promise<CategoryIndex> {
    const index = { byProductId: new Map<string, string>(), byExternalProductId: new Map<string, string>() };
    const missing = this.caching ? productIds.filter((id) => !this.categories.has(id)) : productIds;
    const fetched = new Map<string, CategoryEntry>();
    if (missing.length > 0) {
      const generation = this.generation;
      const rows = await this.categoryLoader.categoriesMatching(missing, inTransaction);
      for (const id of missing) fetched.set(id, {});
      for (const row of rows) {
        const byId = fetched.get(row.productId);
        if (byId) byId.byProductId = row.ncm;
        const byExternal = row.externalProductId ? fetched.get(row.externalProductId) : undefined;
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
