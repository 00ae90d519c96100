import { Decimal } from 'decimal.js';

/**
 * Exact money arithmetic in integer minor units: amounts are integer cents, rates are
 * integer ten-thousandths of a percent (18.5 % → 185000). No binary floating point
 * touches a money value: the product base × rate is computed in BigInt and rounded
 * half-up to cents.
 */

export type Cents = number;
/** A rate in units of 0.0001 % (ICMS 18 % → 180000). */
export type RateUnits = number;

const RATE_SCALE = 10_000n;
/** base (cents) × rate (units of 1e-4 %) / 100 % / 1e4 → cents. */
const PRODUCT_DIVISOR = 100n * RATE_SCALE;

/** Canonical decimal text of a JSON number or numeric string, or undefined if it is not one. */
export function decimalText(value: unknown): string | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    const text = String(value);
    return /e/i.test(text) ? new Decimal(text).toFixed() : text;
  }
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return value.trim();
  return undefined;
}

/**
 * Numeric text is read with at most this many digits before the decimal point, and after it: an exact
 * product of two texts costs the product of their lengths, and a client may send text of any length.
 * See "Numbers sent as text" in docs/api-decisions.md.
 */
export const MAX_TEXT_WHOLE_DIGITS = 20;
export const MAX_TEXT_DECIMALS = 30;
/** The problem of numeric text beyond those bounds, to follow its path. */
export const TEXT_DIGITS_PROBLEM = `has more digits than numeric text may have: at most ${MAX_TEXT_WHOLE_DIGITS} before the decimal point and ${MAX_TEXT_DECIMALS} after it`;

/** Whether a decimal text (as `decimalText` gives it) has more digits than those bounds; a short text is not scanned. */
export function isBeyondTextDigits(text: string): boolean {
  if (text.length <= MAX_TEXT_WHOLE_DIGITS) return false;
  const point = text.indexOf('.');
  const whole = (point < 0 ? text.length : point) - (text.charCodeAt(0) === 45 ? 1 : 0); // '-'
  return whole > MAX_TEXT_WHOLE_DIGITS || (point >= 0 && text.length - point - 1 > MAX_TEXT_DECIMALS);
}

/** Cents of a decimal text, rounded half-up when it has more than 2 decimals; `rounded` says whether it had. */
export function toCents(text: string): { cents: Cents; rounded: boolean } {
  const negative = text.charCodeAt(0) === 45; // '-'
  const digits = negative ? text.slice(1) : text;
  const point = digits.indexOf('.');
  const whole = point < 0 ? digits : digits.slice(0, point);
  const fraction = point < 0 ? '' : digits.slice(point + 1);
  // Integer arithmetic on Numbers is exact below 2^53: that is amounts up to 90 trillion reais.
  let cents = wholeUnits(whole, 100) + Number((fraction + '00').slice(0, 2));
  const rest = fraction.slice(2);
  const rounded = /[1-9]/.test(rest);
  if (rest.length > 0 && rest.charCodeAt(0) >= 53) cents += 1; // third decimal >= '5'
  return { cents: negative ? -cents : cents, rounded };
}

/** Below this many cents (100 billion reais) a number with at most 2 decimals prints as those digits (see `plainCents`). */
const PLAIN_CENTS_LIMIT = 1e13;

/**
 * `toCents(decimalText(value)).cents` for a number that has at most 2 decimals, a non-negative number of
 * cents below 100 billion reais, without the text; undefined for any other number (the caller takes the
 * text's way). Such a number is the double nearest to cents / 100, and its shortest text, which `String`
 * gives, is that decimal: another decimal of at most 13 digits is at least 1e-13 of the value away, far
 * more than the half unit in the last place that would still round to the same double.
 */
export function plainCents(value: number): Cents | undefined {
  const cents = Math.round(value * 100);
  // `+ 0` turns -0 into 0, as the text of -0 ("0") would.
  return cents / 100 === value && cents >= 0 && cents < PLAIN_CENTS_LIMIT ? cents + 0 : undefined;
}

function wholeUnits(whole: string, scale: number): number {
  const units = Number(whole) * scale;
  if (!Number.isSafeInteger(units)) throw new RangeError(`amount ${whole} is too large`);
  return units;
}

/** Rate units of a validated rate (0..100, at most 4 decimals). */
export function toRateUnits(rate: number): RateUnits {
  const text = decimalText(rate)!;
  const point = text.indexOf('.');
  if (point < 0) return Number(text) * 10_000;
  return Number(text.slice(0, point)) * 10_000 + Number((text.slice(point + 1) + '0000').slice(0, 4));
}

const SAFE_DIVISOR = Number(PRODUCT_DIVISOR);

/** round(base × rate / 100, 2), half-up, for a non-negative base. */
export function percentOf(base: Cents, rate: RateUnits): Cents {
  const product = base * rate;
  if (Number.isSafeInteger(product)) {
    // Both operands are integers and the product is exact: integer division by the remainder.
    const remainder = product % SAFE_DIVISOR;
    const quotient = (product - remainder) / SAFE_DIVISOR;
    return remainder * 2 >= SAFE_DIVISOR ? quotient + 1 : quotient;
  }
  const exact = BigInt(base) * BigInt(rate);
  const quotient = exact / PRODUCT_DIVISOR;
  return Number((exact % PRODUCT_DIVISOR) * 2n >= PRODUCT_DIVISOR ? quotient + 1n : quotient);
}

/** Cents as a JSON number with at most 2 decimals (cents / 100 is the double nearest to that decimal). */
export function toMoney(cents: Cents): number {
  return cents / 100;
}

/** Rate units back to the percent number the rule carried. */
export function toRate(units: RateUnits): number {
  return units / 10_000;
}

/** Every digit of an amount's text is kept: multiplying by 100 only moves the point. */
const ExactDecimal = Decimal.clone({ precision: 1e9 });
const MAX_SAFE_CENTS = new ExactDecimal(Number.MAX_SAFE_INTEGER);

/**
 * Cents of any JSON number's text (exponents too), rounded half-up as `toCents` rounds, computed
 * on the text itself; undefined when they are not a safe integer (beyond 90071992547409.91).
 */
export function exactCents(text: string): bigint | undefined {
  let cents: Decimal;
  try {
    cents = new ExactDecimal(text).times(100).toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  } catch {
    return undefined;
  }
  return cents.abs().lte(MAX_SAFE_CENTS) ? BigInt(cents.toFixed()) : undefined;
}

/**
 * round(a × b, 2) half-up in cents, computed on the texts exactly; undefined when not a safe integer of
 * cents. The texts are within `isBeyondTextDigits`'s bounds or a number's: the product stays small.
 */
export function productCents(a: string, b: string): Cents | undefined {
  return safeRoundedCents(new ExactDecimal(a).times(b).times(100));
}

/**
 * round(cents × factor) half-up, exactly on the factor's text (within the same bounds): rounded once,
 * on the whole product. Undefined when not a safe integer.
 */
export function centsTimes(cents: Cents, factor: string): Cents | undefined {
  return safeRoundedCents(new ExactDecimal(cents).times(factor));
}

function safeRoundedCents(exact: Decimal): Cents | undefined {
  const cents = exact.toDecimalPlaces(0, Decimal.ROUND_HALF_UP);
  // `+ 0` turns the -0 of a factor "-0.000" into 0.
  return cents.abs().lte(MAX_SAFE_CENTS) ? cents.toNumber() + 0 : undefined;
}

/** Whether two decimal texts (exponents too) name the same number, compared on every digit. */
export function sameDecimal(a: string, b: string): boolean {
  try {
    return new ExactDecimal(a).eq(new ExactDecimal(b));
  } catch {
    return false;
  }
}
