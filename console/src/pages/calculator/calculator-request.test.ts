import { describe, expect, it } from 'vitest';
import {
  adjustmentsOf,
  amountOf,
  calculationRequest,
  emptyAdjustments,
  formFieldOf,
  lineChoicesOf,
  newDiscount,
  newOtherCharge,
  storeIdOf,
  withStoreId,
  type AdjustmentValues,
} from './calculator-request';

const order = {
  orderId: 'CALC-1',
  store: { id: 'store-1' },
  order: {
    type: 'DELIVERY',
    products: [
      { productId: 'burger', name: 'Burger', price: { totalPrice: { total: 30 } } },
      { productId: 'fries', price: { totalPrice: { total: 20 } } },
    ],
  },
};

const filled = (): AdjustmentValues => ({
  discounts: [
    { ...newDiscount(), amount: '6.00', description: ' Coupon BEMVINDO ' },
    { ...newDiscount(), amount: '5', sponsor: 'PLATFORM' },
    { ...newDiscount(), amount: '2,50', target: 'ITEM', productIndex: '1' },
  ],
  deliveryFee: { amount: '9', deliveredBy: 'MERCHANT' },
  serviceCharge: { amount: '10.01' },
  otherCharges: [{ ...newOtherCharge(), amount: '1.50', description: 'Packaging' }],
});

describe('amountOf', () => {
  it('reads a number, with a decimal point or comma; keeps other text for the API to refuse; blank is none', () => {
    expect(amountOf('6.00')).toBe(6);
    expect(amountOf(' 2,50 ')).toBe(2.5);
    expect(amountOf('10')).toBe(10);
    expect(amountOf('-1')).toBe(-1);
    expect(amountOf('1.234,56')).toBe('1.234,56');
    expect(amountOf('abc')).toBe('abc');
    expect(amountOf('  ')).toBeUndefined();
  });
});

describe('adjustmentsOf', () => {
  it('is empty for an empty form', () => {
    expect(adjustmentsOf(emptyAdjustments())).toEqual({});
  });

  it('writes discounts (the line only for ITEM), the fee with who delivers, the service charge and other charges', () => {
    expect(adjustmentsOf(filled())).toEqual({
      discounts: [
        { amount: 6, sponsor: 'MERCHANT', target: 'ITEMS', description: 'Coupon BEMVINDO' },
        { amount: 5, sponsor: 'PLATFORM', target: 'ITEMS' },
        { amount: 2.5, sponsor: 'MERCHANT', target: 'ITEM', productIndex: 1 },
      ],
      deliveryFee: { amount: 9, deliveredBy: 'MERCHANT' },
      serviceCharge: { amount: 10.01 },
      otherCharges: [{ amount: 1.5, chargedBy: 'MERCHANT', description: 'Packaging' }],
    });
  });

  it('sends a half-filled row, so that the index the API names is the row of the form; no fee without an amount', () => {
    const values = { ...emptyAdjustments(), discounts: [newDiscount(), { ...newDiscount(), amount: 'x' }] };
    values.deliveryFee = { amount: ' ', deliveredBy: 'PLATFORM' };
    expect(adjustmentsOf(values)).toEqual({
      discounts: [
        { sponsor: 'MERCHANT', target: 'ITEMS' },
        { amount: 'x', sponsor: 'MERCHANT', target: 'ITEMS' },
      ],
    });
  });
});

describe('calculationRequest', () => {
  it('sends the typed order as it is, a dry run, when the form is empty', () => {
    const request = calculationRequest('order', order, emptyAdjustments());
    expect(request).toEqual({ query: { dryRun: true }, body: order });
  });

  it("puts the form's fields under order, replacing the same fields and keeping the others, without changing the typed order", () => {
    const typed = { ...order, order: { ...order.order, discounts: [{ amount: 99 }], serviceCharge: { amount: 1 } } };
    const values = { ...emptyAdjustments(), discounts: [{ ...newDiscount(), amount: '6' }] };
    const { query, body } = calculationRequest('order', typed, values);
    expect(query).toEqual({ dryRun: true });
    expect(body.order).toEqual({
      ...order.order,
      discounts: [{ amount: 6, sponsor: 'MERCHANT', target: 'ITEMS' }],
      serviceCharge: { amount: 1 },
    });
    expect(typed.order.discounts).toEqual([{ amount: 99 }]);
  });

  it('finds the order under payload when the body is wrapped', () => {
    const { body } = calculationRequest('order', { payload: order }, { ...emptyAdjustments(), serviceCharge: { amount: '5' } });
    expect((body.payload as typeof order & { order: object }).order).toMatchObject({ serviceCharge: { amount: 5 } });
    expect(body.order).toBeUndefined();
  });

  it("sends an iFood order as it is with ?profile=ifood, leaving the form's fields out", () => {
    const ifood = { id: 'abc', merchant: { id: 'store-1' }, items: [], benefits: [] };
    expect(calculationRequest('ifood', ifood, filled())).toEqual({ query: { dryRun: true, profile: 'ifood' }, body: ifood });
  });
});

describe('the store of each shape', () => {
  it("reads and writes store.id in the platform's order, merchant.id in iFood's", () => {
    expect(storeIdOf('order', order)).toBe('store-1');
    expect(storeIdOf('order', { payload: { store: { id: 7 } } })).toBe('7');
    expect(storeIdOf('ifood', { merchant: { id: 'm-1' } })).toBe('m-1');
    expect(storeIdOf('ifood', order)).toBe('');
    expect(withStoreId('order', order, 'store-2').store).toEqual({ id: 'store-2' });
    expect(withStoreId('ifood', { merchant: { id: 'm-1', name: 'Loja' } }, 'm-2').merchant).toEqual({ id: 'm-2', name: 'Loja' });
    expect(withStoreId('ifood', {}, 'm-3').merchant).toEqual({ id: 'm-3' });
  });
});

describe('lineChoicesOf', () => {
  it('offers each line by number and name (or product id)', () => {
    expect(lineChoicesOf(order)).toEqual([
      { value: '0', label: '1. Burger' },
      { value: '1', label: '2. fries' },
    ]);
    expect(lineChoicesOf(undefined)).toEqual([]);
    expect(lineChoicesOf({ order: { products: [null] } })).toEqual([{ value: '0', label: '1' }]);
  });
});

describe('formFieldOf', () => {
  it("names the form's field of a problem the API reports on the order's money fields", () => {
    expect(formFieldOf('order.discounts[1].sponsor')).toBe('discounts.1.sponsor');
    expect(formFieldOf('payload.order.otherCharges[0].amount')).toBe('otherCharges.0.amount');
    expect(formFieldOf('order.discounts[2]')).toBe('discounts.2.amount');
    expect(formFieldOf('order.deliveryFee.deliveredBy')).toBe('deliveryFee.deliveredBy');
    expect(formFieldOf('order.serviceCharge')).toBe('serviceCharge.amount');
  });

  it('names none for the rest of the order', () => {
    expect(formFieldOf('orderId')).toBeUndefined();
    expect(formFieldOf('order.products[0].price')).toBeUndefined();
    expect(formFieldOf('items[0].quantity')).toBeUndefined();
  });
});
