import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { canTransition, type OrderStatus } from './order-status.js';
import type { Actor } from '../common/actor.js';

/** An order row read under `FOR UPDATE`: nobody else changes it until the transaction ends. */
export interface LockedOrder {
  id: string;
  orderId: string;
  status: OrderStatus;
  storeId: string | null;
  payload: Record<string, unknown>;
  enrichedPayload: Record<string, unknown> | null;
  fiscalGroupId: string | null;
}

/** What the history row keeps beside the status: the label as sent and the body's other properties. */
export interface StatusNote {
  label?: string;
  extra?: Record<string, unknown> | null;
}

export interface StatusChange {
  from: OrderStatus;
  to: OrderStatus;
  /** False when `to` was already the status (nothing written). */
  changed: boolean;
}

/**
 * Every status change made by a route goes through here: the order row is locked, the
 * machine of `order-status.ts` decides (409 when it refuses), and one UPDATE sets the
 * status together with `last_changed_by` / `last_changed_via`, which the history trigger
 * records with the change.
 */
@Injectable()
export class OrderStatusWriter {
  /** The order with this `orderId` (compared as text), locked; 404 when there is none. */
  async lock(manager: EntityManager, orderId: string): Promise<LockedOrder> {
    const rows = (await manager.query(
      `SELECT id, order_id, status, store_id, payload, enriched_payload, fiscal_group_id
       FROM orders WHERE order_id = $1 FOR UPDATE`,
      [orderId],
    )) as Array<{
      id: string;
      order_id: string;
      status: OrderStatus;
      store_id: string | null;
      payload: Record<string, unknown>;
      enriched_payload: Record<string, unknown> | null;
      fiscal_group_id: string | null;
    }>;
    const row = rows[0];
    if (!row) throw ApiError.notFound(`Order ${orderId} not found`);
    return {
      id: row.id,
      orderId: row.order_id,
      status: row.status,
      storeId: row.store_id,
      payload: row.payload,
      enrichedPayload: row.enriched_payload,
      fiscalGroupId: row.fiscal_group_id,
    };
  }

  /** The 409 the machine gives for this move, or nothing when it is allowed. */
  check(order: LockedOrder, to: OrderStatus): void {
    const verdict = canTransition(order.status, to);
    if (!verdict.allowed) throw ApiError.conflict(`Order ${order.orderId}: ${verdict.reason}`);
  }

  /**
   * Applies `to` to a locked order by the status machine; 409 when the machine refuses. The
   * history row keeps `note.label` (the status as the caller sent it) and `note.extra` (the
   * body's other properties): the statement hands them to the history trigger through
   * transaction-local settings, always set, so a later change in the transaction has its own.
   */
  async transition(
    manager: EntityManager,
    order: LockedOrder,
    to: OrderStatus,
    actor: Actor,
    note: StatusNote = {},
  ): Promise<StatusChange> {
    const from = order.status;
    this.check(order, to);
    if (from === to) return { from, to, changed: false };
    await manager.query(
      `UPDATE orders SET status = $2, last_changed_by = $3, last_changed_via = $4, updated_at = now()
       FROM (SELECT set_config('app.status_label', $5, true), set_config('app.status_extra', $6, true)) AS note
       WHERE id = $1`,
      [order.id, to, actor.clientId, actor.via, note.label ?? '', note.extra ? JSON.stringify(note.extra) : ''],
    );
    order.status = to;
    return { from, to, changed: true };
  }
}
