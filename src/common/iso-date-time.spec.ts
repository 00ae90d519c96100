import fc from 'fast-check';
import {
  ceilToMicros,
  floorToMicros,
  formatMicrosUtc,
  formatUtcDay,
  isIsoDate,
  parseIsoDateTime,
  parseOffsetDateTime,
  readIsoInstant,
  US_PER_DAY,
  utcDayOf,
} from './iso-date-time.js';

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
      '2026-11-22T05:30:00+14:00',
      '2026-11-21T01:30:00-14:00',
      '2026-11-21T15:30:00-00:00',
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
    ['an offset beyond +14:00', '2026-11-21T10:00:00+20:00'],
    ['an offset of +14:01', '2026-11-21T10:00:00+14:01'],
    ['an offset beyond -14:00', '2026-11-21T10:00:00-15:00'],
    ['offset minutes 60', '2026-11-21T10:00:00+05:60'],
    ['an offset with seconds', '2026-11-21T10:00:00+05:30:00'],
    ['an offset of hours alone', '2026-11-21T10:00:00+05'],
    ['a zone annotation', '2026-11-21T10:00:00+01:00[Europe/Paris]'],
    ['an extended year', '+002026-11-21T10:00:00Z'],
    ['a week date', '2026-W47-6T10:00:00Z'],
    ['an ordinal date', '2026-325T10:00:00Z'],
    ['hours alone', '2026-11-21T10Z'],
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

describe('parseOffsetDateTime', () => {
  it('reads a date-time whose offset is written as RFC 3339 writes it', () => {
    const utc = parseIsoDateTime('2026-11-21T15:30:00Z');
    for (const text of ['2026-11-21T15:30:00Z', '2026-11-21t15:30:00z', '2026-11-21T12:30:00-03:00', '2026-11-21T15:30:00-00:00']) {
      expect([text, parseOffsetDateTime(text)]).toEqual([text, utc]);
    }
  });

  it.each([
    ['no offset', '2026-11-21T12:30:00'],
    ['no offset nor seconds', '2026-11-21T12:30'],
    ['no offset, a fraction', '2026-11-21T12:30:00.123'],
    ['no offset, a space', '2026-11-21 12:30:00'],
    ['an offset without its colon', '2026-11-21T12:30:00-0300'],
    ['a date only', '2026-11-21'],
    ['a day the calendar lacks', '2026-02-30T10:00:00Z'],
    ['a number', 1795275000000],
  ])('refuses %s', (_label, text) => {
    expect(parseOffsetDateTime(text)).toBeUndefined();
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
  it('names the UTC day of every instant as Date does, and year 10000 as PostgreSQL reads it', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('0001-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }),
        (date) => {
          const us = BigInt(date.getTime()) * 1000n;
          expect(formatUtcDay(utcDayOf(us))).toBe(date.toISOString().slice(0, 10));
          expect(formatMicrosUtc(us)).toBe(date.toISOString().replace('Z', '000Z'));
        },
      ),
    );
    expect(formatUtcDay(utcDayOf(parseIsoDateTime('9999-12-31T23:59:59.999999999Z')! / 1000n + 1n))).toBe('10000-01-01');
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

describe('dates alone', () => {
  it('reads a date as its midnight UTC, flagged as a date', () => {
    expect(readIsoInstant('1970-01-02')).toEqual({ epochNs: US_PER_DAY * 1000n, dateOnly: true });
    expect(readIsoInstant('1970-01-02T00:00:00Z')).toEqual({ epochNs: US_PER_DAY * 1000n, dateOnly: false });
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('0001-01-01')).toBe(true);
    expect(isIsoDate('9999-12-31')).toBe(true);
  });

  it.each(['2026-02-29', '2026-13-01', '0000-01-01', '2026-1-01', '20261121', '2026-11-21T00:00:00Z', '2026-11-21 ', 20261121])(
    'isIsoDate refuses %j',
    (text) => {
      expect(isIsoDate(text)).toBe(false);
    },
  );

  it('is refused where a date-time is required', () => {
    expect(parseIsoDateTime('2026-11-21')).toBeUndefined();
  });
});
