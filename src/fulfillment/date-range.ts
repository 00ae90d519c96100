import type { ErrorDetail } from '../common/errors/api-error.js';
import {
  ceilToMicros,
  FILTER_RANGE_RULE,
  floorToMicros,
  ISO_DATE_OR_DATE_TIME_RULE,
  readIsoInstant,
  US_PER_DAY,
  withinFilterRange,
} from '../common/iso-date-time.js';

export const MAX_RANGE_DAYS = 93;
const NS_PER_DAY = US_PER_DAY * 1000n;

/** The creation-time window of a query, in microseconds since the epoch: `created_at >= start` and `created_at <= end` (or `< end` when `endExclusive`). */
export interface CreatedWindow {
  startUs: bigint;
  endUs: bigint;
  endExclusive: boolean;
}

/**
 * `startDate` and `endDate` of `GET /api/order/infoPayments` (dates or date-times, read by the
 * service's one ISO 8601 reader): both valid, start <= end and at most 93 days apart. A date alone
 * as `endDate` includes that whole day (UTC): the start may be any instant before its end, and the
 * 93 days are counted to the date's midnight, as sent (2025-01-01 to 2025-04-04 is 93 days, and the
 * window also holds the whole of 2025-04-04). Returns the window, rounded to the stored microseconds
 * so that inclusive bounds stay exact, or every problem found.
 */
export function paymentsWindow(startText: string, endText: string): { window?: CreatedWindow; problems: ErrorDetail[] } {
  const start = readIsoInstant(startText);
  const end = readIsoInstant(endText);
  const problems: ErrorDetail[] = [];
  if (!start) problems.push({ field: 'startDate', problem: ISO_DATE_OR_DATE_TIME_RULE });
  if (!end) problems.push({ field: 'endDate', problem: ISO_DATE_OR_DATE_TIME_RULE });
  if (!start || !end) return { problems };
  if (!withinFilterRange(startText)) problems.push({ field: 'startDate', problem: FILTER_RANGE_RULE });
  if (!withinFilterRange(endText)) problems.push({ field: 'endDate', problem: FILTER_RANGE_RULE });
  if (problems.length > 0) return { problems };
  // Start and end are compared on the window's own end: a date's midnight would refuse a start later that same day.
  const windowEndNs = end.dateOnly ? end.epochNs + NS_PER_DAY : end.epochNs;
  const afterEnd = end.dateOnly ? start.epochNs >= windowEndNs : start.epochNs > windowEndNs;
  if (afterEnd) problems.push({ field: 'startDate', problem: 'must not be later than endDate' });
  else if (end.epochNs - start.epochNs > BigInt(MAX_RANGE_DAYS) * NS_PER_DAY) {
    problems.push({ field: 'endDate', problem: `must be at most ${MAX_RANGE_DAYS} days after startDate` });
  }
  if (problems.length > 0) return { problems };
  return { window: { startUs: ceilToMicros(start.epochNs), endUs: floorToMicros(windowEndNs), endExclusive: end.dateOnly }, problems };
}
