import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditActor } from '../audit/audit-event.types.js';
import { sql, SqlRunner } from '../database/sql-runner.js';
import type { CategoryHistoryKind } from './product-fiscal-category-history.entity.js';

/**
 * Names the actor of the category writes that follow in this transaction: the history trigger reads these
 * settings. `true`: local to the transaction, so a pooled connection never carries them to another one.
 */
export const NAME_HISTORY_ACTOR = sql<{ actor_type: string; actor_id: string; actor_name: string }>(
  'product-category-history-actor',
  `SELECT set_config('product_category_history.actor_type', $1, true) AS actor_type,
          set_config('product_category_history.actor_id', $2, true) AS actor_id,
          set_config('product_category_history.actor_name', $3, true) AS actor_name`,
  { actor_type: true, actor_id: true, actor_name: true },
);

export interface CategoryHistoryRow {
  product_id: string;
  kind: CategoryHistoryKind;
  changed_at: Date;
  actor_type: 'client' | 'user' | null;
  actor_id: string | null;
  actor_name: string | null;
  product_name_before: string | null;
  product_name_after: string | null;
  ncm_before: string | null;
  ncm_after: string | null;
  external_product_id_before: string | null;
  external_product_id_after: string | null;
  total: string;
}

/** A page of a category's history, newest first (the identity orders rows written in one instant), with the count of all. */
export const CATEGORY_HISTORY_PAGE = sql<CategoryHistoryRow>(
  'product-category-history-page',
  `SELECT product_id, kind, changed_at, actor_type, actor_id, actor_name, product_name_before, product_name_after,
          ncm_before, ncm_after, external_product_id_before, external_product_id_after, count(*) OVER () AS total
   FROM product_fiscal_category_history WHERE product_id = $1 ORDER BY id DESC LIMIT $2 OFFSET $3`,
  {
    product_id: true,
    kind: true,
    changed_at: true,
    actor_type: true,
    actor_id: true,
    actor_name: true,
    product_name_before: true,
    product_name_after: true,
    ncm_before: true,
    ncm_after: true,
    external_product_id_before: true,
    external_product_id_after: true,
    total: true,
  },
);
export const CATEGORY_HISTORY_COUNT = sql<{ total: string }>(
  'product-category-history-count',
  `SELECT count(*) AS total FROM product_fiscal_category_history WHERE product_id = $1`,
  { total: true },
);

/** The history of the product fiscal categories (`product_fiscal_category_history`). */
@Injectable()
export class ProductCategoryHistoryRepository {
  constructor(private readonly db: SqlRunner) {}

  /** The actor the trigger records for this transaction's category writes. */
  async nameActor(manager: EntityManager, actor: AuditActor): Promise<void> {
    await this.db.row(NAME_HISTORY_ACTOR, [actor.type, actor.id, actor.name], manager);
  }

  async page(productId: string, limit: number, offset: number): Promise<{ rows: CategoryHistoryRow[]; total: number }> {
    const rows = await this.db.rows(CATEGORY_HISTORY_PAGE, [productId, limit, offset]);
    // Past the last page the window count is missing: count alone.
    const total = rows.length > 0 ? Number(rows[0]!.total) : Number((await this.db.row(CATEGORY_HISTORY_COUNT, [productId]))!.total);
    return { rows, total };
  }
}
