import { TEXT_DIGITS_PROBLEM } from './money.js';
import { hasOrderAdjustments, readOrderAdjustments } from './order-adjustments.js';

const products = [{ productId: 'a' }, { productId: 'b' }];

describe('readOrderAdjustments', () => {
  it('reads every field in cents: numbers or numeric text, half-up to the cent, and lists what it rounded', () => {
    const { adjustments, problems, rounded } = readOrderAdjustments({
      products,
      discounts: [
        { amount: '5.005', sponsor: 'MERCHANT', target: 'ITEMS', description: 'Coupon' },
        { amount: 2, sponsor: 'PLATFORM', target: 'ITEM', productIndex: 1 },
        { amount: 1.5, sponsor: 'THIRD_PARTY', target: 'DELIVERY_FEE' },
      ],
      deliveryFee: { amount: 0, deliveredBy: 'PLATFORM' },
      serviceCharge: { amount: '12.3' },
      otherCharges: [{ amount: 0.99, chargedBy: 'MERCHANT' }],
    });
    expect(problems).toEqual([]);
    expect(adjustments).toEqual({
      // 5.005 → 5.01 (half-up)
      discounts: [
        { index: 0, amount: 501, sponsor: 'MERCHANT', target: 'ITEMS', description: 'Coupon' },
        { index: 1, amount: 200, sponsor: 'PLATFORM', target: 'ITEM', productIndex: 1 },
        { index: 2, amount: 150, sponsor: 'THIRD_PARTY', target: 'DELIVERY_FEE' },
      ],
      deliveryFee: { amount: 0, deliveredBy: 'PLATFORM' },
      serviceCharge: { amount: 1230 },
      otherCharges: [{ amount: 99, chargedBy: 'MERCHANT' }],
    });
    expect(rounded).toEqual([{ path: 'order.discounts[0].amount', text: '5.005', cents: 501 }]);
  });

  it('names the path of each malformed entry and keeps the well-formed ones', () => {
    const { adjustments, problems, rounded } = readOrderAdjustments({
      products,
      discounts: [
        { amount: 1, sponsor: 'MERCHANT', target: 'ITEMS' },
        { amount: 1, sponsor: 'merchant', target: 'ITEMS' },
        { amount: 0.004, sponsor: 'MERCHANT', target: 'ITEMS' },
        { amount: 1, sponsor: 'MERCHANT', target: 'ITEM', productIndex: 2 },
        { amount: 1, sponsor: 'MERCHANT', target: 'ITEM', productIndex: 0.5 },
        { amount: 'ten', sponsor: 'MERCHANT', target: 'CART' },
        'coupon',
      ],
      deliveryFee: { amount: -1, deliveredBy: 'IFOOD' },
      serviceCharge: 10,
      otherCharges: { amount: 1 },
    });
    expect(problems.map((problem) => problem.path)).toEqual([
      'order.discounts[1].sponsor',
      'order.discounts[2].amount',
      'order.discounts[3].productIndex',
      'order.discounts[4].productIndex',
      'order.discounts[5].amount',
      'order.discounts[5].target',
      'order.discounts[6]',
      'order.deliveryFee.amount',
      'order.deliveryFee.deliveredBy',
      'order.serviceCharge',
      'order.otherCharges',
    ]);
    expect(problems[0]!.message).toBe('must be one of MERCHANT, PLATFORM, THIRD_PARTY');
    expect(problems[1]!.message).toBe('must be greater than 0 (after rounding to cents)');
    expect(problems[2]!.message).toBe('must be the index of a line of order.products (0 to 1) for target ITEM');
    expect(adjustments).toEqual({ discounts: [{ index: 0, amount: 100, sponsor: 'MERCHANT', target: 'ITEMS' }], otherCharges: [] });
    // 0.004 was rounded, to 0, but its entry was refused: nothing to warn about
    expect(rounded).toEqual([]);
  });

  it('refuses more than 100 discounts and amounts beyond exact cents', () => {
    const discount = { amount: 1, sponsor: 'MERCHANT', target: 'ITEMS' };
    const { problems } = readOrderAdjustments({
      discounts: Array.from({ length: 101 }, () => discount),
      serviceCharge: { amount: '900719925474099.99' },
    });
    expect(problems.map((problem) => problem.path)).toEqual(['order.discounts', 'order.serviceCharge.amount']);
  });

  it('refuses numeric text with more than 20 digits before the point or 30 after it', () => {
    const { adjustments, problems } = readOrderAdjustments({
      discounts: [{ amount: `1.${'0'.repeat(300_000)}`, sponsor: 'MERCHANT', target: 'ITEMS' }],
      deliveryFee: { amount: `0.${'0'.repeat(29)}1`, deliveredBy: 'MERCHANT' }, // 30 decimals: read, 0 cents
      otherCharges: [{ amount: '1'.repeat(21), chargedBy: 'PLATFORM' }],
    });
    expect(problems).toEqual([
      { path: 'order.discounts[0].amount', message: TEXT_DIGITS_PROBLEM },
      { path: 'order.otherCharges[0].amount', message: TEXT_DIGITS_PROBLEM },
    ]);
    expect(adjustments.deliveryFee).toEqual({ amount: 0, deliveredBy: 'MERCHANT' });
  });

  it('an order without the fields (or with nulls) has none', () => {
    expect(hasOrderAdjustments({ products })).toBe(false);
    expect(hasOrderAdjustments({ products, discounts: null, deliveryFee: undefined })).toBe(false);
    expect(hasOrderAdjustments({ products, discounts: [] })).toBe(true);
    expect(hasOrderAdjustments('order')).toBe(false);
    expect(readOrderAdjustments(undefined)).toEqual({ adjustments: { discounts: [], otherCharges: [] }, problems: [], rounded: [] });
  });
});
