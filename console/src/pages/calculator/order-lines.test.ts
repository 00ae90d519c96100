import { describe, expect, it } from 'vitest';
import { linesOf, newLine, withLines } from './order-lines';

const order = {
  orderId: 'O-1',
  store: { id: 's1' },
  order: {
    type: 'DELIVERY',
    products: [
      {
        productId: 'burger',
        name: 'Burger',
        quantity: 2,
        price: { unitPrice: { total: 25.9 }, totalPrice: { total: 51.8 } },
        modifierGroups: [
          { name: 'Extras', selectedModifiers: [{ productId: 'cheese', quantity: 1, price: { totalPrice: { total: 3 } } }] },
        ],
      },
    ],
  },
  total: { items: 54.8, orderAmount: 54.8 },
};

describe('the calculator’s lines', () => {
  it('reads each product as a line and writes it back unchanged, modifiers and price kept, the stale total left out', () => {
    const lines = linesOf(order);
    expect(lines.map(({ productId, name, quantity, unitPrice }) => ({ productId, name, quantity, unitPrice }))).toEqual([
      { productId: 'burger', name: 'Burger', quantity: '2', unitPrice: '25.9' },
    ]);
    const { total, ...rest } = order;
    expect(total).toBeDefined();
    expect(withLines(order, lines)).toEqual(rest);
  });

  it('sends a changed quantity or unit price as the unit price (a decimal comma read), which the API multiplies', () => {
    const [burger] = linesOf(order);
    const body = withLines(order, [{ ...burger!, quantity: '3', unitPrice: '12,50' }]);
    const product = (body.order as { products: Record<string, unknown>[] }).products[0]!;
    expect(product.quantity).toBe(3);
    expect(product.price).toEqual({ unitPrice: { total: 12.5 } });
    expect(product.modifierGroups).toEqual(order.order.products[0]!.modifierGroups);
  });

  it('makes a product of a new line, and keeps text that is not a number for the API to refuse at its path', () => {
    const line = { ...newLine(), productId: ' fries ', name: 'Fries', quantity: 'two', unitPrice: '9.90' };
    const body = withLines({ payload: order }, [line]);
    expect((body.payload as typeof order).order.products).toEqual([
      { productId: 'fries', name: 'Fries', quantity: 'two', price: { unitPrice: { total: 9.9 } } },
    ]);
  });
});
