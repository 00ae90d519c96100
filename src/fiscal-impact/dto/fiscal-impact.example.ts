import type { FiscalGroupImpactDto } from './fiscal-impact.dto.js';

const burger = (orderId: string, orderDbId: string, receivedAt: string) => ({
  orderId,
  orderDbId,
  receivedAt,
  path: 'order.products[0]',
  productId: 'product-burger',
  productName: 'Classic burger',
  // 25.90 at 12 %: ICMS 3.11, PIS (25.90 − 3.11) × 0.65 % = 0.15, COFINS 22.79 × 3 % = 0.68; at 18 %: 4.66, 0.14, 0.64.
  before: { ICMS_value: 3.11, PIS_value: 0.15, COFINS_value: 0.68, FCP_value: 0, total_tax: 3.94 },
  after: { ICMS_value: 4.66, PIS_value: 0.14, COFINS_value: 0.64, FCP_value: 0, total_tax: 5.44 },
  change: { ICMS_value: 1.55, PIS_value: -0.01, COFINS_value: -0.04, FCP_value: 0, total_tax: 1.5 },
});

const brownie = {
  orderId: 'ORD-2026-000122',
  orderDbId: '5b1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  receivedAt: '2026-11-26T10:15:00.000Z',
  path: 'order.products[1]',
  productId: 'product-brownie',
  productName: 'Brownie',
  before: { ICMS_value: 2.25, PIS_value: 0.07, COFINS_value: 0.31, FCP_value: 0, total_tax: 2.63 },
  after: null,
  change: { ICMS_value: -2.25, PIS_value: -0.07, COFINS_value: -0.31, FCP_value: 0, total_tax: -2.63 },
};

/** Two orders: the ICMS rate of NCM 21069090 from 12 % to 18 %, and NCM 1905 taken out of the matrix. */
export const IMPACT_EXAMPLE: FiscalGroupImpactDto = {
  fiscalGroupId: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e',
  hours: 24,
  receivedFrom: '2026-11-25T12:00:00.000Z',
  receivedTo: '2026-11-26T12:00:00.000Z',
  maxOrders: 10000,
  moreOrdersInWindow: false,
  compared: { orders: 2, lines: 4 },
  changed: { orders: 2, lines: 3 },
  totals: {
    ICMS_value: { before: 8.47, after: 9.32, change: 0.85 },
    PIS_value: { before: 0.37, after: 0.28, change: -0.09 },
    COFINS_value: { before: 1.67, after: 1.28, change: -0.39 },
    FCP_value: { before: 0, after: 0, change: 0 },
    total_tax: { before: 10.51, after: 10.88, change: 0.37 },
  },
  linesLosingTaxes: {
    orders: 1,
    lines: 1,
    listed: [
      {
        ...brownie,
        warning: {
          code: 'NCM_NOT_IN_MATRIX',
          path: 'order.products[1]',
          message: `NCM 19059090 of product "product-brownie" has no rule in the fiscal group's matrix (nor a prefix of it)`,
        },
      },
    ],
  },
  largestChanges: [
    brownie,
    burger('ORD-2026-000123', '3f0e7c1a-8b2d-4e5f-9a6b-7c8d9e0f1a2b', '2026-11-26T11:40:00.000Z'),
    burger('ORD-2026-000122', '5b1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', '2026-11-26T10:15:00.000Z'),
  ],
};
