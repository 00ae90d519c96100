/**
 * Integers of a JSON text beyond 2^53 (a marketplace's 19-digit order ids) lose digits when JSON.parse makes
 * them numbers. The body parser keeps the exact text of each such integer beside the object or array that holds
 * it, and `exactIdText` reads it back: the parsed value stays a number for every other reader, so nothing
 * changes for a body without such integers. See "Ids past 2^53" in docs/marketplace-profiles.md.
 */

const exactTexts = new WeakMap<object, Map<string, string>>();

/** A run of 16 digits: the cheapest sign that a text may hold an integer past 2^53 (which has at least 16). */
const LONG_DIGIT_RUN = /\d{16}/;

/** Whether `text` may hold an integer JSON.parse cannot keep exactly. */
export function mayHoldUnsafeIntegers(text: string): boolean {
  return LONG_DIGIT_RUN.test(text);
}

interface SourceContext {
  source?: string;
}

/** A JSON.parse reviver that records the source text of every integer past 2^53 by its holder and key. */
function recordUnsafeIntegers(this: unknown, key: string, value: unknown, context?: SourceContext): unknown {
  if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined && /^-?\d+$/.test(context.source)) {
    const holder = this as object;
    let texts = exactTexts.get(holder);
    if (texts === undefined) {
      texts = new Map();
      exactTexts.set(holder, texts);
    }
    texts.set(key, context.source);
  }
  return value;
}

/** JSON.parse, keeping the exact text of integers past 2^53 when the text may hold some. */
export function parseKeepingIntegers(text: string): unknown {
  return mayHoldUnsafeIntegers(text) ? JSON.parse(text, recordUnsafeIntegers as never) : JSON.parse(text);
}

/** The exact source text of the integer at `holder[key]` when it was past 2^53 in the parsed text. */
export function exactIntegerText(holder: object, key: string | number): string | undefined {
  return exactTexts.get(holder)?.get(String(key));
}
