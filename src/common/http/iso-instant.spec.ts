import fc from 'fast-check';
import {
  ceilToMicros,
  civilFromDays,
  daysFromCivil,
  floorToMicros,
  formatMicrosUtc,
  formatUtcDay,
  parseIsoDateTime,
  utcDayOf,
} from './iso-instant.js';

const NS = 1_000_000_000n;

describe('parseIsoDateTime', () => {
  it('reads an instant to the nanosecond, in UTC', () => {
    expect(parseIsoDateTime('1970-01-01T00:00:00Z')).toBe(0n);
    expect(parseIsoDateTime('1970-01-01T00:00:01.5Z')).toBe(NS + NS / 2n);
    expect(parseIsoDateTime('1970-01-01T00:00:00.123456789Z')).toBe(123_456_789n);
    expect(parseIsoDateTime('1970-01-01T00:00:00,25Z')).toBe(250_000_000n);
    expect(parseIsoDateTime('1969-12-31T23:59:59.999999999Z')).toBe(-1n);
    // 2026-11-21T15:30:00Z: 2026-01-01 is day 20454, November 21 is 324 days later, so 20778 * 86400 + 15.5 * 3600 = 1795275000 s.
    expect(parseIsoDateTime('2026-11-21T15:30:00Z')).toBe(1_795_275_000n * NS);
  });

  it('applies the zone; no zone means UTC; seconds are optional', () => {
    const utc = parseIsoDateTime('2026-11-21T15:30:00Z');
    for (const text of [
      '2026-11-21T12:30:00-03:00',
      '2026-11-21T12:30-0300',
      '2026-11-21 15:30:00',
      '2026-11-21t15:30z',
      '2026-11-21T20:00:00+04:30',
    ]) {
      expect([text, parseIsoDateTime(text)]).toEqual([text, utc]);
    }
  });

  it('agrees with Date for every millisecond instant of years 1 to 9999', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (date) => {
          expect(parseIsoDateTime(date.toISOString())).toBe(BigInt(date.getTime()) * 1_000_000n);
        },
      ),
    );
  });

  it.each([
    ['a date only', '2026-11-21'],
    ['no separator', '20261121T153000Z'],
    ['February 29 of a common year', '2026-02-29T00:00:00Z'],
    ['April 31', '2026-04-31T00:00:00Z'],
    ['hour 24', '2026-11-21T24:00:00Z'],
    ['minute 60', '2026-11-21T10:60:00Z'],
    ['a leap second', '2016-12-31T23:59:60Z'],
    ['10 fractional digits', '2026-11-21T10:00:00.1234567890Z'],
    ['an offset hour 24', '2026-11-21T10:00:00+24:00'],
    ['year 0', '0000-06-01T00:00:00Z'],
    ['before year 1 once the zone applies', '0001-01-01T00:30:00+01:00'],
    ['after year 9999 once the zone applies', '9999-12-31T23:30:00-01:00'],
    ['trailing text', '2026-11-21T10:00:00Z '],
    ['a number', 20261121],
    ['an array', ['2026-11-21T10:00:00Z']],
  ])('refuses %s', (_label, text) => {
    expect(parseIsoDateTime(text)).toBeUndefined();
  });

  it('accepts February 29 of a leap year and the last instant of year 9999', () => {
    expect(parseIsoDateTime('2024-02-29T00:00:00Z')).toBeDefined();
    expect(parseIsoDateTime('2000-02-29T00:00:00Z')).toBeDefined();
    expect(parseIsoDateTime('1900-02-29T00:00:00Z')).toBeUndefined();
    expect(parseIsoDateTime('9999-12-31T23:59:59.999999999Z')).toBeDefined();
  });
});

describe('rounding to stored microseconds', () => {
  it('rounds a lower bound up and an upper bound down, on both sides of the epoch', () => {
    expect([ceilToMicros(1_001n), floorToMicros(1_001n)]).toEqual([2n, 1n]);
    expect([ceilToMicros(-1_001n), floorToMicros(-1_001n)]).toEqual([-1n, -2n]);
    expect([ceilToMicros(-1n), floorToMicros(-1n)]).toEqual([0n, -1n]);
    expect([ceilToMicros(3_000n), floorToMicros(3_000n)]).toEqual([3n, 3n]);
  });
});

describe('UTC days and formatting', () => {
  it('round-trips days and civil dates', () => {
    fc.assert(
      fc.property(fc.integer({ min: daysFromCivil(1, 1, 1), max: daysFromCivil(9999, 12, 31) }), (days) => {
        const { year, month, day } = civilFromDays(days);
        expect(daysFromCivil(year, month, day)).toBe(days);
      }),
    );
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(civilFromDays(-1)).toEqual({ year: 1969, month: 12, day: 31 });
  });

  it('formats what PostgreSQL reads back exactly', () => {
    expect(formatMicrosUtc(0n)).toBe('1970-01-01T00:00:00.000000Z');
    expect(formatMicrosUtc(-1n)).toBe('1969-12-31T23:59:59.999999Z');
    expect(formatMicrosUtc(parseIsoDateTime('2026-11-21T12:30:00.1234567-03:00')! / 1000n)).toBe('2026-11-21T15:30:00.123456Z');
    expect(formatMicrosUtc(parseIsoDateTime('0001-01-01T00:00:00Z')! / 1000n)).toBe('0001-01-01T00:00:00.000000Z');
    expect(formatUtcDay(utcDayOf(-1n))).toBe('1969-12-31');
    expect(formatUtcDay(utcDayOf(parseIsoDateTime('2026-11-21T23:59:59.999999Z')! / 1000n))).toBe('2026-11-21');
  });
});
