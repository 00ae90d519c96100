/**
 * ISO 8601 date-times as exact instants. `Date` keeps milliseconds only, but PostgreSQL
 * stores microseconds: a bound parsed through `Date` would move an inclusive filter by up
 * to 999 µs. Here an instant is a count of nanoseconds since the Unix epoch (a BigInt),
 * rounded to microseconds in the direction that keeps an inclusive bound exact.
 */

const NS_PER_US = 1000n;
const NS_PER_SECOND = 1_000_000_000n;
export const US_PER_DAY = 86_400_000_000n;

// Date, then T (or t, or a space), then hh:mm[:ss[.fraction]], then an optional zone (Z or ±hh:mm / ±hhmm).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

export const ISO_DATE_TIME_RULE =
  'must be an ISO 8601 date-time such as 2026-11-21T00:00:00Z or 2026-11-21T00:00:00.000-03:00 (no zone means UTC; years 0001 to 9999; at most 9 fractional digits)';

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The calendar date of a day count since 1970-01-01 (H. Hinnant's civil_from_days). */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

function daysInMonth(year: number, month: number): number {
  return daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1);
}

const FIRST_NS = BigInt(daysFromCivil(1, 1, 1)) * 86_400n * NS_PER_SECOND;
const END_NS = BigInt(daysFromCivil(10_000, 1, 1)) * 86_400n * NS_PER_SECOND;

/**
 * Nanoseconds since the epoch of an ISO 8601 date-time, or undefined when the text is not
 * one (wrong shape, impossible date such as 2026-02-30, hour 24, leap second, or outside
 * the years 0001 to 9999 once the zone is applied). Without a zone the time is UTC.
 */
export function parseIsoDateTime(text: unknown): bigint | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, offsetHours = '0', offsetMinutes = '0'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
  const offsetSeconds = zulu || !sign ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60);
  const seconds = BigInt(daysFromCivil(year, month, day)) * 86_400n + BigInt(hour * 3600 + minute * 60 + second - offsetSeconds);
  const ns = seconds * NS_PER_SECOND + BigInt(fraction.padEnd(9, '0'));
  if (ns < FIRST_NS || ns >= END_NS) return undefined;
  return ns;
}

export function isIsoDateTime(text: unknown): boolean {
  return parseIsoDateTime(text) !== undefined;
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

/** Microseconds, rounded down: the last stored instant that is <= the given one. */
export function floorToMicros(ns: bigint): bigint {
  return floorDiv(ns, NS_PER_US);
}

/** Microseconds, rounded up: the first stored instant that is >= the given one. */
export function ceilToMicros(ns: bigint): bigint {
  return -floorDiv(-ns, NS_PER_US);
}

/** Days since the epoch of the UTC day holding an instant in microseconds. */
export function utcDayOf(us: bigint): bigint {
  return floorDiv(us, US_PER_DAY);
}

/** `YYYY-MM-DD` of a day count since the epoch. */
export function formatUtcDay(days: bigint): string {
  const { year, month, day } = civilFromDays(Number(days));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` of an instant in microseconds: what PostgreSQL reads back exactly. */
export function formatMicrosUtc(us: bigint): string {
  const days = utcDayOf(us);
  const inDay = us - days * US_PER_DAY;
  const seconds = inDay / 1_000_000n;
  const micros = inDay % 1_000_000n;
  const hh = seconds / 3600n;
  const mm = (seconds % 3600n) / 60n;
  const ss = seconds % 60n;
  const two = (value: bigint) => String(value).padStart(2, '0');
  return `${formatUtcDay(days)}T${two(hh)}:${two(mm)}:${two(ss)}.${String(micros).padStart(6, '0')}Z`;
}
