import { parseIsoDateTime } from '../common/iso-date-time.js';
import { paymentsWindow } from './date-range.js';

const us = (text: string) => parseIsoDateTime(text)! / 1000n;

describe('paymentsWindow', () => {
  it('includes the whole end day when endDate is a date', () => {
    expect(paymentsWindow('2025-11-01', '2025-11-30')).toEqual({
      window: { startUs: us('2025-11-01T00:00:00Z'), endUs: us('2025-12-01T00:00:00Z'), endExclusive: true },
      problems: [],
    });
  });

  it('uses the instants of date-times, end included, with offsets and no zone meaning UTC', () => {
    expect(paymentsWindow('2025-11-01T03:00:00Z', '2025-11-02T02:59:59Z').window).toEqual({
      startUs: us('2025-11-01T03:00:00Z'),
      endUs: us('2025-11-02T02:59:59Z'),
      endExclusive: false,
    });
    expect(paymentsWindow('2025-11-01T00:00:00-03:00', '2025-11-02T10:30').window).toEqual({
      startUs: us('2025-11-01T03:00:00Z'),
      endUs: us('2025-11-02T10:30:00Z'),
      endExclusive: false,
    });
  });

  it('keeps inclusive bounds exact to the stored microsecond (no longer cut to milliseconds)', () => {
    expect(paymentsWindow('2025-11-01T00:00:00.0000001Z', '2025-11-01T00:00:00.0019999Z').window).toEqual({
      startUs: us('2025-11-01T00:00:00.000001Z'),
      endUs: us('2025-11-01T00:00:00.001999Z'),
      endExclusive: false,
    });
  });

  it('accepts one day (start == end) and exactly 93 days', () => {
    expect(paymentsWindow('2025-01-01', '2025-01-01').problems).toEqual([]);
    // 2025-01-01 + 93 days = 2025-04-04 (31 + 28 + 31 = 90 days to 2025-04-01, + 3)
    expect(paymentsWindow('2025-01-01', '2025-04-04').problems).toEqual([]);
  });

  it('refuses 94 days, and a date-time one nanosecond past 93 days', () => {
    expect(paymentsWindow('2025-01-01', '2025-04-05').problems).toEqual([
      { field: 'endDate', problem: 'must be at most 93 days after startDate' },
    ]);
    expect(paymentsWindow('2025-01-01T00:00:00Z', '2025-04-04T00:00:00.000000001Z').problems).toHaveLength(1);
  });

  it('refuses a start after the end', () => {
    expect(paymentsWindow('2025-02-02', '2025-02-01').problems).toEqual([
      { field: 'startDate', problem: 'must not be later than endDate' },
    ]);
  });

  it('takes a start later on the day of a date end, up to the end of that day', () => {
    expect(paymentsWindow('2025-02-01T00:00:01Z', '2025-02-01')).toEqual({
      window: { startUs: us('2025-02-01T00:00:01Z'), endUs: us('2025-02-02T00:00:00Z'), endExclusive: true },
      problems: [],
    });
    // Local midnight in Ecuador (UTC-5) is 05:00 UTC, inside the UTC day; 23:59:59.999999999 UTC is its last instant.
    expect(paymentsWindow('2025-02-01T00:00:00-05:00', '2025-02-01').problems).toEqual([]);
    expect(paymentsWindow('2025-02-01T23:59:59.999999999Z', '2025-02-01').problems).toEqual([]);
    // The day's end is not in the window; 19:00-05:00 is that same instant.
    for (const start of ['2025-02-02T00:00:00Z', '2025-02-01T19:00:00-05:00']) {
      expect(paymentsWindow(start, '2025-02-01').problems).toEqual([{ field: 'startDate', problem: 'must not be later than endDate' }]);
    }
  });

  it('counts the 93 days to a date end as sent, whatever the start: the window then holds that whole last day', () => {
    expect(paymentsWindow('2025-01-01T00:00:00Z', '2025-04-04')).toEqual({
      window: { startUs: us('2025-01-01T00:00:00Z'), endUs: us('2025-04-05T00:00:00Z'), endExclusive: true },
      problems: [],
    });
    expect(paymentsWindow('2024-12-31T23:59:59.999999999Z', '2025-04-04').problems).toEqual([
      { field: 'endDate', problem: 'must be at most 93 days after startDate' },
    ]);
  });

  it('lists both bad dates, an offset beyond ±14:00 among them', () => {
    const { problems } = paymentsWindow('2025-02-01T00:00:00+20:00', '2025-02-30');
    expect(problems.map((problem) => problem.field)).toEqual(['startDate', 'endDate']);
    expect(problems[0]!.problem).toMatch(/offsets from -14:00 to \+14:00/);
  });
});
