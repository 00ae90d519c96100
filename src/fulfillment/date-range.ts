import type { ErrorDetail } from '../common/errors/api-error.js';

export const MAX_RANGE_DAYS = 93;
const DAY_MS = 86_400_000;

export interface ParsedDate {
  /** The instant the text names; a date alone is its midnight UTC. */
  instant: Date;
  dateOnly: boolean;
}

const PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * An ISO 8601 calendar date (`2025-11-21`) or date-time (`2025-11-21T10:30:00Z`, with an offset
 * or without one, then UTC). Impossible dates (`2025-02-30`) and times are refused.
 */
export function parseIsoDate(text: string): ParsedDate | undefined {
  const match = PATTERN.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction, zone] = match;
  const y = Number(year);
  const m = Number(month);
  const d = Number(day);
  const midnight = new Date(Date.UTC(y, m - 1, d));
  if (midnight.getUTCFullYear() !== y || midnight.getUTCMonth() !== m - 1 || midnight.getUTCDate() !== d) return undefined;
  if (hour === undefined) return { instant: midnight, dateOnly: true };
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second ?? 0) > 59) return undefined;
  let offsetMinutes = 0;
  if (zone && zone.toUpperCase() !== 'Z') {
    const digits = zone.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5));
    if (hours > 14 || minutes > 59) return undefined;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
  }
  const millis = Number(((fraction ?? '') + '000').slice(0, 3));
  const utc = Date.UTC(y, m - 1, d, Number(hour), Number(minute), Number(second ?? 0), millis) - offsetMinutes * 60_000;
  return { instant: new Date(utc), dateOnly: false };
}

/** The creation-time window of a query: `created_at >= start` and `created_at <= end` (or `< end` when `endExclusive`). */
export interface CreatedWindow {
  start: Date;
  end: Date;
  endExclusive: boolean;
}

/**
 * `startDate` and `endDate` of `GET /api/order/infoPayments`: both valid, start <= end and at most
 * 93 days apart (measured between the values as sent). A date alone as `endDate` includes that
 * whole day (UTC). Returns the window, or every problem found.
 */
export function paymentsWindow(startText: string, endText: string): { window?: CreatedWindow; problems: ErrorDetail[] } {
  const start = parseIsoDate(startText);
  const end = parseIsoDate(endText);
  const problems: ErrorDetail[] = [];
  const format = 'must be an ISO 8601 date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ)';
  if (!start) problems.push({ field: 'startDate', problem: format });
  if (!end) problems.push({ field: 'endDate', problem: format });
  if (!start || !end) return { problems };
  const span = end.instant.getTime() - start.instant.getTime();
  if (span < 0) problems.push({ field: 'startDate', problem: 'must not be later than endDate' });
  else if (span > MAX_RANGE_DAYS * DAY_MS) {
    problems.push({ field: 'endDate', problem: `must be at most ${MAX_RANGE_DAYS} days after startDate` });
  }
  if (problems.length > 0) return { problems };
  return end.dateOnly
    ? { window: { start: start.instant, end: new Date(end.instant.getTime() + DAY_MS), endExclusive: true }, problems }
    : { window: { start: start.instant, end: end.instant, endExclusive: false }, problems };
}
