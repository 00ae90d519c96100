import { ApiError } from '../common/errors/api-error.js';
import { idText } from '../common/id-text.js';
import { isPlainObject } from '../common/plain-object.js';
import { readOrderAdjustments } from '../tax-engine/order-adjustments.js';

/**
 * The order as the enrichment reads it, built once from the body: every later step (store check, size limit,
 * category lookup, taxing) reads this, never the body again.
 */
export interface ReceivedOrder {
  payload: Record<string, unknown>;
  /** Lines plus their selected modifiers (every entry of `order.products`, objects or not). */
  lineCount: number;
  /** The distinct product ids of the lines and selected modifiers, for the category lookup. */
  productIds: string[];
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
  return { payload, orderId, wrapped, storeId, source, ...productsOf(payload) };
}

/** The lines' count (modifiers included) and distinct product ids, in one walk over `order.products`. */
function productsOf(payload: Record<string, unknown>): { lineCount: number; productIds: string[] } {
  const products = isPlainObject(payload.order) ? payload.order.products : undefined;
  if (!Array.isArray(products)) return { lineCount: 0, productIds: [] };
  const ids = new Set<string>();
  let lineCount = products.length;
  for (const line of products) {
    if (!isPlainObject(line)) continue;
    const id = idText(line.productId);
    if (id) ids.add(id);
    if (!Array.isArray(line.modifierGroups)) continue;
    for (const group of line.modifierGroups) {
      const modifiers = isPlainObject(group) ? group.selectedModifiers : undefined;
      if (!Array.isArray(modifiers)) continue;
      lineCount += modifiers.length;
      for (const modifier of modifiers) {
        const modifierId = isPlainObject(modifier) ? idText(modifier.productId) : undefined;
        if (modifierId) ids.add(modifierId);
      }
    }
  }
  return { lineCount, productIds: [...ids] };
}

/** The payload with `store.id` replaced (a transfer moves the order; its other store fields are kept). */
export function withStoreId(payload: Record<string, unknown>, storeId: string): Record<string, unknown> {
  return { ...payload, store: { ...(isPlainObject(payload.store) ? payload.store : {}), id: storeId } };
}
