import { DEMO_STORE_ID } from '../src/demo/demo-data.js';

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
