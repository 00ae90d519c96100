import type { AuditChanges, AuditRecord } from '../audit/audit-event.types.js';
import type { OrderStatus } from '../orders/order-status.js';

/** An event about an order, its target the order's `orderId` (the id the point of sale and the console know). */
export function orderEvent(action: string, order: { orderId: string }, changes: AuditChanges): AuditRecord {
  return { action, target: { type: 'order', id: order.orderId }, changes };
}

/** `status` before and after when a transition changed it; nothing otherwise. */
export function statusChange(change: { from: OrderStatus; to: OrderStatus; changed: boolean } | undefined): AuditChanges {
  return change?.changed ? { status: { before: change.from, after: change.to } } : {};
}
