import { isPlainObject } from '../common/plain-object.js';

const PICKUP_TYPES = new Set(['PICKUP', 'TAKEOUT', 'TAKE_AWAY']);

function isPickupType(value: unknown): boolean {
  return typeof value === 'string' && PICKUP_TYPES.has(value.trim().toUpperCase());
}

/**
 * Whether a stored order payload is a pickup order (only those can be dispatched): `order.type`,
 * `order.deliveryType` or the root `deliveryType` is PICKUP, TAKEOUT or TAKE_AWAY (any
 * case), or `order.pickup` is `true`.
 */
export function isPickupOrder(payload: Record<string, unknown>): boolean {
  const order = isPlainObject(payload.order) ? payload.order : {};
  return isPickupType(order.type) || isPickupType(order.deliveryType) || isPickupType(payload.deliveryType) || order.pickup === true;
}
