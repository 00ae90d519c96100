import { isLosslessNumber, parse } from 'lossless-json';
import type { ErrorDetail } from '../common/errors/api-error.js';
import { isPlainObject } from '../common/plain-object.js';
import { decimalText, exactCents } from '../tax-engine/money.js';

type Key = string | number;

/**
 * A number written with 16 or more digits (and points) in a row: the only kind whose value JSON.parse
 * may change. Cheap enough for every body; only a body holding one is parsed again without loss.
 */
const LONG_NUMBER = /[0-9.]{16,}/;

export const AMOUNT_PRECISION_RULE =
  'is beyond exact precision: an amount must keep every cent as a JSON number (at most 15 significant digits, up to 9999999999999.99)';

/**
 * Every amount the tax engine reads (`price.totalPrice.total` of each line and selected modifier)
 * that it could not tax exactly: cents beyond Number.MAX_SAFE_INTEGER, or a JSON number whose text
 * names other cents than the number JSON.parse made of it (`90071992547409.91` is read as
 * `…409.9`). The received text decides, read again with lossless-json only when it holds a long
 * number. See "Amounts beyond exact precision" in docs/api-decisions.md.
 */
export function amountPrecisionProblems(body: Record<string, unknown>, payloadKeys: Key[], rawText: string | undefined): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const payload = valueAt(body, payloadKeys);
  const prefix = payloadKeys.map((key) => `${key}.`).join('');
  const mayHaveLost = rawText !== undefined && LONG_NUMBER.test(rawText);
  let lossless: { tree: unknown } | undefined;
  for (const { keys, path } of amountsOf(payload)) {
    const value = valueAt(payload, keys);
    const text = decimalText(value);
    // Not an amount (the engine warns MISSING_AMOUNT), unless a number too large for a double (1e400).
    if (text === undefined && typeof value !== 'number') continue;
    const cents = text === undefined ? undefined : exactCents(text);
    let exact = cents !== undefined;
    if (exact && typeof value === 'number' && mayHaveLost) {
      lossless ??= { tree: readLossless(rawText!) };
      const received = valueAt(lossless.tree, [...payloadKeys, ...keys]);
      exact = !isLosslessNumber(received) || exactCents(received.value) === cents;
    }
    if (!exact) problems.push({ field: `${prefix}${path}`, problem: AMOUNT_PRECISION_RULE });
  }
  return problems;
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

/** The paths of the amounts the tax engine reads, as it walks the order. */
function* amountsOf(payload: unknown): Generator<{ keys: Key[]; path: string }> {
  const products = valueAt(payload, ['order', 'products']);
  if (!Array.isArray(products)) return;
  const amount: Key[] = ['price', 'totalPrice', 'total'];
  for (const [line, product] of products.entries()) {
    const lineKeys: Key[] = ['order', 'products', line];
    yield { keys: [...lineKeys, ...amount], path: `order.products[${line}].price.totalPrice.total` };
    const groups = isPlainObject(product) ? product.modifierGroups : undefined;
    if (!Array.isArray(groups)) continue;
    for (const [group, modifierGroup] of groups.entries()) {
      const modifiers = isPlainObject(modifierGroup) ? modifierGroup.selectedModifiers : undefined;
      if (!Array.isArray(modifiers)) continue;
      for (const modifier of modifiers.keys()) {
        yield {
          keys: [...lineKeys, 'modifierGroups', group, 'selectedModifiers', modifier, ...amount],
          path: `order.products[${line}].modifierGroups[${group}].selectedModifiers[${modifier}].price.totalPrice.total`,
        };
      }
    }
  }
}
