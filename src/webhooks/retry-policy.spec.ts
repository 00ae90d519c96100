import { MAX_RETRY_AFTER_MS, nextRetryDelay, parseRetryAfter, pollIntervalFor } from './retry-policy.js';

describe('retry policy', () => {
  const schedule = [5_000, 300_000, 1_800_000];

  it('follows the schedule and stops after its last delay', () => {
    expect(nextRetryDelay(0, schedule)).toBe(5_000);
    expect(nextRetryDelay(1, schedule)).toBe(300_000);
    expect(nextRetryDelay(2, schedule)).toBe(1_800_000);
    expect(nextRetryDelay(3, schedule)).toBeUndefined();
  });

  it('waits for Retry-After when it asks for longer, never shorter', () => {
    expect(nextRetryDelay(0, schedule, 60_000)).toBe(60_000);
    expect(nextRetryDelay(1, schedule, 60_000)).toBe(300_000);
    expect(nextRetryDelay(3, schedule, 60_000)).toBeUndefined();
  });

  it('reads Retry-After as seconds or as an HTTP date, capped at a day', () => {
    const now = Date.parse('2026-11-21T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 21 Nov 2026 12:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sat, 21 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('99999999', now)).toBe(MAX_RETRY_AFTER_MS);
    for (const unreadable of [undefined, null, '', 'soon', '-5', '1.5', '2026-11-21T12:00:30Z']) {
      expect(parseRetryAfter(unreadable, now)).toBeUndefined();
    }
  });

  it('polls at a quarter of the shortest delay, between 20 ms and 1 s', () => {
    expect(pollIntervalFor([5_000, 300_000])).toBe(1000);
    expect(pollIntervalFor([100, 100])).toBe(25);
    expect(pollIntervalFor([10, 1000])).toBe(20);
  });
});
