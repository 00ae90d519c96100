import { writtenNumberText } from '../common/exact-integers.js';
import type { ErrorDetail } from '../common/errors/api-error.js';
import { isPlainObject } from '../common/plain-object.js';
import { decimalText, exactCents, isBeyondTextDigits, sameDecimal, TEXT_DIGITS_PROBLEM, toCents } from '../tax-engine/money.js';

type Key = string | number;
type Obj = Record<string, unknown>;

/**
 * Whether the text a number was read from could name other cents than the number itself: cents
 * change only at half cents, and a JSON number lies within half a unit in the last place of its
 * text (at most 1.2e-7 cent below R$ 10 million, counting the product by 100 too). A number farther
 * than a millionth of a cent from a half cent has the cents of its text; only the others (and every
 * amount from R$ 10 million up) are compared with the text they were written with.
 */
function nearHalfCent(value: number): boolean {
  const cents = Math.abs(value) * 100;
  if (cents >= 1e9) return true;
  return Math.abs(cents - Math.floor(cents) - 0.5) < 1e-6;
}

export const AMOUNT_PRECISION_RULE =
  'is beyond exact precision: an amount must keep every cent as a JSON number (at most 15 significant digits, up to 9999999999999.99)';
export const PER_UNIT_PRECISION_RULE =
  'is beyond exact precision: a unit price or quantity must be a JSON number that keeps every digit it is written with (or numeric text)';

/**
 * Every amount the tax engine reads that it could not tax exactly. Amounts (`price.totalPrice.total`
 * of each line and selected modifier, and `amount` of `order.discounts[i]`, `order.deliveryFee`,
 * `order.serviceCharge`, `order.otherCharges[i]`): cents beyond Number.MAX_SAFE_INTEGER, or a JSON
 * number whose text names other cents than the number JSON.parse made of it (`90071992547409.91` is
 * read as `…409.9`). An item priced per unit (no `price.totalPrice.total`): a unit price or
 * `quantity` whose JSON text is not the decimal the engine multiplies (`2.0000000000000000001` is
 * read as 2). The written text decides: the body parser kept it beside every number it did not read
 * as written (`writtenNumberText`), so the order is never read again as text. See "Amounts beyond
 * exact precision" in docs/api-decisions.md.
 * Each of those values sent as numeric text with more digits than `isBeyondTextDigits` allows, so that
 * the engine's exact product stays small ("Numbers sent as text").
 */
export function amountPrecisionProblems(body: Obj, payloadKeys: Key[]): ErrorDetail[] {
  const check = new PrecisionCheck(payloadKeys);
  const payload = valueAt(body, payloadKeys);
  const order = isPlainObject(payload) ? payload.order : undefined;
  if (!isPlainObject(order)) return check.problems;
  const products = order.products;
  if (Array.isArray(products)) {
    // Plain loops, and nothing allocated for an exact amount: this runs on every order.
    for (let line = 0; line < products.length; line++) {
      const product: unknown = products[line];
      if (!isPlainObject(product)) continue;
      check.item(product, line, -1, -1);
      const groups = product.modifierGroups;
      if (!Array.isArray(groups)) continue;
      for (let group = 0; group < groups.length; group++) {
        const modifierGroup: unknown = groups[group];
        const modifiers = isPlainObject(modifierGroup) ? modifierGroup.selectedModifiers : undefined;
        if (!Array.isArray(modifiers)) continue;
        for (let modifier = 0; modifier < modifiers.length; modifier++) {
          const selected: unknown = modifiers[modifier];
          if (isPlainObject(selected)) check.item(selected, line, group, modifier);
        }
      }
    }
  }
  // The order-level amounts; the request refused a malformed entry before this check.
  check.entries(order.discounts, 'discounts');
  check.entry(order.deliveryFee, ['order', 'deliveryFee', 'amount']);
  check.entry(order.serviceCharge, ['order', 'serviceCharge', 'amount']);
  check.entries(order.otherCharges, 'otherCharges');
  return check.problems;
}

const EXACT = 0;
const INEXACT = 1;
/** A number near a half cent: the text it was written with decides. */
const NEAR_HALF_CENT = 2;
const NOT_AN_AMOUNT = 3;
/** Numeric text with more digits than the service reads. */
const TOO_MANY_DIGITS = 4;
type Verdict = typeof EXACT | typeof INEXACT | typeof NEAR_HALF_CENT | typeof NOT_AN_AMOUNT | typeof TOO_MANY_DIGITS;

function amountVerdict(value: unknown): Verdict {
  if (typeof value === 'number') {
    // The common case first: a finite number below R$ 10 million, away from a half cent, is exact.
    if (!Number.isFinite(value)) return INEXACT;
    return nearHalfCent(value) ? NEAR_HALF_CENT : EXACT;
  }
  const text = decimalText(value);
  if (text === undefined) return NOT_AN_AMOUNT;
  if (isBeyondTextDigits(text)) return TOO_MANY_DIGITS;
  return safeCents(text) === undefined ? INEXACT : EXACT;
}

const TOTAL_KEYS: Key[] = ['price', 'totalPrice', 'total'];
const UNIT_TOTAL_KEYS: Key[] = ['price', 'unitPrice', 'total'];
const UNIT_NUMBER_KEYS: Key[] = ['price', 'unitPrice'];
const ROOT_UNIT_KEYS: Key[] = ['unitPrice'];
const QUANTITY_KEYS: Key[] = ['quantity'];

class PrecisionCheck {
  readonly problems: ErrorDetail[] = [];

  constructor(private readonly payloadKeys: Key[]) {}

  /** A line (`group` -1) or a selected modifier: its amount, or its unit price and quantity. */
  item(item: Obj, line: number, group: number, modifier: number): void {
    const price = item.price;
    const totalPrice = isPlainObject(price) ? price.totalPrice : undefined;
    const total = isPlainObject(totalPrice) ? totalPrice.total : undefined;
    const verdict = amountVerdict(total);
    if (verdict === EXACT) return;
    if (verdict !== NOT_AN_AMOUNT)
      return this.amount(total, verdict, totalPrice as Obj, 'total', itemKeys(line, group, modifier, TOTAL_KEYS));
    this.perUnit(item, isPlainObject(price) ? price : undefined, line, group, modifier);
  }

  /** The `amount` of each entry of `order.discounts` or `order.otherCharges`. */
  entries(list: unknown, name: string): void {
    if (!Array.isArray(list)) return;
    for (let index = 0; index < list.length; index++) this.entry(list[index], ['order', name, index, 'amount']);
  }

  entry(entry: unknown, keys: Key[]): void {
    if (!isPlainObject(entry)) return;
    const verdict = amountVerdict(entry.amount);
    if (verdict !== EXACT && verdict !== NOT_AN_AMOUNT) this.amount(entry.amount, verdict, entry, 'amount', keys);
  }

  /** The amount `holder[key]`, at `keys`, whose verdict is not EXACT. */
  private amount(value: unknown, verdict: Verdict, holder: Obj, key: string, keys: Key[]): void {
    if (verdict === TOO_MANY_DIGITS) return this.refuse(keys, TEXT_DIGITS_PROBLEM);
    if (verdict === NEAR_HALF_CENT && this.writtenCentsMatch(value as number, holder, key)) return;
    this.refuse(keys, AMOUNT_PRECISION_RULE);
  }

  /** Whether the number has the cents of the text it was written with (a number written as read has). */
  private writtenCentsMatch(value: number, holder: Obj, key: string): boolean {
    const text = decimalText(value);
    const cents = text === undefined ? undefined : safeCents(text);
    if (cents === undefined) return false;
    const written = writtenNumberText(holder, key);
    return written === undefined || exactCents(written) === BigInt(cents);
  }

  /**
   * The unit price the engine reads (`price.unitPrice.total`, `price.unitPrice` as a number, else the
   * item's own `unitPrice`) and the `quantity`: the engine multiplies their decimal texts exactly, so
   * each must be the decimal that was sent. A number too large for a double is refused wherever it is.
   */
  private perUnit(item: Obj, price: Obj | undefined, line: number, group: number, modifier: number): void {
    const unitPrice = price?.unitPrice;
    // Where the unit price is: its holder and key, and its keys from the payload's root.
    let [unitHolder, unitKey, unitKeys]: [Obj, string, Key[]] = isPlainObject(unitPrice)
      ? [unitPrice, 'total', UNIT_TOTAL_KEYS]
      : [price ?? item, 'unitPrice', UNIT_NUMBER_KEYS];
    let unit: unknown = isPlainObject(unitPrice) ? unitPrice.total : unitPrice;
    if (decimalText(unit) === undefined) {
      if (isInfinite(unit)) this.refuse(itemKeys(line, group, modifier, unitKeys), PER_UNIT_PRECISION_RULE);
      [unitHolder, unitKey, unitKeys] = [item, 'unitPrice', ROOT_UNIT_KEYS];
      unit = item.unitPrice;
    }
    const quantity = item.quantity;
    const unitText = decimalText(unit);
    const quantityText = decimalText(quantity);
    if (isInfinite(unit)) this.refuse(itemKeys(line, group, modifier, unitKeys), PER_UNIT_PRECISION_RULE);
    if (isInfinite(quantity)) this.refuse(itemKeys(line, group, modifier, QUANTITY_KEYS), PER_UNIT_PRECISION_RULE);
    // Without both, the engine multiplies nothing (MISSING_AMOUNT); text is taken digit for digit, up to its bounds.
    if (unitText === undefined || quantityText === undefined) return;
    if (typeof unit === 'number') this.sentAsRead(unit, unitHolder, unitKey, itemKeys(line, group, modifier, unitKeys));
    else if (isBeyondTextDigits(unitText)) this.refuse(itemKeys(line, group, modifier, unitKeys), TEXT_DIGITS_PROBLEM);
    if (typeof quantity === 'number') this.sentAsRead(quantity, item, 'quantity', itemKeys(line, group, modifier, QUANTITY_KEYS));
    else if (isBeyondTextDigits(quantityText)) this.refuse(itemKeys(line, group, modifier, QUANTITY_KEYS), TEXT_DIGITS_PROBLEM);
  }

  /** The number `holder[key]`, at `keys`, must be the decimal it was written as. */
  private sentAsRead(value: number, holder: Obj, key: string, keys: Key[]): void {
    const written = writtenNumberText(holder, key);
    if (written !== undefined && !sameDecimal(written, decimalText(value)!)) this.refuse(keys, PER_UNIT_PRECISION_RULE);
  }

  private refuse(keys: Key[], problem: string): void {
    this.problems.push({ field: pathText([...this.payloadKeys, ...keys]), problem });
  }
}

function isInfinite(value: unknown): boolean {
  return typeof value === 'number' && !Number.isFinite(value);
}

/** Cents of a decimal text when they are a safe integer (the engine's own reading, without decimal.js). */
function safeCents(text: string): number | undefined {
  try {
    const { cents } = toCents(text);
    return Number.isSafeInteger(cents) ? cents : undefined;
  } catch {
    return undefined; // the whole part alone is past 2^53 cents
  }
}

function valueAt(root: unknown, keys: Key[]): unknown {
  let node = root;
  for (const key of keys) node = isPlainObject(node) || Array.isArray(node) ? (node as Record<Key, unknown>)[key] : undefined;
  return node;
}

/** The keys of a value of a line (`group` -1) or of a selected modifier, from the payload's root. */
function itemKeys(line: number, group: number, modifier: number, keys: Key[]): Key[] {
  return group < 0
    ? ['order', 'products', line, ...keys]
    : ['order', 'products', line, 'modifierGroups', group, 'selectedModifiers', modifier, ...keys];
}

/** `order.products[0].price.totalPrice.total`, as the engine's warnings name paths. */
function pathText(keys: Key[]): string {
  let path = '';
  for (const key of keys) path += typeof key === 'number' ? `[${key}]` : path === '' ? key : `.${key}`;
  return path;
}
