/**
 * The README's tour with the typed client: npm run client:example (BASE_URL, CLIENT_ID and
 * CLIENT_SECRET default to a local `npm start`). A test runs it against a booted service;
 * the type check fails here first when the API changes.
 */
import { loginClient, type components } from '../src/index.js';

type Order = components['schemas']['OrderPayloadDto'] & Record<string, unknown>;

export interface WalkthroughResult {
  fiscalGroupId: string;
  burgerTax: number;
  totals: components['schemas']['TaxTotalsDto'];
  listed: string[];
  forwardMessage: string;
  orderStatus: string;
  history: string[];
}

function expectData<T>(result: { data?: T; error?: unknown; response: Response }, step: string): T {
  if (result.data === undefined) throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function runWalkthrough(
  baseUrl: string,
  clientId: string,
  clientSecret: string,
  run = String(Date.now()),
): Promise<WalkthroughResult> {
  const api = await loginClient(baseUrl, clientId, clientSecret);

  const group = expectData(
    await api.POST('/api/admin/fiscal-groups', {
      body: {
        name: 'Restaurants SP',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: `store-${run}`, store_name: 'Burger House Paulista' }],
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
          '22021000': {
            NCM: '22021000',
            CEST: '0300700',
            CST_ICMS: '60',
            ICMS_rate: 18,
            CST_PIS: '04',
            PIS_rate: 0.65,
            CST_COFINS: '04',
            COFINS_rate: 3,
            CFOP: '5405',
          },
        },
      },
    }),
    'fiscal group',
  );
  expectData(
    await api.POST('/api/admin/product-fiscal-categories', {
      body: { productId: `burger-${run}`, productName: 'Classic burger', ncm: '21069090' },
    }),
    'burger',
  );
  expectData(
    await api.POST('/api/admin/product-fiscal-categories', {
      body: { productId: `cola-${run}`, productName: 'Cola can 350 ml', ncm: '22021000', externalProductId: `SKU-COLA-${run}` },
    }),
    'cola',
  );

  const order: Order = {
    orderId: `ORD-${run}`,
    source: 'ifood',
    store: { id: `store-${run}` },
    order: {
      type: 'PICKUP',
      products: [
        { productId: `burger-${run}`, quantity: 1, price: { totalPrice: { total: 25.9 } } },
        { productId: `SKU-COLA-${run}`, quantity: 2, price: { totalPrice: { total: 13 } } },
      ],
    },
  };
  const enriched = expectData(await api.POST('/api/enrich-order', { body: order }), 'enrich');
  const listed = expectData(await api.GET('/api/admin/orders', { params: { query: { orderId: `ord-${run}`, pageSize: 5 } } }), 'list');
  const forwarded = expectData(await api.POST('/api/enrich-order-forward', { body: order }), 'forward');
  const accepted = expectData(await api.POST('/api/api/order/status', { body: { order_id: `ORD-${run}`, status: 'ACCEPTED' } }), 'status');
  const detail = expectData(await api.GET('/api/admin/orders/{id}', { params: { path: { id: `ORD-${run}` } } }), 'detail');

  return {
    fiscalGroupId: group.id,
    burgerTax: enriched.payload.order!.products![0]!.tax!.total_tax,
    totals: enriched.payload.taxSummary.totals,
    listed: listed.items.map((item) => `${item.orderId} ${item.status}`),
    forwardMessage: forwarded.message,
    orderStatus: accepted.orderStatus,
    history: detail.history.map((entry) => entry.status),
  };
}

if (process.argv[1]?.endsWith('walkthrough.js')) {
  const result = await runWalkthrough(
    process.env.BASE_URL ?? 'http://127.0.0.1:3000',
    process.env.CLIENT_ID ?? '1001',
    process.env.CLIENT_SECRET ?? 'dev-secret-change-me',
  );
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
