import type { OrderStatusHistoryEntity } from '../../src/orders/order.entity.js';
import { ok, type Schemas } from './api.js';
import { dispatchRows, existingOrderRow, statusHistory, trackingRows, transferRows } from './rows.js';
import { bootTestApp, type TestApp } from './test-app.js';

/** The point-of-sale fulfillment routes (`/api/api/order/*` from outside; the client adds `/api`). */
export const ORDER = '/api/order';

/** Store ids are numeric: the channels configuration keys stores by an integer `storeId`. */
export const PINHEIROS = '1201'; // code BN-PIN, fiscal group A (ICMS 18 %)
export const MOEMA = '1202'; // code BN-MOE, fiscal group B (ICMS 12 %)
export const VILA_MARIANA = '1203'; // code BN-VM, fiscal group A too
export const NO_GROUP = '1299'; // code BN-NOFISCAL, no fiscal group

/** The client id (`sub`) a token was issued to. */
export function clientIdOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
}

/** The point-of-sale error body: the same sentence in `error` and `message`. */
export const errorD = (sentence: string) => ({ error: sentence, message: sentence });
/** A point-of-sale domain failure: the published body plus its code and typed details. */
export const domainErrorD = (sentence: string, code: string, details: Record<string, unknown>[]) => ({
  ...errorD(sentence),
  code,
  details,
});

const burgerRule = (icmsRate: number) => ({
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: icmsRate,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
});

export interface FulfillmentApp {
  t: TestApp;
  /** A token with the scope `orders`, and the client it was issued to. */
  orders: string;
  ordersClient: string;
  /** Fiscal group A (ICMS 18 %): Pinheiros and Vila Mariana. */
  groupA: string;
  /** Fiscal group B (ICMS 12 %): Moema. */
  groupB: string;
}

/**
 * The app the fulfillment tests share: two fiscal groups, the product `f-burger` (NCM 21069090),
 * and a channels configuration giving each store a code (`BN-PIN`, `BN-MOE`, `BN-VM`,
 * `BN-NOFISCAL`; `DUP` names two stores).
 */
export async function bootFulfillmentApp(env: Record<string, string> = {}): Promise<FulfillmentApp> {
  const t = await bootTestApp(env);
  const admin = await t.tokenFor(['admin']);
  const orders = await t.tokenFor(['orders']);

  const api = t.apiAs(admin);
  const createGroup = async (name: string, icmsRate: number, stores: string[]) => {
    const body: Schemas['CreateFiscalGroupDto'] = {
      name,
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      stores: stores.map((store_id) => ({ store_id, store_name: `Store ${store_id}` })),
      taxMatrix: burgerRule(icmsRate),
    };
    return ok(await api.POST('/api/admin/fiscal-groups', { body }), 201).id;
  };
  const groupA = await createGroup('Group A', 18, [PINHEIROS, VILA_MARIANA]);
  const groupB = await createGroup('Group B', 12, [MOEMA]);
  ok(
    await api.POST('/api/admin/product-fiscal-categories', { body: { productId: 'f-burger', productName: 'Burger', ncm: '21069090' } }),
    201,
  );

  const sync = await t.createClient(['admin'], 'platform sync');
  const channels = await t.http.post(
    '/v3/channels-stores',
    {
      stores: [
        { storeId: PINHEIROS, name: 'Pinheiros', storeCode: 'BN-PIN', storeChannels: [] },
        { storeId: MOEMA, name: 'Moema', storeCode: 'BN-MOE', storeChannels: [] },
        { storeId: VILA_MARIANA, name: 'Vila Mariana', storeCode: 'BN-VM', storeChannels: [] },
        { storeId: NO_GROUP, name: 'Without fiscal group', storeCode: 'BN-NOFISCAL', storeChannels: [] },
        { storeId: '1301', name: 'Twin one', storeCode: 'DUP', storeChannels: [] },
        { storeId: '1302', name: 'Twin two', storeCode: 'DUP', storeChannels: [] },
      ],
      channels: [],
    },
    { headers: { authorization: `Basic ${Buffer.from(`${sync.clientId}:${sync.clientSecret}`).toString('base64')}` } },
  );
  expect(channels.status).toBe(200);

  return { t, orders, ordersClient: clientIdOf(orders), groupA, groupB };
}

/** A row of the order's status history, as the tests compare it. */
export type StatusChange = Pick<OrderStatusHistoryEntity, 'fromStatus' | 'toStatus' | 'clientId' | 'via'>;

/**
 * Reads of an order's rows and the steps the tests repeat. `app` is called when a step runs,
 * so the steps can be made at collection time, before `bootFulfillmentApp()` resolves.
 */
export function fulfillmentSteps(app: () => FulfillmentApp) {
  const db = () => app().t.dataSource;
  return {
    /** The stored order. */
    row: (orderId: string) => existingOrderRow(db(), orderId),
    /** The order's status history, oldest first. */
    history: async (orderId: string): Promise<StatusChange[]> =>
      (await statusHistory(db(), orderId)).map(({ fromStatus, toStatus, clientId, via }) => ({ fromStatus, toStatus, clientId, via })),
    tracking: (orderId: string) => trackingRows(db(), orderId),
    transfers: (orderId: string) => transferRows(db(), orderId),
    dispatches: (orderId: string) => dispatchRows(db(), orderId),

    /** An order enriched through POST /api/enrich-order: one burger of 25.90. */
    async enrichedOrder(orderId: string, storeId = PINHEIROS, extra: Record<string, unknown> = {}): Promise<void> {
      const { t, orders } = app();
      const response = await t.http.post(
        '/enrich-order',
        {
          orderId,
          source: 'ifood',
          store: { id: storeId, name: 'Bella Napoli' },
          customer: { name: 'Ana' },
          order: { products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
          payments: [{ method: 'PIX', value: 25.9 }],
          ...extra,
        },
        { token: orders },
      );
      expect([200, 422]).toContain(response.status);
    },

    async setStatus(orderId: string, status: string): Promise<void> {
      const { t, orders } = app();
      ok(await t.apiAs(orders).POST('/api/api/order/status', { body: { order_id: orderId, status } }), 200);
    },
  };
}
