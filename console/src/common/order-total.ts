import { isObj, num, type Obj } from './values';

/** A money value of the API (reais, at most two decimals) in integer cents, so that sums are exact. */
export function toCents(reais: number): number {
  return Math.round(reais * 100);
}

/** The amount of a line or of a selected modifier: `price.totalPrice.total`, in reais. */
export function lineAmount(item: Obj): number | undefined {
  const price = isObj(item.price) ? item.price : undefined;
  const totalPrice = price && isObj(price.totalPrice) ? price.totalPrice : undefined;
  return num(totalPrice?.total);
}

/**
 * The sum of an order's lines and of their selected modifiers (a modifier's amount is not part of
 * its line's, as in the platform's orders), in cents; undefined when no line has an amount.
 */
export function linesTotalCents(payload: unknown): number | undefined {
  const order = isObj(payload) && isObj(payload.order) ? payload.order : undefined;
  const products = order && Array.isArray(order.products) ? order.products : [];
  let cents = 0;
  let counted = 0;
  const add = (item: unknown) => {
    const amount = isObj(item) ? lineAmount(item) : undefined;
    if (amount === undefined) return;
    cents += toCents(amount);
    counted += 1;
  };
  for (const line of products) {
    add(line);
    const groups = isObj(line) && Array.isArray(line.modifierGroups) ? line.modifierGroups : [];
    for (const group of groups) if (isObj(group) && Array.isArray(group.selectedModifiers)) group.selectedModifiers.forEach(add);
  }
  return counted > 0 ? cents : undefined;
}

export interface OrderTotal {
  cents: number;
  /** `payload` when the platform sent `total.orderAmount`; `lines` when it was summed from the lines. */
  from: 'payload' | 'lines';
}

/** The order's value: the platform's `total.orderAmount` when it sent one, else the sum of its lines. */
export function orderTotal(payload: unknown): OrderTotal | undefined {
  const total = isObj(payload) && isObj(payload.total) ? payload.total : undefined;
  const sent = total ? num(total.orderAmount) : undefined;
  if (sent !== undefined) return { cents: toCents(sent), from: 'payload' };
  const cents = linesTotalCents(payload);
  return cents === undefined ? undefined : { cents, from: 'lines' };
}
