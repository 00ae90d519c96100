/**
 * An Open Delivery order on the demo store and products (see SEED_DEMO_DATA), delivered by the store. Money as
 * `{value, currency}`. Items: 25.90 × 2 + 3.50 × 1 × 2 (cheese on each burger) + 14.90 × 1 = 73.70 (`itemsPrice`);
 * the 10.00 coupon is 6.00 the store's and 4.00 the marketplace's; the marketplace's 1.99 service fee is its own.
 */
export const OPEN_DELIVERY_ORDER_EXAMPLE = {
  id: '4818e72f-2304-466f-9fe7-af08f34ac4ed',
  type: 'DELIVERY',
  displayId: '12345',
  createdAt: '2026-11-21T15:19:28.715Z',
  orderTiming: 'INSTANT',
  merchant: { id: 'demo-store-1', name: 'Demo Burger House - Paulista' },
  items: [
    {
      id: '732bd31e-77fc-47ee-88ee-a0437f97b198',
      index: 0,
      name: 'Classic burger',
      externalCode: 'demo-burger',
      unit: 'UNIT',
      quantity: 2,
      unitPrice: { value: 25.9, currency: 'BRL' },
      optionsPrice: { value: 7, currency: 'BRL' },
      totalPrice: { value: 58.8, currency: 'BRL' },
      options: [
        {
          id: 'e5232f14-430c-4a94-8ff6-289d5a16a87a',
          name: 'Extra cheese',
          externalCode: 'demo-extra-cheese',
          unit: 'UNIT',
          quantity: 1,
          unitPrice: { value: 3.5, currency: 'BRL' },
          price: { value: 3.5, currency: 'BRL' },
        },
      ],
    },
    {
      id: '9a2b5f0e-4c1d-4e8b-9f3a-2d6c7e8f9a0b',
      index: 1,
      name: 'French fries',
      externalCode: 'demo-fries',
      unit: 'UNIT',
      quantity: 1,
      unitPrice: { value: 14.9, currency: 'BRL' },
      totalPrice: { value: 14.9, currency: 'BRL' },
      options: [],
    },
  ],
  otherFees: [
    { name: 'Delivery', type: 'DELIVERY_FEE', receivedBy: 'MERCHANT', price: { value: 8.9, currency: 'BRL' } },
    { name: 'Service fee', type: 'SERVICE_FEE', receivedBy: 'MARKETPLACE', price: { value: 1.99, currency: 'BRL' } },
    { name: 'Tip', type: 'TIP', receivedBy: 'LOGISTIC_SERVICES', price: { value: 3, currency: 'BRL' } },
  ],
  discounts: [
    {
      amount: { value: 10, currency: 'BRL' },
      target: 'CART',
      sponsorshipValues: [
        { name: 'MERCHANT', amount: { value: 6, currency: 'BRL' } },
        { name: 'MARKETPLACE', amount: { value: 4, currency: 'BRL' } },
      ],
    },
  ],
  total: {
    itemsPrice: { value: 73.7, currency: 'BRL' },
    otherFees: { value: 13.89, currency: 'BRL' },
    discount: { value: 10, currency: 'BRL' },
    orderAmount: { value: 77.59, currency: 'BRL' },
  },
  payments: { prepaid: 77.59, pending: 0, methods: [{ value: 77.59, currency: 'BRL', method: 'CREDIT', type: 'ONLINE' }] },
  customer: {
    id: 'd9730653-a8ba-4e85-8dbb-b5697e6ae8d5',
    phone: { number: '11999990000' },
    documentNumber: '00000000000',
    name: 'Ana Souza',
  },
  delivery: {
    deliveredBy: 'MERCHANT',
    deliveryAddress: {
      country: 'BR',
      state: 'SP',
      city: 'São Paulo',
      district: 'Bela Vista',
      streetName: 'Avenida Paulista',
      streetNumber: '1000',
      postalCode: '01310-100',
      coordinates: { latitude: -23.5651, longitude: -46.6519 },
    },
  },
};

/** The same order as Keeta sends it: wrapped in `{code, message, data}`. */
export const KEETA_ORDER_EXAMPLE = { code: 0, message: 'success', data: OPEN_DELIVERY_ORDER_EXAMPLE };
