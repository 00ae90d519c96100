import { Decimal } from 'decimal.js';
import fc from 'fast-check';
import { centsTimes, decimalText, exactCents, isBeyondTextDigits, percentOf, plainCents, toCents, toMoney, toRateUnits } from './money.js';

describe('money', () => {
  it('reads amounts as exact cents', () => {
    expect(toCents('12.5')).toEqual({ cents: 1250, rounded: false });
    expect(toCents('0.1')).toEqual({ cents: 10, rounded: false });
    expect(toCents('1234567.89')).toEqual({ cents: 123456789, rounded: false });
    // 10.005 → 10.01 (half-up), 10.0049 → 10.00
    expect(toCents('10.005')).toEqual({ cents: 1001, rounded: true });
    expect(toCents('10.0049')).toEqual({ cents: 1000, rounded: true });
    expect(toCents('10.000')).toEqual({ cents: 1000, rounded: false });
    expect(toCents('-3.20')).toEqual({ cents: -320, rounded: false });
  });

  it('takes JSON numbers and numeric strings, nothing else', () => {
    expect(decimalText(12.5)).toBe('12.5');
    expect(decimalText(1e-7)).toBe('0.0000001');
    expect(decimalText(' 7.90 ')).toBe('7.90');
    expect(decimalText('7,90')).toBeUndefined();
    expect(decimalText(Number.NaN)).toBeUndefined();
    expect(decimalText(null)).toBeUndefined();
    expect(decimalText({})).toBeUndefined();
  });

  it('reads rates as integer units of 0.0001 %', () => {
    expect(toRateUnits(18)).toBe(180_000);
    expect(toRateUnits(1.65)).toBe(16_500);
    expect(toRateUnits(7.6)).toBe(76_000);
    expect(toRateUnits(0.0001)).toBe(1);
    expect(toRateUnits(100)).toBe(1_000_000);
  });

  it('rounds half-up to cents', () => {
    // 1.25 × 10 % = 0.125 → 0.13
    expect(percentOf(125, toRateUnits(10))).toBe(13);
    // 0.05 × 10 % = 0.005 → 0.01
    expect(percentOf(5, toRateUnits(10))).toBe(1);
    // 0.04 × 10 % = 0.004 → 0.00
    expect(percentOf(4, toRateUnits(10))).toBe(0);
    // 10.00 × 18 % = 1.80
    expect(percentOf(1000, toRateUnits(18))).toBe(180);
    // 33.33 × 1.65 % = 0.549945 → 0.55
    expect(percentOf(3333, toRateUnits(1.65))).toBe(55);
    // 0.10 × 7.6 % = 0.0076 → 0.01
    expect(percentOf(10, toRateUnits(7.6))).toBe(1);
    // 99,999,999.99 × 99.9999 % = 99,999,899.990000… → 99,999,899.99 (no overflow)
    expect(percentOf(9_999_999_999, toRateUnits(99.9999))).toBe(9_999_989_999);
    // Past 2^53 the product is computed in BigInt: 10^14 cents × 18 % = 1.8 × 10^13 cents
    expect(percentOf(100_000_000_000_000, toRateUnits(18))).toBe(18_000_000_000_000);
    // 90,071,992,547,409.91 × 0.0001 % = 90,071,992.547… → 9,007,199,255 cents
    expect(percentOf(Number.MAX_SAFE_INTEGER, 1)).toBe(9_007_199_255);
  });

  it('agrees with a decimal library on every base and rate (property)', () => {
    // decimal.js keeps 20 significant digits by default; base × rate reaches 22 (2^53 × 10^6), and
    // a rounded product makes a wrong oracle: 6371574560918296 × 391162 = 2492317848397922.499952 × 10^6
    // rounds to …922, but at 20 digits it reads …922.5 and rounds to …923.
    const Exact = Decimal.clone({ precision: 50 });
    expect(percentOf(6371574560918296, 391162)).toBe(2492317848397922);
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 100_000_000_000 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
        fc.integer({ min: 0, max: 1_000_000 }),
        (base, rate) => {
          const expected = new Exact(base).div(100).times(new Exact(rate).div(10_000)).div(100).toDecimalPlaces(2, Exact.ROUND_HALF_UP);
          expect(BigInt(percentOf(base, rate))).toBe(BigInt(expected.times(100).toFixed(0)));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('prints cents as numbers with at most 2 decimals', () => {
    expect(JSON.stringify(toMoney(13))).toBe('0.13');
    expect(JSON.stringify(toMoney(1_000_000_001))).toBe('10000000.01');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e12 }), (cents) =>
        expect(/^\d+(\.\d{1,2})?$/.test(JSON.stringify(toMoney(cents)))).toBe(true),
      ),
    );
  });
});

describe('exactCents', () => {
  it.each([
    ['90071992547409.91', 9007199254740991n], // Number.MAX_SAFE_INTEGER cents
    ['-90071992547409.91', -9007199254740991n],
    ['0.005', 1n], // half-up
    ['-0.005', -1n], // half-up on the magnitude, as toCents
    ['0.0049999999999999999', 0n], // every digit counts: JSON.parse would make it 0.005
    ['25.900000000000000001', 2590n],
    ['1e2', 10000n],
    ['90071992547409.92', undefined], // one cent past 2^53 - 1
    ['1e400', undefined],
    ['abc', undefined],
  ])('%s is %s', (text, cents) => {
    expect(exactCents(text)).toBe(cents);
  });
});

describe('centsTimes', () => {
  it.each([
    [5990, '0.35', 2097], // 2096.5 → 2097, half-up
    [47878, '0.00003132962947491541', 1], // 1.49999999999999999998 → 1: every digit of the product counts
    [4503599627370496, '2', undefined], // 2^53 cents: past Number.MAX_SAFE_INTEGER
  ])('%s × %s is %s', (cents, factor, product) => {
    expect(centsTimes(cents, factor)).toBe(product);
  });
});

describe('isBeyondTextDigits', () => {
  it.each([
    ['12.50', false],
    ['1'.repeat(20), false], // 20 digits before the point
    ['1'.repeat(21), true],
    [`-${'1'.repeat(20)}`, false], // the sign is no digit
    [`${'1'.repeat(20)}.${'5'.repeat(30)}`, false], // both bounds at once
    [`0.${'0'.repeat(29)}1`, false], // 30 decimals
    [`0.${'0'.repeat(30)}1`, true], // 31
    [`1.${'7'.repeat(300_000)}`, true],
  ])('%s: %s', (text, beyond) => {
    expect(isBeyondTextDigits(text)).toBe(beyond);
  });
});

describe('plainCents', () => {
  it.each([
    [25.9, 2590],
    [0.1, 10],
    [0, 0],
    [-0, 0], // the text of -0 is "0"
    [99_999_999_999.99, 9_999_999_999_999], // the last number of cents below 10^13
    [100_000_000_000, undefined], // 10^13 cents: the text's way
    [10.005, undefined], // a third decimal: rounded, with a warning, on the text's way
    [0.005, undefined],
    [1e-7, undefined],
    [-3.2, undefined], // negative: refused with a warning on the text's way
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
  ])('%s is %s', (value, cents) => {
    expect(plainCents(value)).toBe(cents);
  });

  it('where it answers, answers what the text of the number gives (property)', () => {
    const candidates = fc.oneof(
      fc.integer({ min: 0, max: 9_999_999_999_999 }).map((cents) => cents / 100),
      fc.integer({ min: 0, max: 9_999_999_999_999 }).map((cents) => cents / 1000),
      fc.double({ min: 0, max: 2e11, noNaN: true }),
    );
    fc.assert(
      fc.property(candidates, (value) => {
        const cents = plainCents(value);
        if (cents === undefined) return;
        expect(toCents(decimalText(value)!)).toEqual({ cents, rounded: false });
      }),
      { numRuns: 5000 },
    );
  });
});
