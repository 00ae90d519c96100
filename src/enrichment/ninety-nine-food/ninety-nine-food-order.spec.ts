import { parseKeepingIntegers } from '../../common/exact-integers.js';
import { NINETY_NINE_FOOD_ORDER_EXAMPLE } from './ninety-nine-food-order-example.js';
import { mapNinetyNineFoodDocument } from './ninety-nine-food-order.js';

const map = (document: unknown) => mapNinetyNineFoodDocument(document).order as Record<string, any>;
const example = () => structuredClone(NINETY_NINE_FOOD_ORDER_EXAMPLE) as Record<string, any>;
const errorOf = (document: unknown) => {
  try {
    mapNinetyNineFoodDocument(document);
  } catch (error) {
    return error as { status: number; code: string; details?: Array<{ field: string }> };
  }
  throw new Error('mapped without a problem');
};

describe('99Food orders in the service shape', () => {
  it('reads cents, ids and nested options per unit of the item', () => {
    const mapped = map(example());
    expect(mapped.orderId).toBe('1152921547153933576');
    expect(mapped.store.id).toBe('demo-store-1');
    const [burger, cola] = mapped.order.products;
    expect(burger.price.totalPrice.total).toBe(51.8); // 2590 × 2 = 5180 cents
    expect(burger.modifierGroups[0].selectedModifiers[0]).toMatchObject({
      productId: 'demo-extra-cheese',
      quantity: 2,
      price: { totalPrice: { total: 7 } },
    }); // 350 × 1 × 2 = 700 cents
    expect(cola).toMatchObject({ productId: 'demo-cola', price: { totalPrice: { total: 6.5 } } }); // app_item_id before app_external_id
    expect(mapped.intakeWarnings).toBeUndefined(); // total_price 5880 = (2590 + 350) × 2; order_price 6530 = 5880 + 650
  });

  it('keeps a 19-digit id sent as a JSON number exactly, as the body parser read it', () => {
    const text = JSON.stringify(example()).replaceAll('"1152921547153933576"', '1152921547153933576');
    const mapped = map(parseKeepingIntegers(text));
    expect(mapped.orderId).toBe('1152921547153933576');
    expect(String(Number('1152921547153933576'))).not.toBe('1152921547153933576'); // what a JS number would have kept
  });

  it("splits each promotion into the store's subsidy and the platform's rest, aiming delivery types at the fee", () => {
    expect(map(example()).order.discounts).toEqual([
      expect.objectContaining({ amount: 4, sponsor: 'MERCHANT', target: 'ITEMS' }), // shop_subside_price 400
      expect.objectContaining({ amount: 6, sponsor: 'PLATFORM', target: 'ITEMS' }), // 1000 − 400
      expect.objectContaining({ amount: 5, sponsor: 'PLATFORM', target: 'DELIVERY_FEE' }), // type 3, free delivery
    ]);
  });

  it("takes the fee by delivery_type, the store's surcharges on the invoice, the service fee outside, tips nowhere", () => {
    const document = example();
    document.data.order_info.price.others_fees.small_order_price = 300;
    const mapped = map(document);
    expect(mapped.order.deliveryFee).toEqual({ amount: 7.99, deliveredBy: 'PLATFORM' }); // delivery_type 1
    expect(mapped.order.otherCharges).toEqual([
      expect.objectContaining({ amount: 3, chargedBy: 'MERCHANT' }),
      expect.objectContaining({ amount: 1.99, chargedBy: 'PLATFORM' }),
    ]);
    document.data.order_info.delivery_type = 2;
    expect(map(document).order.deliveryFee.deliveredBy).toBe('MERCHANT');
    document.data.order_info.fulfillment_mode = 1;
    expect(map(document).order.deliveryFee).toBeUndefined();
  });

  it('reads the details bare, without the envelope', () => {
    const { data } = example();
    expect(map(data).orderId).toBe('1152921547153933576');
    expect(map(data.order_info).store.id).toBe('demo-store-1');
  });

  it("treats a promotion without shop_subside_price as the platform's, with a warning", () => {
    const document = example();
    delete document.data.order_info.promotions[0].shop_subside_price;
    const mapped = map(document);
    expect(mapped.order.discounts[0]).toMatchObject({ amount: 10, sponsor: 'PLATFORM' });
    expect(mapped.intakeWarnings).toContainEqual(expect.objectContaining({ code: 'DISCOUNT_SPONSOR_UNKNOWN' }));
  });

  it('answers cancellations and other webhook types with 422 NOT_AN_ORDER', () => {
    const cancelled = example();
    cancelled.data.order_info.status = 910;
    expect(errorOf(cancelled)).toMatchObject({ status: 422, code: 'NOT_AN_ORDER', details: [{ field: 'data.order_info.status' }] });
    expect(errorOf({ ...example(), type: 'orderCancel' })).toMatchObject({ code: 'NOT_AN_ORDER', details: [{ field: 'type' }] });
  });

  it('refuses options nested past the limit with a 400 naming the path', () => {
    const document = example();
    let level = document.data.order_info.order_items[0].sub_item_list[0];
    for (let depth = 0; depth < 12; depth++) {
      const next = { app_item_id: `deep-${depth}`, sku_price: 0, amount: 1, sub_item_list: [] as unknown[] };
      level.sub_item_list = [next];
      level = next;
    }
    const error = errorOf(document);
    expect(error.status).toBe(400);
    expect(error.details![0]!.field).toMatch(/^data\.order_info\.order_items\[0\]\.sub_item_list\[0\](\.sub_item_list\[0\])+/);
  });

  it.each([
    ['cents with a fraction', (d: any) => (d.data.order_info.order_items[0].sku_price = 25.9), 'data.order_info.order_items[0].sku_price'],
    ['cents as words', (d: any) => (d.data.order_info.price.delivery_price = 'lots'), 'data.order_info.price.delivery_price'],
    ['1e308', (d: any) => (d.data.order_info.order_items[1].sku_price = 1e308), 'data.order_info.order_items[1].sku_price'],
    ['no items', (d: any) => delete d.data.order_info.order_items, 'data.order_info.order_items'],
  ])("answers %s with a 400 naming the path in 99Food's document", (_case, spoil, field) => {
    const document = example();
    spoil(document);
    const error = errorOf(document);
    expect(error.status).toBe(400);
    expect(error.details!.map((detail) => detail.field)).toContain(field);
  });
});
