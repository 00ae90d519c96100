import { Temporal } from 'temporal-polyfill';

/**
 * The one reader of the dates and date-times clients send, on every route: `createdFrom` and
 * `createdTo` of `GET /admin/orders`, `startDate` and `endDate` of `GET /api/order/infoPayments`,
 * the SPECIAL dates of `POST /v3/channels-stores`, an order's `createdAt` (which must also carry
 * its offset: `parseOffsetDateTime`). The grammar (see docs/libraries.md):
 *
 * - date: `YYYY-MM-DD`, years 0001 to 9999;
 * - date-time: a date, `T` (or `t`, or a space), `hh:mm`, optionally `:ss` and a fraction of 1 to 9
 *   digits after `.` or `,`, then optionally a zone: `Z` (or `z`), `±hh:mm` or `±hhmm`, at most
 *   14:00 either way (the range of real zones, and XML Schema's); without a zone the time is UTC.
 *
 * Refused: hour 24, leap seconds, basic format (`20261121T…`), week or ordinal dates, offsets with
 * seconds or beyond ±14:00, zone annotations (`[Europe/Paris]`), years outside 0001–9999 once the
 * zone is applied. This pattern sets what is accepted; Temporal (temporal-polyfill) checks the
 * calendar (2026-02-30) and turns the text into nanoseconds since the epoch.
 *
 * `Date` keeps milliseconds only, but PostgreSQL stores microseconds: an instant here is a count of
 * nanoseconds (a BigInt), rounded to microseconds in the direction that keeps an inclusive bound exact.
 */
const SHAPE = /^(\d{4}-\d{2}-\d{2})(?:[Tt ]((?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:[.,]\d{1,9})?)?)([Zz]|[+-]\d{2}:?\d{2})?)?$/;

/** The end of a text of the grammar whose offset is written as RFC 3339 writes it (no time ends so without one). */
const RFC3339_OFFSET = /(?:[Zz]|[+-]\d{2}:\d{2})$/;

/** The largest UTC offset accepted, either way. */
export const MAX_OFFSET_MINUTES = 14 * 60;

const NS_PER_US = 1000n;
export const US_PER_DAY = 86_400_000_000n;
const FIRST_NS = Temporal.Instant.from('0001-01-01T00:00:00Z').epochNanoseconds;
const END_NS = Temporal.Instant.from('9999-12-31T23:59:59.999999999Z').epochNanoseconds + 1n;
const EPOCH_DAY = Temporal.PlainDate.from('1970-01-01');

const ZONE_RULE = 'no zone means UTC; offsets from -14:00 to +14:00';
export const ISO_DATE_TIME_RULE = `must be an ISO 8601 date-time such as 2026-11-21T00:00:00Z or 2026-11-21T00:00:00.000-03:00 (${ZONE_RULE}; years 0001 to 9999; at most 9 fractional digits)`;
export const ISO_DATE_OR_DATE_TIME_RULE = `must be an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ; ${ZONE_RULE})`;
export const ISO_DATE_RULE = 'must be a date YYYY-MM-DD';

/**
 * Date filters (`createdFrom`/`createdTo`, `startDate`/`endDate`) count whole UTC days and the
 * day after a bound: the last day of year 9999 is refused there, because its next midnight falls
 * in year 10000, which the service cannot write back. See "Date filters end on 9999-12-30" in
 * docs/api-decisions.md.
 */
const FILTER_END_NS = Temporal.Instant.from('9999-12-31T00:00:00Z').epochNanoseconds;
export const FILTER_RANGE_RULE = 'must lie from 0001-01-01T00:00:00Z to 9999-12-30T23:59:59.999999999Z (dates 0001-01-01 to 9999-12-30)';

/** A date or date-time a date filter accepts: undefined (not a date: the grammar's rule applies) counts as inside. */
export function withinFilterRange(text: unknown): boolean {
  const instant = readIsoInstant(text);
  return instant === undefined || instant.epochNs < FILTER_END_NS;
}

export interface IsoInstant {
  /** Nanoseconds since 1970-01-01T00:00:00Z; a date alone is its midnight UTC. */
  epochNs: bigint;
  dateOnly: boolean;
}

/** A date or a date-time of the grammar above, or undefined when the text is not one. */
export function readIsoInstant(text: unknown): IsoInstant | undefined {
  if (typeof text !== 'string') return undefined;
  const match = SHAPE.exec(text);
  if (!match) return undefined;
  const [, date, time, zone] = match;
  if (zone !== undefined && zone.length > 1) {
    const digits = zone.replace(':', '');
    if (Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5)) > MAX_OFFSET_MINUTES) return undefined;
  }
  let epochNs: bigint;
  try {
    epochNs = Temporal.Instant.from(time === undefined ? `${date}T00:00Z` : zone === undefined ? `${text}Z` : text).epochNanoseconds;
  } catch {
    return undefined; // a day the calendar does not have (2026-02-30), or offset minutes over 59
  }
  if (epochNs < FIRST_NS || epochNs >= END_NS) return undefined;
  return { epochNs, dateOnly: time === undefined };
}

/** Nanoseconds since the epoch of a date-time (a date alone is refused), or undefined. */
export function parseIsoDateTime(text: unknown): bigint | undefined {
  const instant = readIsoInstant(text);
  return instant && !instant.dateOnly ? instant.epochNs : undefined;
}

/**
 * Nanoseconds since the epoch of a date-time that writes its UTC offset as RFC 3339 (and so OpenAPI's `date-time`)
 * requires, `Z` or `±hh:mm`, or undefined. For a text from a sender whose zone is unknown (an order's `createdAt`): a
 * local time without an offset names no instant, and reading it as UTC would move it by the sender's offset.
 */
export function parseOffsetDateTime(text: unknown): bigint | undefined {
  return typeof text === 'string' && RFC3339_OFFSET.test(text) ? parseIsoDateTime(text) : undefined;
}

export function isIsoDateTime(text: unknown): boolean {
  return parseIsoDateTime(text) !== undefined;
}

/** A calendar date `YYYY-MM-DD` alone. */
export function isIsoDate(text: unknown): boolean {
  return readIsoInstant(text)?.dateOnly === true;
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

/** `YYYY-MM-DD` of a day count since the epoch (year 10000 as `10000-01-01`, as PostgreSQL reads it). */
export function formatUtcDay(days: bigint): string {
  const { year, month, day } = EPOCH_DAY.add({ days: Number(days) });
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** `YYYY-MM-DDTHH:MM:SS.ffffffZ` of an instant in microseconds (years 0001 to 9999): what PostgreSQL reads back exactly. */
export function formatMicrosUtc(us: bigint): string {
  return Temporal.Instant.fromEpochNanoseconds(us * NS_PER_US).toString({ fractionalSecondDigits: 6 });
}
