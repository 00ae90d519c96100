import fc from 'fast-check';
import { splitProportionally } from './split.js';

describe('splitProportionally (rateio)', () => {
  it('splits in proportion, half-up, the last item taking the remainder', () => {
    // 10.00 over 30.00 / 30.00 / 40.00 (total 100.00):
    // 1000 × 3000 / 10000 = 300; 1000 × 3000 / 10000 = 300; last = 1000 − 600 = 400
    expect(splitProportionally(1000, [3000, 3000, 4000])).toEqual({ shares: [300, 300, 400], unplaced: 0 });
    // 5.00 over three items of 10.00: 500 / 3 = 166.67 → 167, 167; last = 500 − 334 = 166
    expect(splitProportionally(500, [1000, 1000, 1000])).toEqual({ shares: [167, 167, 166], unplaced: 0 });
    // 0.01 over 10.00 / 10.00: 0.5 → 1 (half-up); last = 0
    expect(splitProportionally(1, [1000, 1000])).toEqual({ shares: [1, 0], unplaced: 0 });
  });

  it('items with an amount of 0 take nothing; the last item with an amount takes the remainder', () => {
    // 1.00 over 0 / 2.00 / 1.00 / 0: 100 × 200 / 300 = 66.67 → 67; last with an amount: 100 − 67 = 33
    expect(splitProportionally(100, [0, 200, 100, 0])).toEqual({ shares: [0, 67, 33, 0], unplaced: 0 });
  });

  it('nothing to split over: the whole amount is unplaced', () => {
    expect(splitProportionally(250, [0, 0])).toEqual({ shares: [0, 0], unplaced: 250 });
    expect(splitProportionally(250, [])).toEqual({ shares: [], unplaced: 250 });
  });

  it('a remainder made negative by ties rounded up is taken back from the next items, around to the first', () => {
    // 0.05 over 0.03 / 0.03 / 0.03 / 0.01 (total 0.10): 5 × 3 / 10 = 1.5 → 2 three times = 6 > 5,
    // so the last share would be 5 − 6 = −1: it becomes 0 and the first item gives back 1 → [1, 2, 2, 0]
    expect(splitProportionally(5, [3, 3, 3, 1])).toEqual({ shares: [1, 2, 2, 0], unplaced: 0 });
  });

  it('with caps, a share above its cap moves the excess to the next item in payload order', () => {
    // 0.05 over 0.02 / 0.02 / 0.02 / 0.01 (total 0.07): 5 × 2 / 7 = 1.43 → 1, 1, 1; last = 5 − 3 = 2 > cap 1:
    // 1 cent moves on, around to the first item (cap 2, share 1) → [2, 1, 1, 1]
    expect(splitProportionally(5, [2, 2, 2, 1], [2, 2, 2, 1])).toEqual({ shares: [2, 1, 1, 1], unplaced: 0 });
    // A second discount, where the first left 1.00 of a 3.00 item and 3.00 of another 3.00:
    // 3.00 × 300 / 600 = 150 on the first, above its cap 100 → 50 moves to the next: [100, 200]
    expect(splitProportionally(300, [300, 300], [100, 300])).toEqual({ shares: [100, 200], unplaced: 0 });
  });

  it('an amount above what the caps allow is capped; the excess is unplaced', () => {
    // 50.00 over 10.00 + 20.00: capped at 30.00 → shares are the items themselves, 20.00 unplaced
    expect(splitProportionally(5000, [1000, 2000], [1000, 2000])).toEqual({ shares: [1000, 2000], unplaced: 2000 });
  });

  it('takes products beyond 2^53 exactly (BigInt)', () => {
    // 90 071 992 547 409.91 (the largest safe cents) over two items, the first 1 cent, the second the rest:
    // 9007199254740991 × 1 / 9007199254740991 = 1 exactly; the last takes the rest
    const big = Number.MAX_SAFE_INTEGER;
    expect(splitProportionally(big - 1, [1, big - 1])).toEqual({ shares: [1, big - 2], unplaced: 0 });
    // 2^52 cents over 1/3 and 2/3 of 3 × 2^50: 2^52 × 2^50 / (3 × 2^50) = 2^52 / 3 = 1501199875790165.33 → …165
    const third = 2 ** 50;
    expect(splitProportionally(2 ** 52, [third, 2 * third]).shares[0]).toBe(1501199875790165);
  });

  it('properties: shares add up exactly, none negative, none above its cap, none on an item without an amount', () => {
    const weights = fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(weights, fc.integer({ min: 1, max: 50_000_000 }), fc.boolean(), (items, amount, capped) => {
        const caps = capped ? items.map((weight) => Math.floor(weight / 2)) : undefined;
        const { shares, unplaced } = splitProportionally(amount, items, caps);
        const total = items.reduce((sum, weight) => sum + weight, 0);
        const room = caps ? caps.reduce((sum, cap) => sum + cap, 0) : Infinity;
        const placed = total === 0 ? 0 : Math.min(amount, room);
        expect(shares.reduce((sum, share) => sum + share, 0)).toBe(placed);
        expect(unplaced).toBe(amount - placed);
        shares.forEach((share, index) => {
          expect(share).toBeGreaterThanOrEqual(0);
          if (caps) expect(share).toBeLessThanOrEqual(caps[index]!);
          if (items[index] === 0) expect(share).toBe(0);
        });
      }),
      { numRuns: 500 },
    );
  });
});
