import type { TestApp } from './test-app.js';

let counter = 0;
/** An id unique across test files and runs. */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++counter}`;

/** A fiscal group holding `storeId` (burger 18 % ICMS) and the burger's product category, through the admin API. */
export async function createFiscalSetup(t: TestApp, storeId: string): Promise<void> {
  const admin = await t.tokenFor(['admin']);
  const group = await t.http.post(
    '/admin/fiscal-groups',
    {
      name: `Group of ${storeId}`,
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      stores: [{ store_id: storeId, store_name: 'Paulista' }],
      taxMatrix: {
        '21069090': {
          NCM: '21069090',
          CEST: '',
          CST_ICMS: '00',
          ICMS_rate: 18,
          CST_PIS: '01',
          PIS_rate: 0.65,
          CST_COFINS: '01',
          COFINS_rate: 3,
          CFOP: '5102',
        },
      },
    },
    { token: admin },
  );
  if (group.status !== 201) throw new Error(`fiscal group: ${group.status} ${group.text}`);
  const productId = `burger-${storeId}`;
  const category = await t.http.post(
    '/admin/product-fiscal-categories',
    { productId, productName: 'Burger', ncm: '21069090' },
    { token: admin },
  );
  if (category.status !== 201) throw new Error(`category: ${category.status} ${category.text}`);
}

/** An order of one burger line at `total` (taxed by the group of createFiscalSetup). */
export function burgerOrder(orderId: string, storeId: string, total = 25.9, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderId,
    source: 'ifood',
    store: { id: storeId, name: 'Paulista' },
    customer: { name: 'Ana', email: 'ana@example.com' },
    order: {
      type: 'DELIVERY',
      products: [{ productId: `burger-${storeId}`, name: 'Classic burger', quantity: 1, price: { totalPrice: { total } } }],
    },
    payments: [{ method: 'PIX', value: total }],
    ...extra,
  };
}

/** The stored row of an order (snake_case columns), or undefined. */
export async function storedOrder(t: TestApp, orderId: string): Promise<any> {
  return (await t.dataSource.query('SELECT * FROM orders WHERE order_id = $1', [orderId]))[0];
}
