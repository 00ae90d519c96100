import { bootFulfillmentApp, clientIdOf, fulfillmentSteps, MOEMA, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { ok } from '../support/api.js';
import { unique } from '../support/orders.js';

/**
 * Transfers leave a trail: a store-limited client can create an order under its own store and move it to another one,
 * whose infoPayments then lists payments the first store chose. The order's transfers (from which store, to which, by
 * which client, when) show in each infoPayments item and in the admin order detail, so the receiving store sees it.
 */
describe('the trail of a transferred order (e2e)', () => {
  let f: FulfillmentApp;
  let pinheiros: string;
  let moema: string;
  const { enrichedOrder } = fulfillmentSteps(() => f);

  /** A point of sale's token, limited to one store. */
  async function storeClient(name: string, storeId: string): Promise<string> {
    const created = ok(await f.t.api.POST('/api/admin/clients', { body: { name, scopes: ['orders'], stores: [storeId] } }), 201);
    return ok(
      await f.t.apiAs().POST('/api/authentication/login', {
        body: { client_id: created.clientId, client_secret: created.secret, grant_type: 'client_credentials' },
      }),
      200,
    ).accessToken;
  }

  const today = () => new Date().toISOString().slice(0, 10);
  const infoPayments = async (token: string) =>
    ok(
      await f.t
        .apiAs(token)
        .GET('/api/api/order/infoPayments', { params: { query: { startDate: today(), endDate: today(), pageSize: 100 } } }),
      200,
    ).items;

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    pinheiros = await storeClient('POS Pinheiros', PINHEIROS);
    moema = await storeClient('POS Moema', MOEMA);
  });
  afterAll(async () => {
    await f.t.close();
  });

  it('shows the receiving store that another store’s client planted the order, with the payments it chose', async () => {
    const planted = unique('planted');
    // Pinheiros' point of sale stores an order under its own store, paid as it chose, and moves it to Moema.
    ok(
      await f.t.apiAs(pinheiros).POST('/api/enrich-order', {
        body: {
          orderId: planted,
          store: { id: PINHEIROS },
          order: { products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
          payments: [{ method: 'CASH', value: 25.9, prepaid: true }],
        },
      }),
      200,
    );
    const before = Date.now();
    ok(
      await f.t.apiAs(pinheiros).PUT('/api/api/order/transfer', {
        body: { order: planted, from_store: PINHEIROS, to_store: MOEMA, processed_by: 'Ana', transfer_reason: 'closer' },
      }),
      200,
    );
    const own = unique('own');
    await enrichedOrder(own, MOEMA);

    const items = await infoPayments(moema);
    const item = items.find((each) => each.orderId === planted)!;
    expect(item).toMatchObject({ storeId: MOEMA, payments: [{ method: 'CASH', value: 25.9, prepaid: true }] });
    expect(item.transfers).toEqual([{ fromStoreId: PINHEIROS, toStoreId: MOEMA, clientId: clientIdOf(pinheiros), at: expect.any(String) }]);
    const at = Date.parse(item.transfers[0]!.at);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    // An order that never moved has an empty trail.
    expect(items.find((each) => each.orderId === own)!.transfers).toEqual([]);

    // The admin detail shows the same chain, and who stored the order first.
    const detail = ok(await f.t.api.GET('/api/admin/orders/{id}', { params: { path: { id: planted } } }), 200);
    expect(detail.transfers.map(({ fromStoreId, toStoreId, clientId, at }) => ({ fromStoreId, toStoreId, clientId, at }))).toEqual(
      item.transfers,
    );
    expect(detail.history[0]).toMatchObject({ status: 'ENRICHED', clientId: clientIdOf(pinheiros), via: 'POST /api/enrich-order' });
  });

  it('lists every hop of an order moved twice, oldest first', async () => {
    const orderId = unique('twice');
    await enrichedOrder(orderId, MOEMA);
    const move = (from: string, to: string) =>
      f.t.apiAs(f.orders).PUT('/api/api/order/transfer', {
        body: { order: orderId, from_store: from, to_store: to, processed_by: 'Ops', transfer_reason: 'rebalance' },
      });
    ok(await move(MOEMA, PINHEIROS), 200);
    ok(await move(PINHEIROS, MOEMA), 200);

    const item = (await infoPayments(moema)).find((each) => each.orderId === orderId)!;
    expect(item.transfers.map(({ fromStoreId, toStoreId, clientId }) => [fromStoreId, toStoreId, clientId])).toEqual([
      [MOEMA, PINHEIROS, f.ordersClient],
      [PINHEIROS, MOEMA, f.ordersClient],
    ]);
  });
});
