import type { Schemas } from './api.js';
import type { HttpClient } from './http.js';

let counter = 0;
/** An id unique across test files and runs. */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

/** The tax matrix of the seeded group: prepared food at `burgerIcmsRate` % ICMS, soft drinks untaxed (CST 60 / 04). */
export function fiscalMatrix(burgerIcmsRate = 18) {
  return {
    '21069090': {
      NCM: '21069090',
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: burgerIcmsRate,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
    },
    '22021000': {
      NCM: '22021000',
      CEST: '0300700',
      CST_ICMS: '60',
      ICMS_rate: 18,
      CST_PIS: '04',
      PIS_rate: 0.65,
      CST_COFINS: '04',
      COFINS_rate: 3,
    },
  };
}

/** A fiscal group for `storeId` and two categories, so that `orderFor()` orders are taxed. */
export async function seedFiscalData(http: HttpClient, adminToken: string, storeId: string): Promise<void> {
  const group = await http.post(
    '/admin/fiscal-groups',
    {
      name: `Group of ${storeId}`,
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      stores: [{ store_id: storeId, store_name: storeId }],
      taxMatrix: fiscalMatrix(),
    },
    { token: adminToken },
  );
  if (group.status !== 201 && group.status !== 409) throw new Error(`could not create the fiscal group: ${group.status} ${group.text}`);
  for (const category of [
    { productId: 'rel-burger', productName: 'Burger', ncm: '21069090' },
    { productId: 'rel-cola', productName: 'Cola', ncm: '22021000' },
  ]) {
    const created = await http.post('/admin/product-fiscal-categories', category, { token: adminToken });
    if (created.status !== 201 && created.status !== 409) throw new Error(`could not create a category: ${created.status}`);
  }
}

/** A small order on the seeded store and products. Burger 25.90 + cola 6.00: total tax 5.44 (see the enrichment tests). */
export function orderFor(orderId: string, storeId: string): Schemas['OrderPayloadDto'] {
  return {
    orderId,
    source: 'reliability',
    store: { id: storeId },
    order: {
      type: 'DELIVERY',
      products: [
        { productId: 'rel-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } },
        { productId: 'rel-cola', quantity: 1, price: { totalPrice: { total: 6 } } },
      ],
    },
    payments: [{ method: 'PIX', value: 31.9 }],
  };
}
