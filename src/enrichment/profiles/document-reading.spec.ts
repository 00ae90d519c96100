import { centsTimes } from '../../tax-engine/money.js';
import { DocumentReading } from './document-reading.js';

describe('DocumentReading.times', () => {
  const times = (cents: number, quantity: string) => {
    const reading = new DocumentReading('units');
    return { product: reading.times(cents, quantity, 'items[0].price'), problems: reading.problems.list };
  };

  it.each([
    [2590, '2'], // 25.90 × 2 = 51.80
    [2590, '0'],
    [-350, '0'], // no -0
    [2590, '007'], // 25.90 × 7 = 181.30
    [2590, '1.5'], // 25.90 × 1.5 = 38.85, by the decimal arithmetic
    [333, '0.333'], // 3.33 × 0.333 = 1.10889, rounded half-up to 1.11
    [1, '999999999'],
    [9007199254740991, '1'], // the largest safe number of cents, once
  ])('%d cents × %s: the decimal arithmetic’s product, exactly', (cents, quantity) => {
    const { product, problems } = times(cents, quantity);
    expect(product).toBe(centsTimes(cents, quantity));
    expect(Object.is(product, -0)).toBe(false);
    expect(problems).toEqual([]);
  });

  it('refuses a product past 2^53 - 1 cents, as the decimal arithmetic does', () => {
    // 4503599627370496 × 2 = 2^53, one past the largest safe integer.
    expect(times(4503599627370496, '2')).toEqual({
      product: undefined,
      problems: [{ field: 'items[0].price', problem: 'times the quantity is too large to be an order amount' }],
    });
    expect(times(4503599627370495, '2').product).toBe(9007199254740990);
  });
});
