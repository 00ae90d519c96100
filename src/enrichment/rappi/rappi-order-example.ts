/**
 * A Rappi order (the `NEW_ORDER` webhook's body) on the demo store and products (see SEED_DEMO_DATA), delivered by
 * the store (`delivery_method` marketplace). Money in reais. `total_products` = 25.90 × 2 + 3.50 × 1 × 2 (the
 * cheese on each burger) + 6.50 × 2 = 71.80; the store pays the 5.00 burger offer, Rappi the 2.00 off shipping.
 */
export const RAPPI_ORDER_EXAMPLE = {
  order_detail: {
    order_id: '392625',
    cooking_time: 10,
    created_at: '2026-11-21T15:19:28.000Z',
    delivery_method: 'marketplace',
    payment_method: 'cc',
    totals: {
      total_products: 71.8,
      total_discounts: 7,
      total_order: 79.69,
      total_to_pay: 79.69,
      discount_by_support: 0,
      charges: { shipping: 7.9, service_fee: 1.99 },
      other_totals: { tip: 3, total_rappi_pay: 0, total_rappi_credits: 0 },
    },
    items: [
      {
        sku: 'demo-burger',
        id: '2089918083',
        name: 'Classic burger',
        type: 'PRODUCT',
        comments: 'No onions',
        price: 25.9,
        quantity: 2,
        subitems: [{ sku: 'demo-extra-cheese', id: '10005260', name: 'Extra cheese', type: 'TOPPING', price: 3.5, quantity: 1 }],
      },
      {
        sku: 'SKU-COLA-350',
        id: '2089918082',
        name: 'Cola can 350 ml',
        type: 'PRODUCT',
        comments: '',
        price: 6.5,
        quantity: 2,
        subitems: [],
      },
    ],
    discounts: [
      {
        value: 5,
        title: 'R$ 5 off the burger',
        product_id: null,
        sku: 'demo-burger',
        type: 'offer_by_product',
        amount_by_rappi: 0,
        amount_by_partner: 5,
      },
      { value: 2, title: 'R$ 2 off shipping', product_id: null, sku: null, type: 'shipping', amount_by_rappi: 2, amount_by_partner: 0 },
    ],
  },
  customer: { first_name: 'Ana', last_name: 'Souza', phone_number: '11999990000', document_number: '00000000000' },
  store: { internal_id: '30000011', external_id: 'demo-store-1', name: 'Demo Burger House - Paulista' },
};
