import { ApiError } from '../../common/errors/api-error.js';
import { OpenBodyPipe } from '../../common/http/open-body.js';
import { NEW_ORDER_BODY, NewOrderRequestDto } from './new-order.dto.js';
import { toNewOrder } from './new-order.mapper.js';

const valid = () => ({
  order_id: 'PLT-1',
  status: 'NEW',
  customer: { id: 'C-1', name: 'Ana', email: 'ana@example.com.br' },
  items: [{ product_id: 'burger-01', quantity: 2, price: 25.9 }],
  total: 51.8,
});

/** The pipe of the route. */
const read = (body: unknown) => new OpenBodyPipe(NewOrderRequestDto, NEW_ORDER_BODY).transform(body);

async function problemsOf(body: unknown): Promise<string[]> {
  const error = await read(body).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ApiError);
  return ((error as ApiError).details ?? []).map((detail) => `${detail.field}: ${detail.problem}`);
}

describe('NewOrderRequestDto', () => {
  it('reads a valid body: the body kept as it is, the status as its label', async () => {
    const body = { ...valid(), extra: { kept: true } };
    expect(toNewOrder(await read(body))).toEqual({ orderId: 'PLT-1', label: 'NEW', storeId: null, payload: body });
  });

  it('keeps a numeric order_id as text and the store id', async () => {
    expect(toNewOrder(await read({ ...valid(), order_id: 98765, status: 'ACCEPTED', store: { id: 1201 } }))).toMatchObject({
      orderId: '98765',
      label: 'ACCEPTED',
      storeId: '1201',
    });
  });

  it('ignores a store id that is not an id, a blank status and keeps unknown properties of items', async () => {
    const body = { ...valid(), status: ' ', store: { id: 'x'.repeat(101) }, items: [{ quantity: 1, price: 0, notes: 'sem cebola' }] };
    expect(toNewOrder(await read(body))).toEqual({ orderId: 'PLT-1', label: undefined, storeId: null, payload: body });
  });

  it('accepts a price and a total of 0', async () => {
    await expect(read({ ...valid(), items: [{ product_id: 'x', quantity: 1, price: 0 }], total: 0 })).resolves.toBeDefined();
  });

  it.each([
    ['no order_id', { order_id: undefined }, 'order_id: is required'],
    ['a null order_id', { order_id: null }, 'order_id: is required'],
    ['an empty order_id', { order_id: '' }, 'order_id: must be a non-empty string or a non-negative integer'],
    ['a blank order_id', { order_id: '   ' }, 'order_id: must be a non-empty string or a non-negative integer'],
    ['an object order_id', { order_id: { id: 1 } }, 'order_id: must be a non-empty string or a non-negative integer'],
    ['a negative order_id', { order_id: -1 }, 'order_id: must be a non-empty string or a non-negative integer'],
    ['a 101-character order_id', { order_id: 'x'.repeat(101) }, 'order_id: must have at most 100 characters'],
    ['a non-string status', { status: 3 }, 'status: must be a string'],
    ['no customer', { customer: undefined }, 'customer: is required and must be an object'],
    ['a customer that is not an object', { customer: 'Ana' }, 'customer: is required and must be an object'],
    ['no customer.email', { customer: { name: 'Ana' } }, 'customer.email: is required'],
    ['a bad customer.email', { customer: { email: 'ana.example.com' } }, 'customer.email: must be an e-mail address'],
    ['an e-mail without a domain dot', { customer: { email: 'ana@example' } }, 'customer.email: must be an e-mail address'],
    ['an e-mail that is not text', { customer: { email: 42 } }, 'customer.email: must be an e-mail address'],
    ['a blank customer.id', { customer: { id: ' ', email: 'ana@example.com' } }, 'customer.id: must be a non-empty string or a number'],
    ['a non-string customer.name', { customer: { name: 1, email: 'ana@example.com' } }, 'customer.name: must be a string'],
    ['no items', { items: undefined }, 'items: is required and must be an array'],
    ['items not an array', { items: { 0: {} } }, 'items: is required and must be an array'],
    ['empty items', { items: [] }, 'items: must not be empty'],
    ['an item not an object', { items: ['burger'] }, 'items[0]: must be an object'],
    [
      'an object product_id',
      { items: [{ product_id: {}, quantity: 1, price: 1 }] },
      'items[0].product_id: must be a non-empty string or a number',
    ],
    ['quantity 0', { items: [{ product_id: 'x', quantity: 0, price: 1 }] }, 'items[0].quantity: must be a number greater than 0'],
    ['quantity as text', { items: [{ product_id: 'x', quantity: '1', price: 1 }] }, 'items[0].quantity: must be a number greater than 0'],
    [
      'a negative price',
      { items: [{ product_id: 'x', quantity: 1, price: -0.01 }] },
      'items[0].price: must be a number greater than or equal to 0',
    ],
    ['no total', { total: undefined }, 'total: must be a number greater than or equal to 0'],
    ['a total as text', { total: '58.30' }, 'total: must be a number greater than or equal to 0'],
    ['a negative total', { total: -1 }, 'total: must be a number greater than or equal to 0'],
  ])('refuses %s', async (_label, change, expected) => {
    expect(await problemsOf({ ...valid(), ...change })).toEqual([expected]);
  });

  it('lists every problem at once, one per field', async () => {
    expect(await problemsOf({ order_id: '', customer: {}, items: [{ quantity: -1, price: -1 }], total: -1 })).toEqual([
      'order_id: must be a non-empty string or a non-negative integer',
      'customer.email: is required',
      'items[0].quantity: must be a number greater than 0',
      'items[0].price: must be a number greater than or equal to 0',
      'total: must be a number greater than or equal to 0',
    ]);
  });

  it('refuses a body that is not an object', async () => {
    for (const body of [[valid()], 'x', null]) {
      await expect(read(body)).rejects.toThrow('The body must be a JSON object');
    }
  });
});
