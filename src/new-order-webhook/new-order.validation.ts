import { ApiError, type ErrorDetail } from '../common/errors/api-error.js';
import { isOrderStatus, type OrderStatus } from '../orders/order-status.js';

const MAX_ID_LENGTH = 100;
/** A pragmatic e-mail check: one @, no spaces, a dot in the domain. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export interface NewOrder {
  orderId: string;
  /** The sent status when it is an order status value, else RECEIVED (aliases are resolved by the service). */
  status: OrderStatus;
  /** The status as sent, when one was. */
  label?: string;
  storeId: string | null;
  /** The body as received. */
  payload: Record<string, unknown>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function idText(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim().length > 0) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return undefined;
}

function isNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * The platform's new-order body (contract §10), checked by hand so that properties the spec does
 * not list are kept: `order_id` a non-empty string or a number, `customer.email` an e-mail,
 * `items` non-empty with `quantity` > 0 and `price` >= 0, `total` >= 0. Every problem is listed
 * in one 400 (`invalid_request`).
 */
export function readNewOrder(body: unknown): NewOrder {
  if (!isObject(body)) throw ApiError.badRequest('The body must be a JSON object');
  const problems: ErrorDetail[] = [];
  const problem = (field: string, text: string) => problems.push({ field, problem: text });

  const orderId = idText(body.order_id);
  if (body.order_id === undefined || body.order_id === null) problem('order_id', 'is required');
  else if (orderId === undefined) problem('order_id', 'must be a non-empty string or a non-negative integer');
  else if (orderId.length > MAX_ID_LENGTH) problem('order_id', `must have at most ${MAX_ID_LENGTH} characters`);

  if (body.status !== undefined && body.status !== null && typeof body.status !== 'string') problem('status', 'must be a string');

  if (!isObject(body.customer)) problem('customer', 'is required and must be an object');
  else {
    const { email, id, name } = body.customer;
    if (email === undefined || email === null) problem('customer.email', 'is required');
    else if (typeof email !== 'string' || email.length > 320 || !EMAIL.test(email)) problem('customer.email', 'must be an e-mail address');
    if (id !== undefined && id !== null && idText(id) === undefined) problem('customer.id', 'must be a non-empty string or a number');
    if (name !== undefined && name !== null && typeof name !== 'string') problem('customer.name', 'must be a string');
  }

  if (!Array.isArray(body.items)) problem('items', 'is required and must be an array');
  else if (body.items.length === 0) problem('items', 'must not be empty');
  else {
    body.items.forEach((item: unknown, index) => {
      const at = `items[${index}]`;
      if (!isObject(item)) return problem(at, 'must be an object');
      if (item.product_id !== undefined && item.product_id !== null && idText(item.product_id) === undefined) {
        problem(`${at}.product_id`, 'must be a non-empty string or a number');
      }
      if (!isNumber(item.quantity) || item.quantity <= 0) problem(`${at}.quantity`, 'must be a number greater than 0');
      if (!isNumber(item.price) || item.price < 0) problem(`${at}.price`, 'must be a number greater than or equal to 0');
    });
  }

  if (!isNumber(body.total) || body.total < 0) problem('total', 'must be a number greater than or equal to 0');

  if (problems.length > 0) throw ApiError.validation(problems);
  const store = isObject(body.store) ? idText(body.store.id) : undefined;
  return {
    orderId: orderId!,
    status: isOrderStatus(body.status) ? body.status : 'RECEIVED',
    label: typeof body.status === 'string' && body.status.trim() !== '' ? body.status : undefined,
    storeId: store !== undefined && store.length <= MAX_ID_LENGTH ? store : null,
    payload: body,
  };
}
