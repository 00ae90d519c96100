import { readFileSync } from 'node:fs';
import { ApiError } from '../../common/errors/api-error.js';
import { TEXT_DIGITS_PROBLEM } from '../../tax-engine/money.js';
import { mapIfoodOrder } from './ifood-order.js';

type Json = Record<string, any>;

const sample = (name: string): Json =>
  JSON.parse(readFileSync(new URL(`../../../test/fixtures/ifood/${name}.json`, import.meta.url), 'utf8')) as Json;
const SMALL = 'sandbox-delivery-merchant-small-order-fee';
const MULTI = 'sandbox-delivery-merchant-five-items-multi-options';

const cents = (value: number) => Math.round(value * 100);
const amountOf = (item: Json): number => item.price.totalPrice.total as number;
const modifiersOf = (line: Json): Json[] => (line.modifierGroups ?? []).flatMap((group: Json) => group.selectedModifiers as Json[]);
/** The line plus its modifiers, in cents. */
const lineTotal = (line: Json) => cents(amountOf(line)) + modifiersOf(line).reduce((sum, modifier) => sum + cents(amountOf(modifier)), 0);

function problemsOf(body: unknown): Array<{ field: string; problem: string }> {
  try {
    mapIfoodOrder(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    return (error as ApiError).details ?? [];
  }
  throw new Error('expected a 400');
}

/** A small iFood order: a burger (2 × 20.00 with cheese at 3.00 per burger) and a juice without externalCode nor index. */
function order(extra: Json = {}): Json {
  return {
    id: 'ifood-order-1',
    merchant: { id: 'store-1', name: 'Store' },
    orderType: 'DELIVERY',
    items: [
      {
        index: 1,
        id: 'item-burger',
        externalCode: 'burger',
        quantity: 2,
        unitPrice: 20,
        optionsPrice: 6,
        totalPrice: 46,
        options: [{ index: 2, id: 'option-cheese', externalCode: 'cheese', quantity: 1, unitPrice: 3, price: 3 }],
      },
      { index: 3, id: 'item-juice', externalCode: '', quantity: 1, unitPrice: 8, totalPrice: 8 },
    ],
    total: { subTotal: 54, deliveryFee: 0, benefits: 0, orderAmount: 54 },
    ...extra,
  };
}

describe('mapIfoodOrder: the real sandbox orders, as they are', () => {
  it('one item delivered by the store with a small-order fee', () => {
    const body = sample(SMALL);
    const mapped = mapIfoodOrder(body);
    expect(mapped.orderId).toBe('a78c1d62-3cd6-4dac-a1c2-f413b363d671');
    expect(mapped.store).toEqual({ id: '86c364e5-aa30-499e-aeb1-a2d3ddfc2b3e', name: 'Teste - Admin Sweet Confetty' });
    expect(mapped.source).toBe('ifood');
    const { products, deliveryFee, otherCharges, discounts } = mapped.order as Json;
    // No externalCode: the item's id is the productId; 1 × 10.00 = 10.00, its totalPrice.
    expect(products).toEqual([
      expect.objectContaining({
        productId: '1e71b649-8b72-43a4-89d7-3fd8b3e8c6f4',
        quantity: 1,
        price: { unitPrice: { total: 10 }, totalPrice: { total: 10 } },
      }),
    ]);
    expect(products[0].modifierGroups).toBeUndefined();
    // total.deliveryFee 8.90 and deliveredBy MERCHANT: the store's fee; the 0.99 SMALL_ORDER_FEE is iFood's.
    expect(deliveryFee).toEqual({ amount: 8.9, deliveredBy: 'MERCHANT' });
    expect(otherCharges).toEqual([{ amount: 0.99, chargedBy: 'PLATFORM', description: 'iFood SMALL_ORDER_FEE' }]);
    expect(discounts).toBeUndefined();
    // Unmapped fields at the root; the whole order, untouched, under sourceOrder.
    expect(mapped.payments).toEqual(body.payments);
    expect(mapped.customer).toEqual(body.customer);
    expect(mapped.sourceOrder).toEqual(sample(SMALL));
  });

  it('five items with options: each line plus its modifiers is the item totalPrice; the option with quantity 2 is priced once', () => {
    const body = sample(MULTI);
    const mapped = mapIfoodOrder(body);
    expect(mapped.orderId).toBe('30357a33-385d-4a2f-87ba-bc4e99da1115');
    expect((mapped.store as Json).id).toBe('86c364e5-aa30-499e-aeb1-a2d3ddfc2b3e');
    const products = (mapped.order as Json).products as Json[];
    expect(products).toHaveLength(5);
    products.forEach((line, index) => expect(lineTotal(line)).toBe(cents(body.items[index].totalPrice)));
    // externalCode "5619" wins over the id; the options' externalCodes likewise.
    expect(products.map((line) => line.productId)).toEqual([
      '1e71b649-8b72-43a4-89d7-3fd8b3e8c6f4',
      '5619',
      '5619',
      '5619',
      '1e71b649-8b72-43a4-89d7-3fd8b3e8c6f4',
    ]);
    // Item index 6: unitPrice 0 × 1 = 0.00; options Copo M 10.00, Brownie 5.00 (2 × 2.50: its `price` already counts
    // its quantity, for one unit of the item), Morango 1.45, Suspiro 3.80: 10.00 + 5.00 + 1.45 + 3.80 = 20.25 = optionsPrice.
    // Were the Brownie 2 × 5.00, the options would be 25.25, not iFood's 20.25.
    const modifiers = modifiersOf(products[3]);
    expect(amountOf(products[3])).toBe(0);
    expect(modifiers.map((modifier) => [modifier.productId, modifier.quantity, amountOf(modifier)])).toEqual([
      ['2467', 1, 10],
      ['4145b406-21ef-44f9-942f-044a8b5a4b23', 2, 5],
      ['20d54896-25ae-4e3b-a1e0-6b1a69eb47e1', 1, 1.45],
      ['cf5fb901-a6ff-4eed-9404-0d6ab559432a', 1, 3.8],
    ]);
    // 10.00 + 15.00 + 10.00 + 20.25 + 10.00 = 65.25 = total.subTotal.
    expect(products.reduce((sum, line) => sum + lineTotal(line), 0)).toBe(6525);
    const { deliveryFee, otherCharges, discounts } = mapped.order as Json;
    expect(deliveryFee).toEqual({ amount: 8.9, deliveredBy: 'MERCHANT' });
    expect(otherCharges).toBeUndefined(); // additionalFees left out, total.additionalFees 0
    expect(discounts).toBeUndefined(); // total.benefits 0
    expect(mapped.sourceOrder).toEqual(sample(MULTI));
  });
});

describe('mapIfoodOrder: options', () => {
  it('options are priced per unit of the item: cheese 3.00 on 2 burgers is 6.00; the line is 2 × 20.00', () => {
    const [burger, juice] = (mapIfoodOrder(order()).order as Json).products as Json[];
    expect(burger).toMatchObject({ productId: 'burger', quantity: 2, price: { unitPrice: { total: 20 }, totalPrice: { total: 40 } } });
    expect(modifiersOf(burger)).toEqual([{ productId: 'cheese', quantity: 2, price: { totalPrice: { total: 6 } } }]);
    // An empty externalCode: the id.
    expect(juice.productId).toBe('item-juice');
  });

  it('an item sold by weight: unitPrice × a fractional quantity, half-up', () => {
    const cheese = order({ items: [{ id: 'item-cheese', externalCode: 'queijo-kg', unit: 'KILOGRAM', quantity: 0.35, unitPrice: 59.9 }] });
    // 5990 cents × 0.35 = 2096.5 → 2097: 20.97.
    const [line] = (mapIfoodOrder(cheese).order as Json).products as Json[];
    expect(line).toMatchObject({ productId: 'queijo-kg', quantity: 0.35, unit: 'KILOGRAM', price: { totalPrice: { total: 20.97 } } });
  });

  it('an item sold by weight is rounded once, on the exact product', () => {
    // 47878 cents × 0.00003132962947491541 = 1.49999999999999999998 cents (47878 × 3132962947491541 =
    // 149999999999999999998, at 1e-20) → 1 cent. Rounded to 20 significant digits first it would be 1.5 → 2.
    const weighed = order({ items: [{ id: 'w', externalCode: 'queijo-kg', quantity: 0.00003132962947491541, unitPrice: 478.78 }] });
    const [line] = (mapIfoodOrder(weighed).order as Json).products as Json[];
    expect(amountOf(line)).toBe(0.01);
    // An option priced by its unit price × its quantity, the same way: 47878 × 0.00003132962947491541 → 1 cent; on 1 item.
    const option = { id: 'o', externalCode: 'extra', quantity: '0.00003132962947491541', unitPrice: 478.78 };
    const withOption = order({ items: [{ id: 'i', externalCode: 'x', quantity: 1, unitPrice: 1, options: [option] }] });
    const [optioned] = (mapIfoodOrder(withOption).order as Json).products as Json[];
    expect(modifiersOf(optioned).map(amountOf)).toEqual([0.01]);
  });

  it('a product beyond exact cents is a 400 naming the price', () => {
    // 9007199254740990 cents × 2 is past Number.MAX_SAFE_INTEGER
    const huge = order({ items: [{ id: 'h', externalCode: 'x', quantity: 2, unitPrice: '90071992547409.90' }] });
    expect(problemsOf(huge).map((problem) => problem.field)).toEqual(['items[0].unitPrice']);
  });

  it('a half-and-half pizza charged at its dearer flavour: the difference is split over the halves', () => {
    const pizza = {
      id: 'pizza-order',
      merchant: { id: 'store-1' },
      items: [
        {
          index: 1,
          id: 'item-pizza',
          externalCode: 'pizza-g',
          quantity: 2,
          unitPrice: 0,
          optionsPrice: 97.8,
          totalPrice: 97.8,
          options: [
            { id: 'half-1', externalCode: 'calabresa', quantity: 1, unitPrice: 21.95, price: 21.95 },
            { id: 'half-2', externalCode: 'quatro-queijos', quantity: 1, unitPrice: 24.45, price: 24.45 },
          ],
        },
      ],
    };
    // Per pizza the halves are 21.95 + 24.45 = 46.40, but iFood charges the dearer flavour: 2 × 24.45 = 48.90 each.
    // For 2 pizzas: halves 2 × 21.95 = 43.90 and 2 × 24.45 = 48.90 (sum 92.80), optionsPrice 97.80: difference 5.00.
    // First half: 500 × 4390 / 9280 = 236.53 cents → 237 (half-up); the last takes 500 − 237 = 263.
    // 43.90 + 2.37 = 46.27 and 48.90 + 2.63 = 51.53; 0.00 + 46.27 + 51.53 = 97.80 = totalPrice.
    const [line] = (mapIfoodOrder(pizza).order as Json).products as Json[];
    expect(amountOf(line)).toBe(0);
    expect(modifiersOf(line).map((modifier) => [modifier.productId, modifier.quantity, amountOf(modifier)])).toEqual([
      ['calabresa', 2, 46.27],
      ['quatro-queijos', 2, 51.53],
    ]);
    expect(lineTotal(line)).toBe(9780);
  });

  it('the line keeps unitPrice × quantity and the options take totalPrice minus the line', () => {
    const pizza = order({
      items: [
        {
          id: 'item-pizza',
          quantity: 1,
          unitPrice: 5,
          optionsPrice: 50,
          totalPrice: 55,
          options: [
            { id: 'half-1', price: 20 },
            { id: 'half-2', price: 25 },
          ],
        },
      ],
    });
    // Options target 55.00 − 5.00 = 50.00; sum 45.00; difference 5.00: 500 × 2000 / 4500 = 222.2 → 222; last 278.
    // 20.00 + 2.22 = 22.22, 25.00 + 2.78 = 27.78; 5.00 + 22.22 + 27.78 = 55.00.
    const [line] = (mapIfoodOrder(pizza).order as Json).products as Json[];
    expect([amountOf(line), ...modifiersOf(line).map(amountOf)]).toEqual([5, 22.22, 27.78]);
  });

  /** One item of 1 × 5.00 whose iFood total is `totalPrice`, with options at `prices` per unit. */
  const itemWithOptions = (totalPrice: number, prices: number[]) =>
    order({
      items: [
        {
          id: 'item-pizza',
          quantity: 1,
          unitPrice: 5,
          totalPrice,
          options: prices.map((price, index) => ({ id: `option-${index}`, price })),
        },
      ],
    });
  const amountsOf = (body: Json): number[] => {
    const [line] = (mapIfoodOrder(body).order as Json).products as Json[];
    return [amountOf(line!), ...modifiersOf(line!).map(amountOf)];
  };

  it('options priced above what iFood charged: the difference is taken off, half-up away from zero', () => {
    // Options target 5.05 − 5.00 = 0.05; sum 0.10; difference −0.05. Split 5 cents over 5 / 5:
    // 5 × 5 / 10 = 2.5 → 3 (half-up), last 5 − 3 = 2; taken off: 0.05 − 0.03 = 0.02 and 0.05 − 0.02 = 0.03.
    expect(amountsOf(itemWithOptions(5.05, [0.05, 0.05]))).toEqual([5, 0.02, 0.03]);
  });

  it('a free option takes no share; options all free: the last takes the whole difference', () => {
    // Target 6.00 − 5.00 = 1.00, options 0.50 + 0.00: difference 0.50, all on the option with an amount → 1.00, 0.00.
    expect(amountsOf(itemWithOptions(6, [0.5, 0]))).toEqual([5, 1, 0]);
    // Target 5.03 − 5.00 = 0.03, options 0.01 + 0.01 + 0.00: difference 0.01 over 1 / 1 / 0 cents: 1 × 1 / 2 = 0.5 → 1
    // (half-up) on the first; the last with an amount takes 1 − 1 = 0, and the free option stays at 0.00, not −0.01.
    expect(amountsOf(itemWithOptions(5.03, [0.01, 0.01, 0]))).toEqual([5, 0.02, 0.01, 0]);
    // Target 7.00 − 5.00 = 2.00 over 0.00 / 0.00: nothing to weigh by; the last option is 2.00.
    expect(amountsOf(itemWithOptions(7, [0, 0]))).toEqual([5, 0, 2]);
  });
});

describe('mapIfoodOrder: benefits', () => {
  it('CART: one discount per sponsor above 0, MERCHANT as the store, IFOOD as the platform', () => {
    const body = order({
      benefits: [
        {
          id: 'b-1',
          value: 10,
          target: 'CART',
          sponsorshipValues: [
            { name: 'IFOOD', value: 7 },
            { name: 'MERCHANT', value: 3 },
            { name: 'EXTERNAL', value: 0 },
          ],
          campaign: { id: 'c-1', name: 'Cupom 10' },
        },
      ],
    });
    expect((mapIfoodOrder(body).order as Json).discounts).toEqual([
      {
        amount: 7,
        sponsor: 'PLATFORM',
        target: 'ITEMS',
        description: 'iFood benefit sponsored by IFOOD: Cupom 10',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Cupom 10' },
      },
      {
        amount: 3,
        sponsor: 'MERCHANT',
        target: 'ITEMS',
        description: 'iFood benefit sponsored by MERCHANT: Cupom 10',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'MERCHANT', detail: 'Cupom 10' },
      },
    ]);
  });

  it('ITEM: the item whose index is targetId, else whose id is; a partner sponsor is the platform', () => {
    const byIndex = order({ benefits: [{ value: 4, target: 'ITEM', targetId: '3', sponsorshipValues: [{ name: 'MERCHANT', value: 4 }] }] });
    expect((mapIfoodOrder(byIndex).order as Json).discounts).toEqual([
      {
        amount: 4,
        sponsor: 'MERCHANT',
        target: 'ITEM',
        productIndex: 1,
        description: 'iFood benefit sponsored by MERCHANT',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'MERCHANT' },
      },
    ]);
    const withoutIndexes = order();
    for (const item of withoutIndexes.items as Json[]) delete item.index;
    withoutIndexes.benefits = [
      {
        value: 2.5,
        target: 'ITEM',
        targetId: 'item-burger',
        sponsorshipValues: [{ name: 'EXTERNAL', value: 2.5, description: 'Bank promo' }],
      },
    ];
    expect((mapIfoodOrder(withoutIndexes).order as Json).discounts).toEqual([
      {
        amount: 2.5,
        sponsor: 'PLATFORM',
        target: 'ITEM',
        productIndex: 0,
        description: 'iFood benefit sponsored by EXTERNAL: Bank promo',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'EXTERNAL', detail: 'Bank promo' },
      },
    ]);
  });

  it('DELIVERY_FEE: a discount on the fee, beside the fee iFood delivers', () => {
    const body = order({
      delivery: { deliveredBy: 'IFOOD' },
      total: { subTotal: 54, deliveryFee: 7.99, benefits: 5, orderAmount: 56.99 },
      benefits: [{ value: 5, target: 'DELIVERY_FEE', sponsorshipValues: [{ name: 'IFOOD', value: 5 }] }],
    });
    const mapped = mapIfoodOrder(body).order as Json;
    expect(mapped.discounts).toEqual([
      {
        amount: 5,
        sponsor: 'PLATFORM',
        target: 'DELIVERY_FEE',
        description: 'iFood benefit sponsored by IFOOD',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD' },
      },
    ]);
    expect(mapped.deliveryFee).toEqual({ amount: 7.99, deliveredBy: 'PLATFORM' });
  });

  it('sponsors that are not a list or a malformed value: 400 naming the path (a target naming nothing is a warning)', () => {
    expect(
      problemsOf(
        order({
          benefits: [
            { value: 1, target: 'ITEM', targetId: '99', sponsorshipValues: [{ name: 'MERCHANT', value: 'one' }] },
            { value: 1, target: 'CART', sponsorshipValues: { name: 'IFOOD' } },
          ],
        }),
      ).map((problem) => problem.field),
    ).toEqual(['benefits[0].sponsorshipValues[0].value', 'benefits[1].sponsorshipValues']);
  });
});

describe('mapIfoodOrder: fees and order types', () => {
  it('a takeout order without a fee has no delivery fee', () => {
    const mapped = mapIfoodOrder(order({ orderType: 'TAKEOUT', takeout: { mode: 'DEFAULT' } })).order as Json;
    expect(mapped.type).toBe('TAKEOUT');
    expect(mapped.deliveryFee).toBeUndefined();
    expect(mapped.otherCharges).toBeUndefined();
  });

  it('a fee without deliveredBy is a 400 naming delivery.deliveredBy', () => {
    expect(problemsOf(order({ total: { deliveryFee: 5 } }))).toEqual([
      { field: 'delivery.deliveredBy', problem: 'is required when total.deliveryFee is above 0 (MERCHANT or IFOOD)' },
    ]);
  });
});

describe('mapIfoodOrder: fields it does not know, and malformed orders', () => {
  it('keeps unknown fields (root at the root, all of them in sourceOrder) without an error', () => {
    const body = order({ someNewField: { nested: [1, 2] }, displayId: '1234' });
    (body.items as Json[])[0].newFlag = true;
    const mapped = mapIfoodOrder(body);
    expect(mapped.someNewField).toEqual({ nested: [1, 2] });
    expect(mapped.displayId).toBe('1234');
    expect((mapped.sourceOrder as Json).items[0].newFlag).toBe(true);
    expect(mapped.sourceOrder).toBe(body);
  });

  it("an iFood field named like the service's own stays only in sourceOrder", () => {
    const mapped = mapIfoodOrder(order({ orderId: 'spoofed', store: { id: 'other' } }));
    expect(mapped.orderId).toBe('ifood-order-1');
    expect(mapped.store).toEqual({ id: 'store-1', name: 'Store' });
    expect((mapped.sourceOrder as Json).orderId).toBe('spoofed');
  });

  it('names every path of iFood body that is wrong', () => {
    expect(problemsOf({ merchant: {}, items: 'none' }).map((problem) => problem.field)).toEqual(['id', 'merchant.id', 'items']);
    const body = order();
    (body.items as Json[])[0].unitPrice = 'twenty';
    (body.items as Json[])[0].options[0].price = -1;
    (body.items as Json[])[1].quantity = 0;
    body.additionalFees = [{ type: 'SMALL_ORDER_FEE', value: 'x' }];
    expect(problemsOf(body).map((problem) => problem.field)).toEqual([
      'items[0].unitPrice',
      'items[0].options[0].price',
      'items[1].quantity',
      'additionalFees[0].value',
    ]);
    expect(() => mapIfoodOrder([])).toThrow(ApiError);
  });

  it('numeric text with more than 20 digits before the point or 30 after it: 400 naming the path, nothing multiplied', () => {
    const body = order();
    (body.items as Json[])[0].quantity = `0.${'3'.repeat(300_000)}`;
    (body.items as Json[])[1].unitPrice = '1'.repeat(21);
    expect(problemsOf(body)).toEqual([
      { field: 'items[0].quantity', problem: TEXT_DIGITS_PROBLEM },
      { field: 'items[1].unitPrice', problem: TEXT_DIGITS_PROBLEM },
    ]);
  });
});
