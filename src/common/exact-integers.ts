/**
 * Integers of a JSON text beyond 2^53 (a marketplace's 19-digit order ids) lose digits when JSON.parse makes
 * them numbers. The body parser keeps the exact text of each such integer beside the object or array that holds
 * it, and `exactIntegerText` reads it back: the parsed value stays a number for every other reader, so nothing
 * changes for a body without such integers. See "Ids past 2^53" in docs/marketplace-profiles.md.
 *
 * The same parse keeps the written text of any number JSON.parse did not read as written (`0.0049999999999999999`
 * read as 0.005), which `writtenNumberText` reads back: the check of an order's amounts compares it with the number
 * without reading the body's text again ("Amounts beyond exact precision" in docs/api-decisions.md).
 */

const exactTexts = new WeakMap<object, Map<string, string>>();
const writtenTexts = new WeakMap<object, Map<string, string>>();

/**
 * 16 digits and points in a row, or an exponent of 3 digits: the cheapest sign that a text may hold a number a double
 * does not keep as written. Without either, every number has at most 15 significant digits and lies between 1e-114 and
 * 1e114, which a double holds so that reading it back gives the same decimal; an integer past 2^53 has 16 digits.
 */
const MAY_BE_INEXACT = /[\d.]{16}|\d[eE][-+]?\d{3}/;

/** Whether `text` may hold a number JSON.parse cannot keep exactly (an integer past 2^53 among them). */
export function mayHoldInexactNumbers(text: string): boolean {
  return MAY_BE_INEXACT.test(text);
}

interface SourceContext {
  source?: string;
}

function record(texts: WeakMap<object, Map<string, string>>, holder: object, key: string, source: string): void {
  let held = texts.get(holder);
  if (held === undefined) {
    held = new Map();
    texts.set(holder, held);
  }
  held.set(key, source);
}

/**
 * A JSON.parse reviver that records, by holder and key, the source text of every integer past 2^53 and of every number
 * whose text is not the one JavaScript writes for the number read (a superset of those read as another decimal).
 */
function recordExactTexts(this: unknown, key: string, value: unknown, context?: SourceContext): unknown {
  if (typeof value !== 'number' || context?.source === undefined) return value;
  const source = context.source;
  if (!Number.isSafeInteger(value) && /^-?\d+$/.test(source)) record(exactTexts, this as object, key, source);
  if (source !== String(value)) record(writtenTexts, this as object, key, source);
  return value;
}

/** JSON.parse, keeping the exact text of integers past 2^53 and of numbers not read as written, when the text may hold some. */
export function parseKeepingIntegers(text: string): unknown {
  return mayHoldInexactNumbers(text) ? JSON.parse(text, recordExactTexts as never) : JSON.parse(text);
}

/** The exact source text of the integer at `holder[key]` when it was past 2^53 in the parsed text. */
export function exactIntegerText(holder: object, key: string | number): string | undefined {
  return exactTexts.get(holder)?.get(String(key));
}

/**
 * The text the number at `holder[key]` was written with, when `parseKeepingIntegers` read it and that text is not how
 * JavaScript writes the number (it may name another decimal); undefined when the number is the decimal written, or was
 * not read by that parse.
 */
export function writtenNumberText(holder: object, key: string | number): string | undefined {
  return writtenTexts.get(holder)?.get(String(key));
}
