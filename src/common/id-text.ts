/**
 * The text an id is compared and stored as. Point-of-sale systems and the platform send ids as
 * strings or as JSON numbers (contract §8, §10), so an id is either a string that is not blank,
 * kept as sent (not trimmed: ids are compared exactly), or a non-negative safe integer, written in
 * decimal. Anything else (a blank string, a negative or fractional number, an object) is not an id.
 * Length limits are the caller's.
 */
export function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return NOT_BLANK.test(value) ? value : undefined;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : undefined;
}

const NOT_BLANK = /\S/;
