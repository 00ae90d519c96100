import { ApiError } from '../common/errors/api-error.js';
import { readNewOrder } from './new-order.validation.js';

const valid = () => ({
  order_id: 'PLT-1',
  status: 'NEW',
  customer: { id: 'C-1', name: 'Ana', email: 'ana@example.com.br' },
  items: [{ product_id: 'burger-01', quantity: 2, price: 25.9 }],
  total: 51.8,
});

function problemsOf(body: unknown): string[] {
  try {
    readNewOrder(body);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return ((error as ApiError).details ?? []).map((detail) => `${detail.field}: ${detail.problem}`);
  }
  throw new Error('expected a validation error');
}

describe('readNewOrder', () => {
  it('reads a valid body: RECEIVED for a status that is not an order status, the body kept as it is', () => {
    const body = { ...valid(), extra: { kept: true } };
    expect(readNewOrder(body)).toEqual({ orderId: 'PLT-1', status: 'RECEIVED', label: 'NEW', storeId: null, payload: body });
  });

  it('keeps a sent order status, a numeric order_id as text and the store id', () => {
    expect(readNewOrder({ ...valid(), order_id: 98765, status: 'ACCEPTED', store: { id: 1201 } })).toMatchObject({
      orderId: '98765',
      status: 'ACCEPTED',
      storeId: '1201',
    });
  });

  it('accepts a price and a total of 0', () => {
    expect(() => readNewOrder({ ...valid(), items: [{ product_id: 'x', quantity: 1, price: 0 }], total: 0 })).not.toThrow();
  });

  it.each([
    ['no order_id', { order_id: undefined }, 'order_id: is required'],
    ['an empty order_id', { order_id: '' }, 'order_id: must be a non-empty string or a non-negative integer'],
    ['a blank order_id', { order_id: '   ' }, 'order_id: must be a non-empty string or a non-negative integer'],
    ['an object order_id', { order_id: { id: 1 } }, 'order_id: must be a non-empty string or a non-negative integer'],
    ['a 101-character order_id', { order_id: 'x'.repeat(101) }, 'order_id: must have at most 100 characters'],
    ['a non-string status', { status: 3 }, 'status: must be a string'],
    ['no customer', { customer: undefined }, 'customer: is required and must be an object'],
    ['no customer.email', { customer: { name: 'Ana' } }, 'customer.email: is required'],
    ['a bad customer.email', { customer: { email: 'ana.example.com' } }, 'customer.email: must be an e-mail address'],
    ['an e-mail without a domain dot', { customer: { email: 'ana@example' } }, 'customer.email: must be an e-mail address'],
    ['no items', { items: undefined }, 'items: is required and must be an array'],
    ['empty items', { items: [] }, 'items: must not be empty'],
    ['quantity 0', { items: [{ product_id: 'x', quantity: 0, price: 1 }] }, 'items[0].quantity: must be a number greater than 0'],
    ['quantity as text', { items: [{ product_id: 'x', quantity: '1', price: 1 }] }, 'items[0].quantity: must be a number greater than 0'],
    [
      'a negative price',
      { items: [{ product_id: 'x', quantity: 1, price: -0.01 }] },
      'items[0].price: must be a number greater than or equal to 0',
    ],
    ['no total', { total: undefined }, 'total: must be a number greater than or equal to 0'],
    ['a negative total', { total: -1 }, 'total: must be a number greater than or equal to 0'],
  ])('refuses %s', (_label, change, expected) => {
    expect(problemsOf({ ...valid(), ...change })).toEqual([expected]);
  });

  it('lists every problem at once', () => {
    expect(problemsOf({ order_id: '', customer: {}, items: [{ quantity: -1, price: -1 }], total: -1 })).toHaveLength(5);
  });

  it('refuses a body that is not an object', () => {
    expect(() => readNewOrder([valid()])).toThrow(ApiError);
    expect(() => readNewOrder('x')).toThrow(ApiError);
  });
});
