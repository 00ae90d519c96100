import { ApiError } from '../../common/errors/api-error.js';
import { mapIfoodDocument, mapIfoodOrder } from './ifood-order.js';

type Json = Record<string, any>;

/** One item, `index: 0`: a pizza 1 × 45.00. */
function order(benefits: Json[], extra: Json = {}): Json {
  return {
    id: 'ifood-doc-1',
    merchant: { id: 'store-1' },
    orderType: 'TAKEOUT',
    items: [{ index: 0, id: 'item-pizza', externalCode: 'pizza', quantity: 1, unitPrice: 45, totalPrice: 45 }],
    total: { subTotal: 45, deliveryFee: 0 },
    benefits,
    ...extra,
  };
}

const merchantShare = (value: number) => [{ name: 'MERCHANT', value }];

describe('mapIfoodOrder: a benefit whose target names nothing is applied to the whole cart, with a warning', () => {
  it('iFood\'s documentation example: targetId "1" on a one-item order whose item has index 0', () => {
    const mapped = mapIfoodOrder(order([{ value: 4, target: 'ITEM', targetId: '1', sponsorshipValues: merchantShare(4) }]));
    expect((mapped.order as Json).discounts).toEqual([
      {
        amount: 4,
        sponsor: 'MERCHANT',
        target: 'ITEMS',
        description: 'iFood benefit sponsored by MERCHANT',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'MERCHANT' },
      },
    ]);
    expect(mapped.intakeWarnings).toEqual([
      {
        code: 'DISCOUNT_TARGET_NOT_FOUND',
        path: 'sourceOrder.benefits[0].targetId',
        message: 'targetId "1" names no item of the order (by index, else id): the benefit was applied to the whole cart (ITEMS)',
      },
    ]);
  });

  it('the same for an ITEM benefit without targetId, a target iFood does not document, and DELIVERY_FEE without a fee', () => {
    const mapped = mapIfoodOrder(
      order([
        { value: 1, target: 'PROGRESSIVE_DISCOUNT_ITEM', sponsorshipValues: merchantShare(1) },
        { value: 2, target: 'EVERYTHING', sponsorshipValues: merchantShare(2) },
        { value: 3, target: 'DELIVERY_FEE', sponsorshipValues: merchantShare(3) },
      ]),
    );
    expect(((mapped.order as Json).discounts as Json[]).map(({ amount, target }) => ({ amount, target }))).toEqual([
      { amount: 1, target: 'ITEMS' },
      { amount: 2, target: 'ITEMS' },
      { amount: 3, target: 'ITEMS' },
    ]);
    expect((mapped.intakeWarnings as Json[]).map(({ code, path }) => `${code} ${path}`)).toEqual([
      'DISCOUNT_TARGET_NOT_FOUND sourceOrder.benefits[0].targetId',
      'DISCOUNT_TARGET_NOT_FOUND sourceOrder.benefits[1].target',
      'DISCOUNT_TARGET_NOT_FOUND sourceOrder.benefits[2].target',
    ]);
  });

  it('an order whose benefits all name what they apply to has no intakeWarnings, and an iFood field of that name is not copied', () => {
    const mapped = mapIfoodOrder(
      order([{ value: 4, target: 'ITEM', targetId: 0, sponsorshipValues: merchantShare(4) }], { intakeWarnings: ['planted'] }),
    );
    expect((mapped.order as Json).discounts[0]).toMatchObject({ target: 'ITEM', productIndex: 0 });
    expect(mapped.intakeWarnings).toBeUndefined();
  });
});

describe('mapIfoodOrder: a benefit without its sponsors', () => {
  it('empty or absent sponsorshipValues: its value as paid back by the platform, with DISCOUNT_SPONSOR_UNKNOWN', () => {
    const mapped = mapIfoodOrder(
      order([
        { value: 5, target: 'CART', sponsorshipValues: [], campaign: { name: 'Cupom' } },
        { value: 2, target: 'CART' },
        { target: 'CART', sponsorshipValues: [] },
      ]),
    );
    expect((mapped.order as Json).discounts).toEqual([
      {
        amount: 5,
        sponsor: 'PLATFORM',
        target: 'ITEMS',
        description: 'iFood benefit, sponsor unknown: Cupom',
        descriptionCode: 'SPONSOR_UNKNOWN',
        descriptionParams: { marketplace: 'iFood', detail: 'Cupom' },
      },
      {
        amount: 2,
        sponsor: 'PLATFORM',
        target: 'ITEMS',
        description: 'iFood benefit, sponsor unknown',
        descriptionCode: 'SPONSOR_UNKNOWN',
        descriptionParams: { marketplace: 'iFood' },
      },
    ]);
    expect((mapped.intakeWarnings as Json[]).map(({ code, path }) => `${code} ${path}`)).toEqual([
      'DISCOUNT_SPONSOR_UNKNOWN sourceOrder.benefits[0].sponsorshipValues',
      'DISCOUNT_SPONSOR_UNKNOWN sourceOrder.benefits[1].sponsorshipValues',
      'DISCOUNT_SPONSOR_UNKNOWN sourceOrder.benefits[2].sponsorshipValues',
    ]);
  });

  it('a sponsorship without a name: the platform, with DISCOUNT_SPONSOR_UNKNOWN at its name', () => {
    const mapped = mapIfoodOrder(order([{ value: 3, target: 'CART', sponsorshipValues: [{ name: ' ', value: 3 }] }]));
    expect((mapped.order as Json).discounts).toEqual([
      {
        amount: 3,
        sponsor: 'PLATFORM',
        target: 'ITEMS',
        description: 'iFood benefit, sponsor unknown',
        descriptionCode: 'SPONSOR_UNKNOWN',
        descriptionParams: { marketplace: 'iFood' },
      },
    ]);
    expect(mapped.intakeWarnings).toEqual([
      {
        code: 'DISCOUNT_SPONSOR_UNKNOWN',
        path: 'sourceOrder.benefits[0].sponsorshipValues[0].name',
        message: expect.stringContaining('3.00'),
      },
    ]);
  });

  it('sponsorshipValues that is not a list cannot be read: a 400 naming it', () => {
    try {
      mapIfoodOrder(order([{ value: 1, target: 'CART', sponsorshipValues: { name: 'IFOOD' } }]));
      throw new Error('expected a 400');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).details).toEqual([{ field: 'benefits[0].sponsorshipValues', problem: 'must be an array' }]);
    }
  });
});

describe('mapIfoodDocument: answered in its own words', () => {
  it('cuts a description past 500 characters instead of refusing it', () => {
    const mapped = mapIfoodOrder(
      order([{ value: 1, target: 'CART', sponsorshipValues: [{ name: 'IFOOD', value: 1, description: 'D'.repeat(600) }] }]),
    );
    const description = (mapped.order as Json).discounts[0].description as string;
    expect(description).toHaveLength(500);
    expect(description.startsWith('iFood benefit sponsored by IFOOD: DDD')).toBe(true);
    expect(description.endsWith('…')).toBe(true);
  });

  it('records the iFood path of each part of the mapped order, for errors found on it later', () => {
    const { sourcePaths } = mapIfoodDocument(
      order(
        [
          { value: 0, target: 'CART', sponsorshipValues: [{ name: 'IFOOD', value: 0 }] },
          {
            value: 3,
            target: 'CART',
            sponsorshipValues: [
              { name: 'IFOOD', value: 1 },
              { name: 'MERCHANT', value: 2 },
            ],
          },
        ],
        { additionalFees: [{ type: 'SMALL_ORDER_FEE', value: 0.99 }] },
      ),
    );
    expect(sourcePaths.sourceOf('store.id')).toBe('merchant.id');
    expect(sourcePaths.sourceOf('orderId')).toBe('id');
    expect(sourcePaths.sourceOf('order.products')).toBe('items');
    expect(sourcePaths.sourceOf('order.products[0].price.totalPrice.total')).toBe('items[0].totalPrice');
    // The first discount is the second benefit's first sponsorship: a sponsorship at 0.00 makes none.
    expect(sourcePaths.sourceOf('order.discounts[0].amount')).toBe('benefits[1].sponsorshipValues[0].value');
    expect(sourcePaths.sourceOf('order.discounts[1].description')).toBe('benefits[1].sponsorshipValues[1].description');
    expect(sourcePaths.sourceOf('order.discounts[1].target')).toBe('benefits[1].target');
    expect(sourcePaths.sourceOf('order.otherCharges[0].amount')).toBe('additionalFees[0].value');
    expect(sourcePaths.sourceOf('order.deliveryFee.deliveredBy')).toBe('delivery.deliveredBy');
  });
});
