import { isLosslessNumber, parse } from 'lossless-json';
import type { ErrorDetail } from '../common/errors/api-error.js';
import { isPlainObject } from '../common/plain-object.js';
import { decimalText, exactCents, toCents } from '../tax-engine/money.js';

type Key = string | number;

/**
 * Whether the text a number was read from could name other cents than the number itself: cents
 * change only at half cents, and a JSON number lies within half a unit in the last place of its
 * text (at most 1.2e-7 cent below R$ 10 million, counting the product by 100 too). A number farther
 * than a millionth of a cent from a half cent has the cents of its text; only the others (and every
 * amount from R$ 10 million up) are compared with the received text, parsed again without loss.
 */
function nearHalfCent(value: number): boolean {
  const cents = Math.abs(value) * 100;
  if (cents >= 1e9) return true;
  return Math.abs(cents - Math.floor(cents) - 0.5) < 1e-6;
}

export const AMOUNT_PRECISION_RULE =
  'is beyond exact precision: an amount must keep every cent as a JSON number (at most 15 significant digits, up to 9999999999999.99)';

/**
 * Every amount the tax engine reads (`price.totalPrice.total` of each line and selected modifier)
 * that it could not tax exactly: cents beyond Number.MAX_SAFE_INTEGER, or a JSON number whose text
 * names other cents than the number JSON.parse made of it (`90071992547409.91` is read as
 * `…409.9`). The received text decides, read again with lossless-json only for an amount near a
 * half cent. See "Amounts beyond exact precision" in docs/api-decisions.md.
 */
export function amountPrecisionProblems(body: Record<string, unknown>, payloadKeys: Key[], rawText: string | undefined): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  let lossless: { tree: unknown } | undefined;
  visitAmounts(valueAt(body, payloadKeys), (value, at) => {
    let exact: boolean;
    if (typeof value === 'number') {
      // The common case first: a finite number below R$ 10 million, away from a half cent, is exact.
      exact = Number.isFinite(value) && (!nearHalfCent(value) || exactNearHalfCent(value, at));
    } else {
      const text = decimalText(value);
      if (text === undefined) return; // not an amount: the engine warns MISSING_AMOUNT
      exact = safeCents(text) !== undefined;
    }
    if (!exact) problems.push({ field: `${payloadKeys.map((key) => `${key}.`).join('')}${pathOf(at)}`, problem: AMOUNT_PRECISION_RULE });
  });
  return problems;

  function exactNearHalfCent(value: number, at: AmountAt): boolean {
    const text = decimalText(value);
    const cents = text === undefined ? undefined : safeCents(text);
    if (cents === undefined) return false;
    if (rawText === undefined) return true;
    lossless ??= { tree: readLossless(rawText) };
    const received = valueAt(lossless.tree, [...payloadKeys, ...keysOf(at)]);
    return !isLosslessNumber(received) || exactCents(received.value) === BigInt(cents);
  }
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

function readLossless(rawText: string): unknown {
  try {
    return parse(rawText);
  } catch {
    return undefined; // JSON.parse took it (duplicate keys, which lossless-json refuses): judged on the parsed value
  }
}

function valueAt(root: unknown, keys: Key[]): unknown {
  let node = root;
  for (const key of keys) node = isPlainObject(node) || Array.isArray(node) ? (node as Record<Key, unknown>)[key] : undefined;
  return node;
}

/** Where an amount is: its line, and its modifier group and modifier for a selected modifier's (else -1). */
interface AmountAt {
  line: number;
  group: number;
  modifier: number;
}

const AMOUNT_KEYS: Key[] = ['price', 'totalPrice', 'total'];

function keysOf({ line, group, modifier }: AmountAt): Key[] {
  const lineKeys: Key[] = ['order', 'products', line];
  return group < 0 ? [...lineKeys, ...AMOUNT_KEYS] : [...lineKeys, 'modifierGroups', group, 'selectedModifiers', modifier, ...AMOUNT_KEYS];
}

function pathOf({ line, group, modifier }: AmountAt): string {
  const item = group < 0 ? `order.products[${line}]` : `order.products[${line}].modifierGroups[${group}].selectedModifiers[${modifier}]`;
  return `${item}.price.totalPrice.total`;
}

function amountOf(item: unknown): unknown {
  const price = isPlainObject(item) ? item.price : undefined;
  const totalPrice = isPlainObject(price) ? price.totalPrice : undefined;
  return isPlainObject(totalPrice) ? totalPrice.total : undefined;
}

/** Each amount the tax engine reads, as it walks the order (plain loops: this runs on every order). */
function visitAmounts(payload: unknown, visit: (value: unknown, at: AmountAt) => void): void {
  const order = isPlainObject(payload) ? payload.order : undefined;
  const products = isPlainObject(order) ? order.products : undefined;
  if (!Array.isArray(products)) return;
  for (let line = 0; line < products.length; line++) {
    const product: unknown = products[line];
    visit(amountOf(product), { line, group: -1, modifier: -1 });
    const groups = isPlainObject(product) ? product.modifierGroups : undefined;
    if (!Array.isArray(groups)) continue;
    for (let group = 0; group < groups.length; group++) {
      const modifierGroup: unknown = groups[group];
      const modifiers = isPlainObject(modifierGroup) ? modifierGroup.selectedModifiers : undefined;
      if (!Array.isArray(modifiers)) continue;
      for (let modifier = 0; modifier < modifiers.length; modifier++) visit(amountOf(modifiers[modifier]), { line, group, modifier });
    }
  }
}
