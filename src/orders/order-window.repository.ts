import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { sql, SqlRunner } from '../database/sql-runner.js';

/**
 * The orders of some stores received in a time window, newest first, at most `$4`: the keys only
 * (`ix_orders_store_created`), with the size of each order's documents so that the caller can
 * read the payloads in batches of bounded memory. An order measured before `payload_bytes` existed
 * counts its stored (compressed) size instead.
 */
export const ORDER_WINDOW_KEYS = sql<{ id: string; bytes: number }>(
  'order-window-keys',
  `SELECT id, COALESCE(payload_bytes, pg_column_size(payload))::integer AS bytes
   FROM orders
   WHERE store_id = ANY($1::varchar[]) AND created_at >= $2 AND created_at <= $3
   ORDER BY created_at DESC, id DESC
   LIMIT $4`,
  { id: true, bytes: true },
);

/**
 * The received payloads of some orders, by primary key: what re-taxing them needs and nothing else. As text: the
 * reader parses it where it computes (the impact preview's worker thread), not on the thread serving requests.
 */
export const ORDER_WINDOW_PAYLOADS = sql<{
  id: string;
  order_id: string;
  created_at: Date;
  payload: string;
}>('order-window-payloads', `SELECT id, order_id, created_at, payload::text AS payload FROM orders WHERE id = ANY($1::uuid[])`, {
  id: true,
  order_id: true,
  created_at: true,
  payload: true,
});

/** Bounds every later statement of the transaction (`SET LOCAL statement_timeout`, with a parameter). */
export const LOCAL_STATEMENT_TIMEOUT = sql<{ statement_timeout: string }>(
  'order-window-statement-timeout',
  `SELECT set_config('statement_timeout', $1, true) AS statement_timeout`,
  { statement_timeout: true },
);

export interface WindowOrderKey {
  id: string;
  /** Bytes of the order's stored documents (an estimate of what reading it costs). */
  bytes: number;
}

export interface WindowOrder {
  /** The order's row id (`orders.id`). */
  id: string;
  orderId: string;
  receivedAt: Date;
  /** The order as received, as JSON text. */
  payloadJson: string;
}

/**
 * Reads of orders by store and time of receipt, for work that re-computes stored orders (the fiscal
 * impact preview). Run in the caller's transaction, so the keys and the payloads come from one snapshot.
 */
@Injectable()
export class OrderWindowRepository {
  constructor(private readonly db: SqlRunner) {}

  async boundStatements(manager: EntityManager, timeoutMs: number): Promise<void> {
    await this.db.rows(LOCAL_STATEMENT_TIMEOUT, [`${timeoutMs}ms`], manager);
  }

  /** The keys of the newest `limit` orders of `storeIds` received in [from, to], newest first. */
  async keys(manager: EntityManager, storeIds: string[], from: Date, to: Date, limit: number): Promise<WindowOrderKey[]> {
    if (storeIds.length === 0) return [];
    return this.db.rows(ORDER_WINDOW_KEYS, [storeIds, from, to, limit], manager);
  }

  /** The orders of `ids`, in the order of `ids` (an id no longer stored is left out). */
  async payloads(manager: EntityManager, ids: string[]): Promise<WindowOrder[]> {
    const rows = await this.db.rows(ORDER_WINDOW_PAYLOADS, [ids], manager);
    const byId = new Map(rows.map((row) => [row.id, row]));
    const orders: WindowOrder[] = [];
    for (const id of ids) {
      const row = byId.get(id);
      if (row) orders.push({ id: row.id, orderId: row.order_id, receivedAt: row.created_at, payloadJson: row.payload });
    }
    return orders;
  }
}
