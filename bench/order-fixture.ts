import { DEMO_STORE_ID } from '../src/demo/demo-data.js';

/**
 * The categories the bench adds to the demo data for the products of `benchmarkOrder` that have none, each with an NCM
 * of the demo matrix: with them every line and paid modifier is taxed and its NFC-e can be printed (the free toy stays
 * without taxes, which leaves it out of the document).
 */
export const BENCH_CATEGORIES = [
  { productId: 'bacon-extra', productName: 'Bacon', ncm: '21069090' },
  { productId: 'cheddar-sauce', productName: 'Cheddar sauce', ncm: '04069000' },
  { productId: 'combo-kids', productName: 'Kids combo', ncm: '21069090' },
] as const;

/** A realistic restaurant order: 10 lines, several with selected modifiers, customer, delivery and payments (~4 KB). */
export function benchmarkOrder(orderId: string): Record<string, unknown> {
  const line = (productId: string, name: string, quantity: number, unit: number, modifiers: Array<[string, string, number]> = []) => ({
    id: `${orderId}-${productId}`,
    productId,
    name,
    quantity,
    observations: quantity > 1 ? 'Bem passado, sem cebola' : '',
    price: {
      unitPrice: { total: unit, currency: 'BRL' },
      totalPrice: { total: Math.round(unit * quantity * 100) / 100, currency: 'BRL' },
      discount: 0,
    },
    modifierGroups: modifiers.length
      ? [
          {
            id: 'extras',
            name: 'Adicionais',
            selectedModifiers: modifiers.map(([modifierId, modifierName, total]) => ({
              id: `${orderId}-${modifierId}`,
              productId: modifierId,
              name: modifierName,
              quantity: 1,
              price: { unitPrice: { total }, totalPrice: { total } },
            })),
          },
        ]
      : [],
  });
  return {
    orderId,
    source: 'ifood',
    createdAt: '2026-11-21T12:30:00-03:00',
    store: { id: DEMO_STORE_ID, name: 'Demo Burger House - Paulista', merchantId: 'b2f1c0d4-7a33-4c5e-8d9e-0f1a2b3c4d5e' },
    customer: {
      id: 'c-98127',
      name: 'Ana Beatriz de Souza',
      email: 'ana.souza@example.com',
      phone: '+55 11 98765-4321',
      documentNumber: '123.456.789-09',
      ordersCountOnMerchant: 12,
    },
    delivery: {
      mode: 'DEFAULT',
      deliveredBy: 'MERCHANT',
      deliveryDateTime: '2026-11-21T13:15:00-03:00',
      address: {
        streetName: 'Avenida Paulista',
        streetNumber: '1578',
        complement: 'Apto 142, bloco B',
        neighborhood: 'Bela Vista',
        city: 'São Paulo',
        state: 'SP',
        postalCode: '01310-200',
        coordinates: { latitude: -23.561414, longitude: -46.655881 },
      },
    },
    order: {
      type: 'DELIVERY',
      products: [
        line('demo-burger', 'Classic burger', 2, 25.9, [
          ['demo-extra-cheese', 'Extra cheese', 3.5],
          ['bacon-extra', 'Bacon', 4.5],
        ]),
        line('demo-burger', 'Classic burger (no onion)', 1, 25.9, [['demo-extra-cheese', 'Extra cheese', 3.5]]),
        line('demo-fries', 'French fries large', 2, 14.9),
        line('demo-fries', 'French fries small', 1, 9.9, [['cheddar-sauce', 'Cheddar sauce', 2.5]]),
        line('SKU-COLA-350', 'Cola can 350 ml', 3, 6.5),
        line('demo-water', 'Mineral water 500 ml', 1, 4.5),
        line('demo-beer', 'Lager beer 355 ml', 2, 9.9),
        line('demo-brownie', 'Chocolate brownie', 1, 12.5, [['demo-ice-cream', 'Scoop of ice cream', 6]]),
        line('demo-ice-cream', 'Vanilla ice cream', 2, 9),
        line('combo-kids', 'Kids combo', 1, 29.9, [['toy', 'Toy', 0]]),
      ],
      benefits: [{ value: 5, target: 'CART', sponsorshipValues: [{ name: 'IFOOD', value: 5 }] }],
    },
    total: { subTotal: 252.8, deliveryFee: 7.99, benefits: 5, orderAmount: 255.79, additionalFees: 0 },
    payments: [{ method: 'CREDIT', type: 'ONLINE', brand: 'VISA', value: 255.79, currency: 'BRL', prepaid: true }],
    additionalInfo: { metadata: { developerId: 'pos-integration-42', channel: 'app', device: 'ios' } },
  };
}

interface BenchLine {
  id: string;
  productId: string;
  name: string;
  quantity: number;
  observations: string;
  price: { unitPrice: { total: number } };
  modifierGroups: Array<{
    selectedModifiers: Array<{ id: string; productId: string; name: string; price: { totalPrice: { total: number } } }>;
  }>;
}

/**
 * The same order as Rappi sends it (`?profile=rappi`): the same lines and modifiers (a subitem's price is per unit of
 * its item), the store delivering its 7.99 fee, Rappi paying the 5.00 coupon back. Taxed, it gives the same lines.
 * Its totals are those of its lines (241.60 of products, 244.59 to pay), as a marketplace states them: the mapping
 * finds nothing to warn about.
 */
export function benchmarkRappiOrder(orderId: string): Record<string, unknown> {
  const order = benchmarkOrder(orderId) as {
    order: { products: BenchLine[] };
    customer: Record<string, unknown>;
    delivery: { address: Record<string, unknown> };
  };
  const items = order.order.products.map((line) => ({
    sku: line.productId,
    id: line.id,
    name: line.name,
    type: 'PRODUCT',
    comments: line.observations,
    price: line.price.unitPrice.total,
    quantity: line.quantity,
    subitems: line.modifierGroups.flatMap((group) =>
      group.selectedModifiers.map((modifier) => ({
        sku: modifier.productId,
        id: modifier.id,
        name: modifier.name,
        type: 'TOPPING',
        price: Math.round((modifier.price.totalPrice.total / line.quantity) * 100) / 100,
        quantity: 1,
      })),
    ),
  }));
  return {
    order_detail: {
      order_id: orderId,
      cooking_time: 15,
      created_at: '2026-11-21T15:30:00.000Z',
      delivery_method: 'marketplace',
      payment_method: 'cc',
      delivery_information: order.delivery.address,
      totals: {
        total_products: 241.6,
        total_discounts: 5,
        total_order: 244.59,
        total_to_pay: 244.59,
        discount_by_support: 0,
        charges: { shipping: 7.99, service_fee: 0 },
        other_totals: { tip: 0, total_rappi_pay: 0, total_rappi_credits: 0 },
      },
      items,
      discounts: [
        { value: 5, title: 'Cupom Rappi', type: 'coupon', sku: null, product_id: null, amount_by_rappi: 5, amount_by_partner: 0 },
      ],
    },
    customer: { first_name: 'Ana Beatriz', last_name: 'de Souza', phone_number: '11987654321', document_number: '12345678909' },
    store: { internal_id: '30000011', external_id: DEMO_STORE_ID, name: 'Demo Burger House - Paulista' },
  };
}
