/** When failed deliveries are tried again. Pure functions over the schedule (WEBHOOK_RETRY_SCHEDULE, in ms). */

/** A receiver's `Retry-After` is honoured up to this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/** `Retry-After` as delay-seconds or an HTTP date, in ms from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  // An HTTP date names a day of the week; bare numbers and ISO text are not HTTP dates.
  if (!/^[A-Za-z]{3},? /.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(at - now, 0), MAX_RETRY_AFTER_MS);
}

/**
 * The delay before retry number `retriesDone + 1`, or undefined when the schedule is
 * exhausted. The receiver's Retry-After wins when it asks for longer.
 */
export function nextRetryDelay(retriesDone: number, schedule: readonly number[], retryAfterMs?: number): number | undefined {
  const planned = schedule[retriesDone];
  if (planned === undefined) return undefined;
  return Math.max(planned, retryAfterMs ?? 0);
}

/** How often an instance looks for due jobs: a quarter of the shortest delay, between 20 ms and 1 s. */
export function pollIntervalFor(schedule: readonly number[]): number {
  const shortest = Math.min(...schedule);
  return Math.min(1000, Math.max(20, Math.floor(shortest / 4)));
}
