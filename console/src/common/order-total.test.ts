import { describe, expect, it } from 'vitest';
import { linesTotalCents, orderTotal, toCents } from './order-total';

/** A line (or modifier) of the platform's order with its `price.totalPrice.total` in reais. */
const item = (total: number, modifiers: number[] = []) => ({
  price: { totalPrice: { total } },
  modifierGroups: modifiers.length
    ? [{ selectedModifiers: modifiers.map((value) => ({ price: { totalPrice: { total: value } } })) }]
    : undefined,
});

describe('toCents', () => {
  it('rounds a decimal amount to whole cents (0.1 + 0.2 is 30 cents, not 30.000000000000004)', () => {
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(51.8)).toBe(5180);
  });
});

describe('linesTotalCents', () => {
  it('adds every line and every selected modifier in cents', () => {
    // 5180 (burger) + 700 + 150 (its modifiers) + 600 (cola) + 1000 (box) = 7630 cents
    const payload = { order: { products: [item(51.8, [7, 1.5]), item(6), item(10)] } };
    expect(linesTotalCents(payload)).toBe(7630);
  });

  it('sums 0.1 ten times to exactly 100 cents', () => {
    // 10 × 10 cents = 100 cents (in floating point, ten 0.1s add up to 0.9999999999999999)
    expect(linesTotalCents({ order: { products: Array.from({ length: 10 }, () => item(0.1)) } })).toBe(100);
  });

  it('skips lines without an amount, and is undefined when no line has one', () => {
    // 1250 cents; the line without a price adds nothing
    expect(linesTotalCents({ order: { products: [item(12.5), { name: 'no price' }, 'not a line'] } })).toBe(1250);
    expect(linesTotalCents({ order: { products: [{ name: 'no price' }] } })).toBeUndefined();
    expect(linesTotalCents({ order: {} })).toBeUndefined();
    expect(linesTotalCents(null)).toBeUndefined();
  });
});

describe('orderTotal', () => {
  it("takes the platform's total.orderAmount when it sent one, even if the lines say otherwise", () => {
    expect(orderTotal({ total: { orderAmount: 86.7 }, order: { products: [item(10)] } })).toEqual({ cents: 8670, from: 'payload' });
  });

  it('sums the lines when the payload has no total amount', () => {
    // 1490 + 1300 = 2790 cents
    expect(orderTotal({ total: { items: 'x' }, order: { products: [item(14.9), item(13)] } })).toEqual({ cents: 2790, from: 'lines' });
    expect(orderTotal({ order: { products: [] } })).toBeUndefined();
  });
});
