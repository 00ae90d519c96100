import { describe, expect, it } from 'vitest';
import { marketplaceOf, sponsorSplitOf } from './order-origin';

describe('marketplaceOf', () => {
  it('names a marketplace by its source, anything else is the platform', () => {
    expect(marketplaceOf('ifood')).toBe('ifood');
    expect(marketplaceOf('99food')).toBe('99food');
    expect(marketplaceOf('site')).toBe('platform');
    expect(marketplaceOf('IFOOD')).toBe('platform');
    expect(marketplaceOf(null)).toBe('platform');
  });
});

describe('sponsorSplitOf', () => {
  it('sums each side of the discounts in cents', () => {
    const payload = {
      order: {
        discounts: [
          { amount: 6, sponsor: 'MERCHANT', target: 'CART' },
          { amount: 0.1, sponsor: 'MERCHANT', target: 'ITEM' },
          { amount: 0.2, sponsor: 'MERCHANT', target: 'DELIVERY_FEE' },
          { amount: 5, sponsor: 'PLATFORM', target: 'CART' },
          { amount: 1.25, sponsor: 'THIRD_PARTY', target: 'CART' },
        ],
      },
    };
    // Store: 600 + 10 + 20 = 630 cents (0.1 + 0.2 in floating point would be 0.30000000000000004).
    expect(sponsorSplitOf(payload)).toEqual({ store: 630, platform: 500, thirdParty: 125 });
  });

  it('leaves out a side that gave nothing, and entries it cannot read', () => {
    expect(
      sponsorSplitOf({ order: { discounts: [{ amount: 2, sponsor: 'PLATFORM' }, { amount: 'x', sponsor: 'MERCHANT' }, null] } }),
    ).toEqual({
      platform: 200,
    });
    expect(sponsorSplitOf({ order: {} })).toEqual({});
    expect(sponsorSplitOf(null)).toEqual({});
  });
});
