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

/** A decimal number, or numeric text, as digits and a count of decimal places (`12.5` → 125, 1). */
function decimalOf(value: number | string): { digits: bigint; scale: number } | undefined {
  const written = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(written);
  if (!match) return undefined; // exponent notation: no amount of an order is written so
  const fraction = match[3] ?? '';
  const digits = BigInt(match[2]! + fraction);
  return { digits: match[1] ? -digits : digits, scale: fraction.length };
}

/** round(a × b, 2), half-up (away from zero), in integer cents: exact for the decimals JSON carries. */
export function productCents(a: number | string, b: number | string): number | undefined {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (!x || !y) return undefined;
  const digits = x.digits * y.digits;
  const scale = x.scale + y.scale;
  if (scale <= 2) return Number(digits * 10n ** BigInt(2 - scale));
  const divisor = 10n ** BigInt(scale - 2);
  const magnitude = digits < 0n ? -digits : digits;
  const cents = magnitude / divisor + (2n * (magnitude % divisor) >= divisor ? 1n : 0n);
  return Number(digits < 0n ? -cents : cents);
}

/** A number, or numeric text as the API takes amounts. */
const decimalValue = (value: unknown): number | string | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : typeof value === 'string' && decimalOf(value) ? value.trim() : undefined;

/**
 * A line priced per unit, as the tax engine reads it: `price.unitPrice.total`, `price.unitPrice` or
 * `unitPrice` (numbers or numeric text), and `quantity`.
 */
export interface PerUnitAmount {
  unitPrice: number;
  quantity: number;
  /** round(unitPrice × quantity, 2), in reais. */
  amount: number;
}

export function perUnitAmount(item: Obj): PerUnitAmount | undefined {
  const unitPrice = isObj(item.price) ? item.price.unitPrice : undefined;
  const unit = decimalValue(isObj(unitPrice) ? unitPrice.total : unitPrice) ?? decimalValue(item.unitPrice);
  const quantity = decimalValue(item.quantity);
  if (unit === undefined || quantity === undefined) return undefined;
  const cents = productCents(unit, quantity);
  return cents === undefined ? undefined : { unitPrice: Number(unit), quantity: Number(quantity), amount: cents / 100 };
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

/**
 * The parts of an order's value, each as the payload states it (in cents; absent when the payload
 * has none): the platform's total, the lines' sum, and the order-level discounts, delivery fee,
 * service charge and other charges. The lines' sum alone is not what the customer paid when the
 * order has a coupon or a fee, so the order page names every part instead of one "order value".
 */
export interface OrderValueParts {
  payloadTotal?: number;
  linesSum?: number;
  discounts?: number;
  deliveryFee?: number;
  serviceCharge?: number;
  otherCharges?: number;
}

/** The sum of `amount` over the entries of a list (or of one object), in cents; undefined when none has one. */
function amountsCents(value: unknown): number | undefined {
  const entries = Array.isArray(value) ? value : value === undefined ? [] : [value];
  let cents: number | undefined;
  for (const entry of entries) {
    const amount = isObj(entry) ? num(entry.amount) : undefined;
    if (amount !== undefined) cents = (cents ?? 0) + toCents(amount);
  }
  return cents;
}

export function orderValueParts(payload: unknown): OrderValueParts {
  const total = isObj(payload) && isObj(payload.total) ? payload.total : undefined;
  const sent = total ? num(total.orderAmount) : undefined;
  const order = isObj(payload) && isObj(payload.order) ? payload.order : undefined;
  const found: [keyof OrderValueParts, number | undefined][] = [
    ['payloadTotal', sent === undefined ? undefined : toCents(sent)],
    ['linesSum', linesTotalCents(payload)],
    ['discounts', amountsCents(order?.discounts)],
    ['deliveryFee', amountsCents(order?.deliveryFee)],
    ['serviceCharge', amountsCents(order?.serviceCharge)],
    ['otherCharges', amountsCents(order?.otherCharges)],
  ];
  const parts: OrderValueParts = {};
  for (const [part, cents] of found) if (cents !== undefined) parts[part] = cents;
  return parts;
}
