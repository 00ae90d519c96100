import { DEMO_GROUP_EXTERNAL_ID, DEMO_PRODUCTS, DEMO_TAX_MATRIX } from './demo-data.js';
import { DefaultTaxEngine } from '../tax-engine/default-tax-engine.js';

/** A restaurant order as the platform sends it, on the demo store and products (see SEED_DEMO_DATA). */
export const ORDER_EXAMPLE = {
  orderId: 'ORD-2026-000123',
  source: 'ifood',
  createdAt: '2026-11-21T12:30:00-03:00',
  store: { id: 'demo-store-1', name: 'Demo Burger House - Paulista' },
  customer: { id: 'c-981', name: 'Ana Souza', email: 'ana@example.com' },
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
            selectedModifiers: [{ productId: 'demo-extra-cheese', name: 'Extra cheese', quantity: 2, price: { totalPrice: { total: 7 } } }],
          },
        ],
      },
      { productId: 'demo-fries', name: 'French fries', quantity: 1, price: { unitPrice: { total: 14.9 }, totalPrice: { total: 14.9 } } },
      { productId: 'SKU-COLA-350', name: 'Cola can 350 ml', quantity: 2, price: { unitPrice: { total: 6.5 }, totalPrice: { total: 13 } } },
      {
        productId: 'demo-brownie',
        name: 'Chocolate brownie',
        quantity: 1,
        price: { unitPrice: { total: 12.5 }, totalPrice: { total: 12.5 } },
      },
    ],
  },
  payments: [{ method: 'CREDIT_CARD', value: 99.2 }],
  total: { items: 99.2, delivery: 7.99, orderAmount: 107.19 },
};

/**
 * ORDER_EXAMPLE with order-level amounts: a 5.00 coupon the store grants (split to the items as vDesc), a 7.99
 * delivery fee the store bills because it delivers (split as vFrete) and a 10.00 discount the platform pays back to
 * the store (off the invoice, in `taxSummary.thirdPartyPayments`). The customer pays 99.20 + 7.99 − 15.00 = 92.19.
 */
export const ORDER_WITH_ADJUSTMENTS_EXAMPLE = {
  ...ORDER_EXAMPLE,
  orderId: 'ORD-2026-000124',
  order: {
    ...ORDER_EXAMPLE.order,
    discounts: [
      { amount: 5, sponsor: 'MERCHANT', target: 'ITEMS', description: 'Store coupon BEMVINDO5' },
      { amount: 10, sponsor: 'PLATFORM', target: 'ITEMS', description: 'Platform campaign' },
    ],
    deliveryFee: { amount: 7.99, deliveredBy: 'MERCHANT' },
  },
  payments: [{ method: 'CREDIT_CARD', value: 92.19 }],
  total: { items: 99.2, delivery: 7.99, discounts: 15, orderAmount: 92.19 },
};

/** What enrichment returns for ORDER_EXAMPLE on the demo fiscal group, computed by the engine itself. */
export const ENRICHED_ORDER_EXAMPLE = new DefaultTaxEngine().enrich({
  group: {
    id: '3b0f6c1e-8d2a-4f5b-9c7e-1a2b3c4d5e6f',
    externalId: DEMO_GROUP_EXTERNAL_ID,
    uf: 'SP',
    taxRegime: 'LUCRO_PRESUMIDO',
    taxMatrix: DEMO_TAX_MATRIX,
    settings: {},
  },
  categories: {
    byProductId: new Map(DEMO_PRODUCTS.map((product) => [product.productId, product.ncm])),
    byExternalProductId: new Map(
      DEMO_PRODUCTS.filter((product) => product.externalProductId).map((product) => [product.externalProductId!, product.ncm]),
    ),
  },
  payload: ORDER_EXAMPLE,
  now: new Date('2026-11-21T15:30:01.000Z'),
}).payload;
