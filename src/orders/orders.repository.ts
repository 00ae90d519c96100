import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pool } from '../database/pool.js';
import { INTAKE_STATUSES, type OrderStatus } from './order-status.js';

/** Who writes an order: recorded with every status change. */
export interface Actor {
  clientId: string | null;
  /** The route, e.g. `POST /api/enrich-order`. */
  via: string;
}

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

/**
 * One statement stores an order by `orderId`: concurrent sends of one order leave one
 * row and one id. A re-send keeps `id`, `created_at` and `webhook_attempts`, refreshes
 * the payloads, and only changes the status while the order is still in intake
 * (a store that accepted the order keeps its status).
 */
export const UPSERT_ORDER_SQL = `
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
  RETURNING o.id, o.status, o.created_at, o.updated_at, o.webhook_attempts`;

@Injectable()
export class OrdersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async upsert(order: OrderUpsert, actor: Actor): Promise<UpsertedOrder> {
    // A named statement: each pooled connection plans it once (the order path's hottest query).
    const { rows } = await pool(this.dataSource).query<{
      id: string;
      status: OrderStatus;
      created_at: Date;
      updated_at: Date;
      webhook_attempts: number;
    }>({
      name: 'order-upsert',
      text: UPSERT_ORDER_SQL,
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
    const row = rows[0]!;
    return { id: row.id, status: row.status, createdAt: row.created_at, updatedAt: row.updated_at, webhookAttempts: row.webhook_attempts };
  }
}
