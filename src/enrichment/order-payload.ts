import { ApiError } from '../common/errors/api-error.js';
import { idText } from '../common/id-text.js';
import { isPlainObject } from '../common/plain-object.js';
import { readOrderAdjustments } from '../tax-engine/order-adjustments.js';

export interface ReceivedOrder {
  payload: Record<string, unknown>;
  orderId: string;
  /** Whether the body carried the payload under `payload` rather than at the root. */
  wrapped: boolean;
  storeId: string | null;
  source: string | null;
}

const MAX_ID_LENGTH = 100;

/**
 * Checks only what enrichment needs of the free-form order (the payload is large and
 * mostly opaque): a JSON object, at the root or under `payload`, with a string `orderId`, and
 * well-formed order-level amounts (`order.discounts`, `deliveryFee`, `serviceCharge`, `otherCharges`).
 */
export function receiveOrder(body: unknown): ReceivedOrder {
  if (body === undefined || body === null || body === '') throw ApiError.badRequest('The body is empty: send the order as a JSON object');
  if (!isPlainObject(body)) throw ApiError.badRequest('The body must be a JSON object (the order, or { "payload": order })');
  if (Object.keys(body).length === 0) throw ApiError.badRequest('The body is an empty object: send the order', 'orderId');

  const wrapped = isPlainObject(body.payload) && body.orderId === undefined;
  const payload = wrapped ? (body.payload as Record<string, unknown>) : body;
  const prefix = wrapped ? 'payload.' : '';
  const orderId = payload.orderId;
  if (orderId === undefined || orderId === null) throw ApiError.badRequest('orderId is required', `${prefix}orderId`);
  if (typeof orderId !== 'string') throw ApiError.badRequest('orderId must be a string', `${prefix}orderId`);
  if (orderId.length < 1 || orderId.length > MAX_ID_LENGTH) {
    throw ApiError.badRequest(`orderId must have 1 to ${MAX_ID_LENGTH} characters`, `${prefix}orderId`);
  }

  const storeId = isPlainObject(payload.store) ? (idText(payload.store.id) ?? null) : null;
  if (storeId !== null && storeId.length > MAX_ID_LENGTH)
    throw ApiError.badRequest(`store.id must have at most ${MAX_ID_LENGTH} characters`, `${prefix}store.id`);
  const source = typeof payload.source === 'string' && payload.source.length > 0 ? payload.source : null;
  if (source !== null && source.length > MAX_ID_LENGTH)
    throw ApiError.badRequest(`source must have at most ${MAX_ID_LENGTH} characters`, `${prefix}source`);
  // Discounts, fees and charges: a malformed entry would be taxed as something it does not say.
  const { problems } = readOrderAdjustments(payload.order);
  if (problems.length > 0) {
    throw ApiError.validation(problems.map((problem) => ({ field: `${prefix}${problem.path}`, problem: problem.message })));
  }
  return { payload, orderId, wrapped, storeId, source };
}

/**
 * Lines (every entry of `order.products`, objects or not) plus the selected modifiers of the
 * lines, counted only until `limit` is passed: a huge order costs no more than a legal one.
 */
export function lineCountExceeds(payload: Record<string, unknown>, limit: number): boolean {
  const products = isPlainObject(payload.order) ? payload.order.products : undefined;
  if (!Array.isArray(products)) return false;
  let count = products.length;
  if (count > limit) return true;
  for (const line of products) {
    const groups = isPlainObject(line) ? line.modifierGroups : undefined;
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const modifiers = isPlainObject(group) ? group.selectedModifiers : undefined;
      if (!Array.isArray(modifiers)) continue;
      count += modifiers.length;
      if (count > limit) return true;
    }
  }
  return false;
}

/** The payload with `store.id` replaced (a transfer moves the order; its other store fields are kept). */
export function withStoreId(payload: Record<string, unknown>, storeId: string): Record<string, unknown> {
  return { ...payload, store: { ...(isPlainObject(payload.store) ? payload.store : {}), id: storeId } };
}
