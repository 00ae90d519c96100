import { parseKeepingIntegers } from '../../common/exact-integers.js';
import { RAPPI_ORDER_EXAMPLE } from './rappi-order-example.js';
import { mapRappiDocument } from './rappi-order.js';

type Mapped = {
  orderId: string;
  store: { id: string };
  order: {
    products: Array<{
      productId: string;
      price: { totalPrice: { total: number } };
      modifierGroups?: Array<{
        selectedModifiers: Array<{ productId: string; quantity: number; price: { totalPrice: { total: number } } }>;
      }>;
    }>;
    discounts?: Array<{
      amount: number;
      sponsor: string;
      target: string;
      productIndex?: number;
      descriptionCode?: string;
      descriptionParams?: Record<string, string>;
    }>;
    deliveryFee?: { amount: number; deliveredBy: string };
    otherCharges?: Array<{ amount: number; chargedBy: string }>;
  };
  intakeWarnings?: Array<{ code: string; path: string; message: string }>;
  sourceOrder: unknown;
};
const map = (document: unknown) => mapRappiDocument(document).order as Mapped;
const example = () => structuredClone(RAPPI_ORDER_EXAMPLE) as Record<string, any>;
const problemsOf = (document: unknown) => {
  try {
    mapRappiDocument(document);
  } catch (error) {
    return error as { status: number; code: string; details?: Array<{ field: string; problem: string }> };
  }
  throw new Error('mapped without a problem');
};

describe('Rappi orders in the service shape', () => {
  it('maps ids, lines (price × quantity) and subitems per unit of the item', () => {
    const mapped = map(example());
    expect(mapped.orderId).toBe('392625');
    expect(mapped.store.id).toBe('demo-store-1'); // external_id, not internal_id
    const [burger, cola] = mapped.order.products;
    expect(burger!.productId).toBe('demo-burger'); // sku before id
    expect(burger!.price.totalPrice.total).toBe(51.8); // 25.90 × 2
    // The cheese: 3.50 × 1 per burger × 2 burgers = 7.00, 2 units in the line
    expect(burger!.modifierGroups![0]!.selectedModifiers[0]).toMatchObject({
      productId: 'demo-extra-cheese',
      quantity: 2,
      price: { totalPrice: { total: 7 } },
    });
    expect(cola!.price.totalPrice.total).toBe(13); // 6.50 × 2
    expect(mapped.sourceOrder).toEqual(RAPPI_ORDER_EXAMPLE);
  });

  it('splits each discount by who pays it and aims it at the item it names or the delivery fee', () => {
    const { discounts } = map(example()).order;
    expect(discounts).toEqual([
      expect.objectContaining({ amount: 5, sponsor: 'MERCHANT', target: 'ITEM', productIndex: 0 }), // sku demo-burger
      expect.objectContaining({ amount: 2, sponsor: 'PLATFORM', target: 'DELIVERY_FEE' }), // type shipping, amount_by_rappi
    ]);
  });

  it('says who pays each discount as a code and parameters beside the English description', () => {
    const document = example();
    document.order_detail.totals.discount_by_support = 1;
    const { discounts } = map(document).order;
    expect(discounts!.map(({ descriptionCode, descriptionParams }) => ({ descriptionCode, descriptionParams }))).toEqual([
      { descriptionCode: 'PAID_BY_STORE', descriptionParams: { marketplace: 'Rappi', detail: expect.any(String) } },
      { descriptionCode: 'PAID_BY_MARKETPLACE', descriptionParams: { marketplace: 'Rappi', detail: expect.any(String) } },
      { descriptionCode: 'MARKETPLACE_SUPPORT', descriptionParams: { marketplace: 'Rappi' } },
    ]);
  });

  it("takes the fee by delivery method, the service fee as the platform's, and leaves tips out", () => {
    const mapped = map(example());
    expect(mapped.order.deliveryFee).toEqual({ amount: 7.9, deliveredBy: 'MERCHANT' }); // marketplace: the store's couriers
    expect(mapped.order.otherCharges).toEqual([expect.objectContaining({ amount: 1.99, chargedBy: 'PLATFORM' })]);
    expect(JSON.stringify(mapped.order)).not.toContain('"amount":3'); // the tip of 3.00 is nowhere in the order
    const delivered = example();
    delivered.order_detail.delivery_method = 'delivery';
    expect(map(delivered).order.deliveryFee?.deliveredBy).toBe('PLATFORM');
    const pickup = example();
    pickup.order_detail.delivery_method = 'pickup';
    expect(map(pickup).order.deliveryFee).toBeUndefined();
  });

  it('reads unit_price_without_discount where price is absent, never the discounted unit price', () => {
    const document = example();
    delete document.order_detail.items[1].price;
    document.order_detail.items[1].unit_price_without_discount = 7;
    document.order_detail.items[1].unit_price_with_discount = 1;
    expect(map(document).order.products[1]!.price.totalPrice.total).toBe(14); // 7.00 × 2
  });

  it('warns, never refuses, when its own totals disagree, and when no sponsor covers a discount', () => {
    const document = example();
    document.order_detail.totals.total_products = 70;
    document.order_detail.discounts[0].value = 6; // 1.00 more than the store's 5.00
    const warnings = map(document).intakeWarnings!;
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          code: 'SOURCE_TOTAL_MISMATCH',
          path: 'sourceOrder.order_detail.totals.total_products',
          message: expect.stringMatching(/70\.00.*71\.80/),
        }),
        expect.objectContaining({ code: 'DISCOUNT_SPONSOR_UNKNOWN', path: 'sourceOrder.order_detail.discounts[0].value' }),
      ]),
    );
    expect(map(document).order.discounts).toContainEqual(expect.objectContaining({ amount: 1, sponsor: 'PLATFORM', target: 'ITEM' }));
  });

  it('applies a discount naming no item of the order to the whole cart, with a warning', () => {
    const document = example();
    document.order_detail.discounts[0].sku = 'not-in-the-order';
    const mapped = map(document);
    expect(mapped.order.discounts![0]).toMatchObject({ target: 'ITEMS' });
    expect(mapped.intakeWarnings).toContainEqual(expect.objectContaining({ code: 'DISCOUNT_TARGET_NOT_FOUND' }));
  });

  it('answers a scheduled-order notice with 422 NOT_AN_ORDER naming action, and an event naming event', () => {
    expect(problemsOf({ ...example(), action: 'NEW_ORDER_SCHEDULED' })).toMatchObject({
      status: 422,
      code: 'NOT_AN_ORDER',
      details: [{ field: 'action' }],
    });
    expect(problemsOf({ event: 'canceled_with_charge', order_id: '106', store_id: '900109448' })).toMatchObject({
      code: 'NOT_AN_ORDER',
      details: [{ field: 'event' }],
    });
    expect(map({ ...example(), action: 'NEW_ORDER' }).orderId).toBe('392625');
  });

  it('keeps an id past 2^53 exactly, as the body parser read it', () => {
    const text = JSON.stringify(example()).replace('"order_id":"392625"', '"order_id":11529215471539335761');
    expect(map(parseKeepingIntegers(text)).orderId).toBe('11529215471539335761');
  });

  it.each([
    [
      'numbers as text that are not numbers',
      (d: Record<string, any>) => (d.order_detail.items[0].price = 'NaN'),
      'order_detail.items[0].price',
    ],
    ['1e308', (d: Record<string, any>) => (d.order_detail.items[0].price = 1e308), 'order_detail.items[0].price'],
    [
      'a negative amount',
      (d: Record<string, any>) => (d.order_detail.totals.charges.shipping = -1),
      'order_detail.totals.charges.shipping',
    ],
    ['no store', (d: Record<string, any>) => delete d.store, 'store'],
    [
      'an object as quantity',
      (d: Record<string, any>) => (d.order_detail.items[1].quantity = { deep: { deeper: [] } }),
      'order_detail.items[1].quantity',
    ],
  ])("answers %s with a 400 naming the path in Rappi's document", (_case, spoil, field) => {
    const document = example();
    spoil(document);
    const error = problemsOf(document);
    expect(error.status).toBe(400);
    expect(error.details!.map((detail) => detail.field)).toContain(field);
  });

  it('reads numbers sent as text', () => {
    const document = example();
    document.order_detail.items[0].price = '25.90';
    document.order_detail.items[0].quantity = '2';
    expect(map(document).order.products[0]!.price.totalPrice.total).toBe(51.8);
  });
});
