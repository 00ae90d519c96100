/**
 * The order the calculator starts with: the API's documented example (the demo store's menu),
 * with the store asked for in the URL, so "try this group" links open ready to run.
 */
export function exampleOrder(storeId: string | null): Record<string, unknown> {
  return {
    orderId: 'CALC-0001',
    source: 'console',
    createdAt: new Date().toISOString(),
    store: { id: storeId ?? 'demo-store-1', name: 'Store' },
    order: {
      type: 'DELIVERY',
      products: [
        {
          productId: 'demo-burger',
          name: 'Classic burger',
          quantity: 2,
          price: { unitPrice: { total: 25.9 }, totalPrice: { total: 51.8 } },
          modifierGroups: [
            {
              name: 'Extras',
              selectedModifiers: [
                { productId: 'demo-extra-cheese', name: 'Extra cheese', quantity: 2, price: { totalPrice: { total: 7 } } },
              ],
            },
          ],
        },
        { productId: 'demo-fries', name: 'French fries', quantity: 1, price: { unitPrice: { total: 14.9 }, totalPrice: { total: 14.9 } } },
        {
          productId: 'SKU-COLA-350',
          name: 'Cola can 350 ml',
          quantity: 2,
          price: { unitPrice: { total: 6.5 }, totalPrice: { total: 13 } },
        },
      ],
    },
    total: { items: 86.7, delivery: 0, orderAmount: 86.7 },
  };
}
