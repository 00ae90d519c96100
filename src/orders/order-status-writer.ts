import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { illegalStatusTransition } from './dto/order-errors.dto.js';
import { canTransition, type OrderStatus } from './order-status.js';
import type { Actor } from '../common/actor.js';
import { OrdersRepository, type LockedOrder, type StatusNote } from './orders.repository.js';

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
  constructor(private readonly orders: OrdersRepository) {}

  /** The order with this `orderId` (compared as text), locked; 404 when there is none or when its store is not one of `stores`. */
  lock(manager: EntityManager, orderId: string, stores: readonly string[] | null = null): Promise<LockedOrder> {
    return this.orders.lock(manager, orderId, stores);
  }

  /** The 409 ILLEGAL_STATUS_TRANSITION the machine gives for this move, or nothing when it is allowed. */
  check(order: LockedOrder, to: OrderStatus): void {
    const verdict = canTransition(order.status, to);
    if (!verdict.allowed) throw illegalStatusTransition(order.orderId, order.status, to, verdict.reason);
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
    await this.orders.setStatus(manager, order, to, actor, note);
    order.status = to;
    return { from, to, changed: true };
  }
}
