import { parseIsoDate, paymentsWindow } from './date-range.js';

describe('parseIsoDate', () => {
  it.each([
    ['2025-11-21', '2025-11-21T00:00:00.000Z', true],
    ['2024-02-29', '2024-02-29T00:00:00.000Z', true],
    ['2025-11-21T10:30:00Z', '2025-11-21T10:30:00.000Z', false],
    ['2025-11-21T10:30Z', '2025-11-21T10:30:00.000Z', false],
    ['2025-11-21T10:30:00.1234Z', '2025-11-21T10:30:00.123Z', false],
    ['2025-11-21T10:30:00-03:00', '2025-11-21T13:30:00.000Z', false],
    ['2025-11-21T10:30:00+0530', '2025-11-21T05:00:00.000Z', false],
    ['2025-11-21T10:30:00', '2025-11-21T10:30:00.000Z', false],
  ])('reads %s', (text, iso, dateOnly) => {
    expect(parseIsoDate(text)).toEqual({ instant: new Date(iso), dateOnly });
  });

  it.each([
    '',
    'yesterday',
    '2025-13-01',
    '2025-02-30',
    '2025-02-29',
    '21/11/2025',
    '2025-11-21T24:00:00Z',
    '2025-11-21T10:60Z',
    '2025-11-21T10:30:00+15:00',
    '2025-W47',
    '1763700000000',
  ])('refuses %j', (text) => {
    expect(parseIsoDate(text)).toBeUndefined();
  });
});

describe('paymentsWindow', () => {
  it('includes the whole end day when endDate is a date', () => {
    expect(paymentsWindow('2025-11-01', '2025-11-30')).toEqual({
      window: { start: new Date('2025-11-01T00:00:00Z'), end: new Date('2025-12-01T00:00:00Z'), endExclusive: true },
      problems: [],
    });
  });

  it('uses the instants of date-times, end included', () => {
    expect(paymentsWindow('2025-11-01T03:00:00Z', '2025-11-02T02:59:59Z').window).toEqual({
      start: new Date('2025-11-01T03:00:00Z'),
      end: new Date('2025-11-02T02:59:59Z'),
      endExclusive: false,
    });
  });

  it('accepts one day (start == end) and exactly 93 days', () => {
    expect(paymentsWindow('2025-01-01', '2025-01-01').problems).toEqual([]);
    // 2025-01-01 + 93 days = 2025-04-04 (31 + 28 + 31 = 90 days to 2025-04-01, + 3)
    expect(paymentsWindow('2025-01-01', '2025-04-04').problems).toEqual([]);
  });

  it('refuses 94 days, and a date-time one second past 93 days', () => {
    expect(paymentsWindow('2025-01-01', '2025-04-05').problems).toEqual([
      { field: 'endDate', problem: 'must be at most 93 days after startDate' },
    ]);
    expect(paymentsWindow('2025-01-01T00:00:00Z', '2025-04-04T00:00:01Z').problems).toHaveLength(1);
  });

  it('refuses a start after the end', () => {
    expect(paymentsWindow('2025-02-02', '2025-02-01').problems).toEqual([
      { field: 'startDate', problem: 'must not be later than endDate' },
    ]);
  });

  it('lists both bad dates', () => {
    expect(paymentsWindow('nope', '2025-02-30').problems.map((problem) => problem.field)).toEqual(['startDate', 'endDate']);
  });
});
