import { parseKeepingIntegers } from '../../common/exact-integers.js';
import { mapKeetaDocument } from './keeta-order.js';
import { KEETA_ORDER_EXAMPLE, OPEN_DELIVERY_ORDER_EXAMPLE } from './open-delivery-order-example.js';
import { mapOpenDeliveryDocument } from './open-delivery-order.js';

const map = (document: unknown) => mapOpenDeliveryDocument(document).order as Record<string, any>;
const example = () => structuredClone(OPEN_DELIVERY_ORDER_EXAMPLE) as Record<string, any>;
const errorOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as { status: number; code: string; details?: Array<{ field: string }> };
  }
  throw new Error('mapped without a problem');
};

describe('Open Delivery orders in the service shape', () => {
  it('reads {value, currency}, externalCode before id, and options per unit of the item', () => {
    const mapped = map(example());
    expect(mapped).toMatchObject({
      orderId: '4818e72f-2304-466f-9fe7-af08f34ac4ed',
      store: { id: 'demo-store-1' },
      source: 'opendelivery',
    });
    const [burger, fries] = mapped.order.products;
    expect(burger.price.totalPrice.total).toBe(51.8); // 25.90 × 2
    expect(burger.modifierGroups[0].selectedModifiers[0]).toMatchObject({
      productId: 'demo-extra-cheese',
      price: { totalPrice: { total: 7 } },
    }); // 3.50 × 1 × 2
    expect(fries.price.totalPrice.total).toBe(14.9);
    expect(mapped.intakeWarnings).toBeUndefined(); // 51.80 + 7.00 + 14.90 = 73.70 = itemsPrice
  });

  it('takes sponsors by name, the fee by who receives it, the marketplace fee outside, and no tip', () => {
    const mapped = map(example());
    expect(mapped.order.discounts).toEqual([
      expect.objectContaining({ amount: 6, sponsor: 'MERCHANT', target: 'ITEMS' }),
      expect.objectContaining({ amount: 4, sponsor: 'PLATFORM', target: 'ITEMS' }),
    ]);
    expect(mapped.order.deliveryFee).toEqual({ amount: 8.9, deliveredBy: 'MERCHANT' });
    expect(mapped.order.otherCharges).toEqual([expect.objectContaining({ amount: 1.99, chargedBy: 'PLATFORM' })]); // the TIP of 3.00 is not there
  });

  it("puts the merchant's fees on the invoice: MIN_ORDER_FEE always, SERVICE_FEE on delivery, and at the table the service charge", () => {
    const document = example();
    document.otherFees = [
      { type: 'MIN_ORDER_FEE', receivedBy: 'MERCHANT', price: { value: 2, currency: 'BRL' } },
      { type: 'SERVICE_FEE', receivedBy: 'MERCHANT', price: { value: 1.5, currency: 'BRL' } },
    ];
    expect(map(document).order.otherCharges).toEqual([
      expect.objectContaining({ amount: 2, chargedBy: 'MERCHANT' }),
      expect.objectContaining({ amount: 1.5, chargedBy: 'MERCHANT' }),
    ]);
    document.type = 'INDOOR';
    document.otherFees = [
      { type: 'SERVICE_FEE', receivedBy: 'MERCHANT', price: { value: 7.37, currency: 'BRL' } },
      { type: 'TIP', receivedBy: 'MERCHANT', price: { value: 1, currency: 'BRL' } },
    ];
    expect(map(document).order.serviceCharge).toEqual({ amount: 8.37 }); // 7.37 + 1.00
  });

  it('warns when its total disagrees, when no sponsor covers a discount, and when a target names nothing', () => {
    const document = example();
    document.total.itemsPrice.value = 50;
    document.discounts[0].amount.value = 12; // 2.00 more than its sponsorships
    document.discounts.push({
      amount: { value: 1, currency: 'BRL' },
      target: 'ITEM',
      targetId: 'nope',
      sponsorshipValues: [{ name: 'MERCHANT', amount: { value: 1, currency: 'BRL' } }],
    });
    const mapped = map(document);
    expect(mapped.intakeWarnings.map((warning: { code: string }) => warning.code)).toEqual([
      'DISCOUNT_SPONSOR_UNKNOWN',
      'DISCOUNT_TARGET_NOT_FOUND',
      'SOURCE_TOTAL_MISMATCH',
    ]);
    expect(mapped.order.discounts).toContainEqual(expect.objectContaining({ amount: 2, sponsor: 'PLATFORM' }));
    expect(mapped.order.discounts.at(-1)).toMatchObject({ amount: 1, sponsor: 'MERCHANT', target: 'ITEMS' });
  });

  it('aims an ITEM discount at the item its targetId names; reads fractional quantities', () => {
    const document = example();
    document.discounts[0].target = 'ITEM';
    document.discounts[0].targetId = document.items[1].id;
    document.items[1].quantity = 0.35;
    const mapped = map(document);
    expect(mapped.order.discounts[0]).toMatchObject({ target: 'ITEM', productIndex: 1 });
    expect(mapped.order.products[1].price.totalPrice.total).toBe(5.22); // 14.90 × 0.35 = 5.215 → 5.22 half-up
  });

  it('answers an event with 422 NOT_AN_ORDER naming eventType', () => {
    expect(errorOf(() => mapOpenDeliveryDocument({ eventId: 'e-1', eventType: 'CANCELLED', orderId: 'o-1' }))).toMatchObject({
      status: 422,
      code: 'NOT_AN_ORDER',
      details: [{ field: 'eventType' }],
    });
  });

  it('keeps an id past 2^53 exactly', () => {
    const text = JSON.stringify(example()).replace('"id":"demo-store-1"', '"id":98765432109876543210');
    expect(map(parseKeepingIntegers(text)).store.id).toBe('98765432109876543210');
  });

  it.each([
    ['a number as a money object', (d: any) => (d.items[0].unitPrice = { value: 'NaN' }), 'items[0].unitPrice.value'],
    ['1e308', (d: any) => (d.otherFees[0].price.value = 1e308), 'otherFees[0].price.value'],
    ['no merchant', (d: any) => delete d.merchant, 'merchant'],
  ])('answers %s with a 400 naming the path in the document', (_case, spoil, field) => {
    const document = example();
    spoil(document);
    const error = errorOf(() => mapOpenDeliveryDocument(document));
    expect(error.status).toBe(400);
    expect(error.details!.map((detail) => detail.field)).toContain(field);
  });
});

describe('Keeta orders', () => {
  it('unwraps {code, message, data} and names the marketplace', () => {
    const mapped = mapKeetaDocument(structuredClone(KEETA_ORDER_EXAMPLE)).order as Record<string, any>;
    expect(mapped).toMatchObject({ orderId: '4818e72f-2304-466f-9fe7-af08f34ac4ed', source: 'keeta' });
    expect(mapKeetaDocument(example()).order).toMatchObject({ source: 'keeta' }); // bare, too
  });

  it("answers a 400 with the path in Keeta's wrapper, and translates later errors under data", () => {
    const wrapped = structuredClone(KEETA_ORDER_EXAMPLE) as Record<string, any>;
    wrapped.data.items[0].quantity = 'many';
    const error = errorOf(() => mapKeetaDocument(wrapped)) as unknown as { details: Array<{ field: string }>; message: string };
    expect(error.details[0]!.field).toBe('data.items[0].quantity');
    expect(error.message).toContain('data.items[0].quantity');
    const { sourcePaths } = mapKeetaDocument(structuredClone(KEETA_ORDER_EXAMPLE));
    expect(sourcePaths.sourceOf('order.products[1].price.totalPrice.total')).toBe('data.items[1].unitPrice');
  });
});
