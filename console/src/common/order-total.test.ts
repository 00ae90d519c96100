import { describe, expect, it } from 'vitest';
import { linesTotalCents, orderTotal, orderValueParts, perUnitAmount, productCents, toCents } from './order-total';

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

describe('productCents', () => {
  it('multiplies exactly and rounds half-up to the cent', () => {
    // 4.50 × 3 = 13.50 → 1350 cents.
    expect(productCents(4.5, 3)).toBe(1350);
    // 0.1 × 3 = 0.3 exactly (floating point gives 0.30000000000000004) → 30 cents.
    expect(productCents(0.1, 3)).toBe(30);
    // 2.675 × 1 = 2.675 → half-up 2.68 (268 cents); as a float 2.675 is 2.67499999…, which Math.round would take down.
    expect(productCents(2.675, 1)).toBe(268);
    // 12.99 × 0.355 kg = 4.61145 → 4.61 (461 cents); 3.33 × 0.5 = 1.665 → 1.67 (167 cents).
    expect(productCents(12.99, 0.355)).toBe(461);
    expect(productCents(3.33, 0.5)).toBe(167);
    // −1.005 × 1: half away from zero, −1.01 (−101 cents).
    expect(productCents(-1.005, 1)).toBe(-101);
    // As numeric text: "19.90" × "3" = 59.70.
    expect(productCents('19.90', '3')).toBe(5970);
    expect(productCents('1e3', 1)).toBeUndefined();
  });
});

describe('perUnitAmount', () => {
  it('reads price.unitPrice.total, price.unitPrice or unitPrice, numbers or numeric text, and the quantity', () => {
    // 4.50 × 3 = 13.50.
    expect(perUnitAmount({ quantity: 3, price: { unitPrice: { total: 4.5 } } })).toEqual({ unitPrice: 4.5, quantity: 3, amount: 13.5 });
    // 7.99 × 2 = 15.98.
    expect(perUnitAmount({ quantity: 2, price: { unitPrice: 7.99 } })).toEqual({ unitPrice: 7.99, quantity: 2, amount: 15.98 });
    // 12.99 × 0.355 = 4.61145 → 4.61.
    expect(perUnitAmount({ quantity: '0.355', unitPrice: '12.99' })).toEqual({ unitPrice: 12.99, quantity: 0.355, amount: 4.61 });
  });

  it('is undefined without a unit price or a numeric quantity', () => {
    expect(perUnitAmount({ quantity: 2, price: { totalPrice: { total: 10 } } })).toBeUndefined();
    expect(perUnitAmount({ quantity: 'two', price: { unitPrice: { total: 5 } } })).toBeUndefined();
    expect(perUnitAmount({ price: { unitPrice: { total: 5 } } })).toBeUndefined();
  });
});

describe('orderValueParts', () => {
  it('names each part the payload states: the lines, the discounts, the fee and the charges (in cents)', () => {
    // Lines 30.00 + 10.00 = 40.00; coupons 3.00 + 1.00 = 4.00; fee 8.00; service charge 4.40; other charges 1.00 + 0.50.
    const payload = {
      order: {
        products: [{ price: { totalPrice: { total: 30 } } }, { price: { totalPrice: { total: 10 } } }],
        discounts: [{ amount: 3 }, { amount: 1 }],
        deliveryFee: { amount: 8 },
        serviceCharge: { amount: 4.4 },
        otherCharges: [{ amount: 1 }, { amount: 0.5 }],
      },
    };
    expect(orderValueParts(payload)).toEqual({
      linesSum: 4000,
      discounts: 400,
      deliveryFee: 800,
      serviceCharge: 440,
      otherCharges: 150,
    });
  });

  it('keeps the platform’s total beside the lines’ sum, and leaves out what the payload does not state', () => {
    expect(orderValueParts({ total: { orderAmount: 44 }, order: { products: [{ price: { totalPrice: { total: 40 } } }] } })).toEqual({
      payloadTotal: 4400,
      linesSum: 4000,
    });
    expect(orderValueParts(null)).toEqual({});
  });
});
