import { describe, expect, it } from 'vitest';
import { discountLabelOf } from './discount-label';

describe('discountLabelOf', () => {
  it('reads the code and parameters the service writes beside its description', () => {
    expect(
      discountLabelOf({
        description: 'iFood benefit sponsored by IFOOD: Cupom 10',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Cupom 10' },
      }),
    ).toEqual({ code: 'SPONSORED_BY', marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Cupom 10' });
  });

  it.each([
    ['iFood benefit sponsored by IFOOD: Cupom 10', { code: 'SPONSORED_BY', marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Cupom 10' }],
    ['iFood benefit sponsored by EXTERNAL', { code: 'SPONSORED_BY', marketplace: 'iFood', sponsor: 'EXTERNAL' }],
    ['iFood benefit, sponsor unknown: Cupom', { code: 'SPONSOR_UNKNOWN', marketplace: 'iFood', detail: 'Cupom' }],
    ['iFood benefit, sponsor unknown', { code: 'SPONSOR_UNKNOWN', marketplace: 'iFood' }],
    ['Rappi discount paid by Rappi: Frete grátis', { code: 'PAID_BY_MARKETPLACE', marketplace: 'Rappi', detail: 'Frete grátis' }],
    ['Rappi discount, sponsor unknown: 10%', { code: 'SPONSOR_UNKNOWN', marketplace: 'Rappi', detail: '10%' }],
    ["Rappi support's discount, paid by Rappi", { code: 'MARKETPLACE_SUPPORT', marketplace: 'Rappi' }],
    ['99Food promotion (type 10) paid by 99Food', { code: 'PAID_BY_MARKETPLACE', marketplace: '99Food', promotionType: '10' }],
    ['99Food promotion (type 3), sponsor unknown', { code: 'SPONSOR_UNKNOWN', marketplace: '99Food', promotionType: '3' }],
    ['Open Delivery discount sponsored by MARKETPLACE', { code: 'SPONSORED_BY', marketplace: 'Open Delivery', sponsor: 'MARKETPLACE' }],
    ['Open Delivery discount sponsored by an unknown sponsor', { code: 'SPONSOR_UNKNOWN', marketplace: 'Open Delivery' }],
    ['Open Delivery discount, sponsor unknown', { code: 'SPONSOR_UNKNOWN', marketplace: 'Open Delivery' }],
  ])('reads an order stored before the code existed from its English description: %s', (description, label) => {
    expect(discountLabelOf({ description })).toEqual(label);
  });

  it("is nothing for a description the order's sender wrote, or for a code this console does not know", () => {
    expect(discountLabelOf({ description: 'Cupom da plataforma' })).toBeUndefined();
    expect(
      discountLabelOf({ description: 'Cupom', descriptionCode: 'NEWER_CODE', descriptionParams: { marketplace: 'iFood' } }),
    ).toBeUndefined();
    expect(discountLabelOf({})).toBeUndefined();
  });
});
