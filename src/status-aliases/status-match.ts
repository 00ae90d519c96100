import { ORDER_STATUSES, type OrderStatus } from '../orders/order-status.js';

/**
 * The form a status label is matched in: case, accents, surrounding spaces and
 * the difference between space, `_` and `-` do not count. `Pedido_Recibido`, ` pedido-recibido `
 * and `PEDIDO RECIBIDO` all match `Pedido Recibido`; `IN PREPARATION` matches `IN_PREPARATION`.
 */
export function matchKey(label: string): string {
  return label
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_-]+/g, ' ')
    .trim();
}

const CANONICAL = new Map<string, OrderStatus>(ORDER_STATUSES.map((status) => [matchKey(status), status]));

/** The order status a label means: a status value first, then an alias; undefined when neither. */
export function resolveStatusLabel(label: string, aliases: ReadonlyMap<string, OrderStatus>): OrderStatus | undefined {
  const key = matchKey(label);
  return CANONICAL.get(key) ?? aliases.get(key);
}

/** Whether a label matches a status value itself (an alias for it would never be used). */
export function canonicalStatusOf(label: string): OrderStatus | undefined {
  return CANONICAL.get(matchKey(label));
}
