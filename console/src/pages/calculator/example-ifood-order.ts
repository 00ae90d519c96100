/**
 * The iFood order the calculator starts with in its iFood mode: the shape of iFood's order details
 * (`GET /order/v1.0/orders/{id}`) with the demo store's menu, a coupon shared by iFood and the
 * store, and a delivery by the store. iFood prices an option per unit of its item: the cheese's
 * 3.50 × 2 burgers = the item's optionsPrice 7.00.
 */
export function exampleIfoodOrder(storeId: string | null): Record<string, unknown> {
  return {
    id: '3f1c2b9e-6a41-4d2e-9c83-5b7e0d41a2c6',
    displayId: '4821',
    orderType: 'DELIVERY',
    orderTiming: 'IMMEDIATE',
    salesChannel: 'IFOOD',
    createdAt: new Date().toISOString(),
    merchant: { id: storeId ?? 'demo-store-1', name: 'Store' },
    delivery: { mode: 'DEFAULT', deliveredBy: 'MERCHANT' },
    items: [
      {
        index: 1,
        id: 'a1d9e0c4-1b2f-4c6a-8e3d-7f5a9b0c1d21',
        name: 'Classic burger',
        externalCode: 'demo-burger',
        unit: 'UN',
        quantity: 2,
        unitPrice: 25.9,
        price: 51.8,
        optionsPrice: 7,
        totalPrice: 58.8,
        options: [
          {
            index: 2,
            id: 'b7e3f1a2-5c4d-4e6f-9a8b-0c1d2e3f4a52',
            name: 'Extra cheese',
            externalCode: 'demo-extra-cheese',
            unit: 'UN',
            quantity: 1,
            unitPrice: 3.5,
            addition: 0,
            price: 3.5,
          },
        ],
      },
      {
        index: 3,
        id: 'c2f4a6b8-9d0e-4f1a-8b2c-3d4e5f6a7b83',
        name: 'French fries',
        externalCode: 'demo-fries',
        unit: 'UN',
        quantity: 1,
        unitPrice: 14.9,
        price: 14.9,
        optionsPrice: 0,
        totalPrice: 14.9,
      },
    ],
    benefits: [
      {
        value: 10,
        target: 'CART',
        sponsorshipValues: [
          { name: 'IFOOD', value: 5 },
          { name: 'MERCHANT', value: 5 },
        ],
      },
    ],
    // subTotal 58.80 + 14.90 = 73.70; orderAmount 73.70 + 6.99 − 10.00 = 70.69.
    total: { subTotal: 73.7, deliveryFee: 6.99, benefits: 10, additionalFees: 0, orderAmount: 70.69 },
    payments: {
      prepaid: 70.69,
      pending: 0,
      methods: [{ value: 70.69, currency: 'BRL', method: 'CREDIT', type: 'ONLINE', prepaid: true }],
    },
  };
}
