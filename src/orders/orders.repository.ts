import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pool } from '../database/pool.js';
import type { Actor } from '../common/actor.js';
import { INTAKE_STATUSES, type OrderStatus } from './order-status.js';

export interface OrderUpsert {
  orderId: string;
  status: OrderStatus;
  /** JSON text of the payload as received. */
  payloadJson: string;
  /** JSON text of the enriched payload, or null when enrichment failed. */
  enrichedPayloadJson: string | null;
  storeId: string | null;
  source: string | null;
  fiscalGroupId: string | null;
}

export interface UpsertedOrder {
  id: string;
  status: OrderStatus;
  createdAt: Date;
  updatedAt: Date;
  webhookAttempts: number;
}

/** The intake statuses as an SQL list, for `status IN (...)`. */
export const INTAKE_SQL_LIST = INTAKE_STATUSES.map((status) => `'${status}'`).join(', ');

/** Whether a transfer moved the order to another store: it then keeps that store. A column of the row, so the guard sees it once locked. */
const TRANSFERRED = `o.transferred_at IS NOT NULL`;

/**
 * One statement stores an order by `orderId`: concurrent sends of one order leave one
 * row and one id. A re-send keeps `id`, `created_at` and `webhook_attempts`, refreshes
 * the payloads, and only changes the status while the order is still in intake
 * (a store that accepted the order keeps its status).
 *
 * A re-send changes nothing (no row is returned) when it would undo fulfillment:
 * - it names another store than the one a transfer moved the order to (the caller
 *   re-taxes it for the current store and tries again);
 * - with `untaxed`, it carries no taxes while the stored order has some.
 * The guard is checked on the row as it is once locked, so a concurrent transfer is seen.
 */
export function upsertOrderSql(untaxed = false): string {
  const guard = untaxed
    ? `o.enriched_payload IS NULL AND (o.store_id IS NOT DISTINCT FROM EXCLUDED.store_id OR NOT ${TRANSFERRED})`
    : `o.store_id IS NOT DISTINCT FROM EXCLUDED.store_id OR NOT ${TRANSFERRED}`;
  return `
  INSERT INTO orders AS o (order_id, status, payload, enriched_payload, store_id, source, fiscal_group_id, last_changed_by, last_changed_via)
  VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8, $9)
  ON CONFLICT (order_id) DO UPDATE SET
    payload = EXCLUDED.payload,
    enriched_payload = EXCLUDED.enriched_payload,
    store_id = EXCLUDED.store_id,
    source = EXCLUDED.source,
    fiscal_group_id = EXCLUDED.fiscal_group_id,
    status = CASE WHEN o.status IN (${INTAKE_SQL_LIST}) THEN EXCLUDED.status ELSE o.status END,
    last_changed_by = EXCLUDED.last_changed_by,
    last_changed_via = EXCLUDED.last_changed_via,
    updated_at = now()
  WHERE ${guard}
  RETURNING o.id, o.status, o.created_at, o.updated_at, o.webhook_attempts`;
}

export const UPSERT_ORDER_SQL = upsertOrderSql();
const UPSERT_UNTAXED_ORDER_SQL = upsertOrderSql(true);

/** What a refused re-send finds stored. */
export interface StoredOrderState {
  storeId: string | null;
  taxed: boolean;
  transferred: boolean;
  fiscalGroupId: string | null;
  status: OrderStatus;
}

@Injectable()
export class OrdersRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Stores the order, or returns null when the stored order must not be overwritten by it (see `upsertOrderSql`). */
  async upsert(order: OrderUpsert, actor: Actor): Promise<UpsertedOrder | null> {
    const untaxed = order.enrichedPayloadJson === null;
    // A named statement: each pooled connection plans it once (the order path's hottest query).
    const { rows } = await pool(this.dataSource).query<{
      id: string;
      status: OrderStatus;
      created_at: Date;
      updated_at: Date;
      webhook_attempts: number;
    }>({
      name: untaxed ? 'order-upsert-untaxed' : 'order-upsert',
      text: untaxed ? UPSERT_UNTAXED_ORDER_SQL : UPSERT_ORDER_SQL,
      values: [
        order.orderId,
        order.status,
        order.payloadJson,
        order.enrichedPayloadJson,
        order.storeId,
        order.source,
        order.fiscalGroupId,
        actor.clientId,
        actor.via,
      ],
    });
    const row = rows[0];
    if (!row) return null;
    return { id: row.id, status: row.status, createdAt: row.created_at, updatedAt: row.updated_at, webhookAttempts: row.webhook_attempts };
  }

  async storedState(orderId: string): Promise<StoredOrderState | undefined> {
    const { rows } = await pool(this.dataSource).query<{
      store_id: string | null;
      taxed: boolean;
      transferred: boolean;
      fiscal_group_id: string | null;
      status: OrderStatus;
    }>(
      `SELECT o.store_id, o.enriched_payload IS NOT NULL AS taxed, ${TRANSFERRED} AS transferred, o.fiscal_group_id, o.status
       FROM orders o WHERE o.order_id = $1`,
      [orderId],
    );
    const row = rows[0];
    return row
      ? { storeId: row.store_id, taxed: row.taxed, transferred: row.transferred, fiscalGroupId: row.fiscal_group_id, status: row.status }
      : undefined;
  }
}
