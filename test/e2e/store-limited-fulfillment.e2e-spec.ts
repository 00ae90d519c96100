import {
  bootFulfillmentApp,
  errorD,
  fulfillmentSteps,
  MOEMA,
  PINHEIROS,
  VILA_MARIANA,
  type FulfillmentApp,
} from '../support/fulfillment.js';
import { failed, ok } from '../support/api.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

/** A store point-of-sale's credentials: limited to Pinheiros, they must not reach another store's orders. */
describe('a client limited to stores on /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let pos: string;
  const { row, history, tracking, transfers, dispatches, enrichedOrder } = fulfillmentSteps(() => f);

  /** What the order's rows look like, to show that a refused call changed nothing. */
  const snapshot = async (orderId: string) => ({
    row: await row(orderId),
    history: await history(orderId),
    tracking: await tracking(orderId),
    transfers: await transfers(orderId),
    dispatches: await dispatches(orderId),
  });

  const calls = (orderId: string) => ({
    status: () => t.apiAs(pos).POST('/api/api/order/status', { body: { order_id: orderId, status: 'CANCELLED' } }),
    tracking: () =>
      t.apiAs(pos).POST('/api/api/order/tracking', {
        body: { order_id: orderId, status: 'IN_PREPARATION', trackingInfo: { trackurl: 'https://track.example/1' } },
      }),
    dispatched: () => t.apiAs(pos).POST('/api/api/order/dispatched', { body: { codigo_app: orderId, id_transaccion: 'TX-1' } }),
    transfer: () =>
      t.apiAs(pos).PUT('/api/api/order/transfer', {
        body: { order: orderId, from_store: MOEMA, to_store: PINHEIROS, processed_by: 'Ana', transfer_reason: 'closer' },
      }),
  });

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    t = f.t;
    const created = ok(
      await t.api.POST('/api/admin/clients', { body: { name: 'POS Pinheiros', scopes: ['orders'], stores: [PINHEIROS] } }),
      201,
    );
    pos = ok(
      await t.apiAs().POST('/api/authentication/login', {
        body: { client_id: created.clientId, client_secret: created.secret, grant_type: 'client_credentials' },
      }),
      200,
    ).accessToken;
  });
  afterAll(async () => {
    await t.close();
  });

  it('the token carries the stores', () => {
    const claims = JSON.parse(Buffer.from(pos.split('.')[1]!, 'base64url').toString()) as { stores?: string[] };
    expect(claims.stores).toEqual([PINHEIROS]);
  });

  describe.each(['status', 'tracking', 'dispatched', 'transfer'] as const)('%s', (route) => {
    it("answers another store's order exactly as an unknown order, and changes nothing", async () => {
      const orderId = unique(`other-${route}`);
      // A pickup order, so that only the store decides the dispatch.
      await enrichedOrder(orderId, MOEMA, {
        order: { type: 'PICKUP', products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
      });
      const before = await snapshot(orderId);
      const unknownId = unique(`unknown-${route}`);

      const refused = failed(await calls(orderId)[route](), 404);
      const unknown = failed(await calls(unknownId)[route](), 404);
      expect(refused).toEqual(errorD(`Order ${orderId} not found`));
      expect(unknown).toEqual(errorD(`Order ${unknownId} not found`));
      expect(await snapshot(orderId)).toEqual(before);
    });
  });

  it('works on its own store’s orders', async () => {
    const orderId = unique('own');
    await enrichedOrder(orderId, PINHEIROS);
    expect(ok(await calls(orderId).tracking(), 200).orderStatus).toBe('IN_PREPARATION');
    expect(ok(await calls(orderId).status(), 200).orderStatus).toBe('CANCELLED');
  });

  it('transfers its own store’s order to any store, and then no longer reaches it', async () => {
    const orderId = unique('out');
    await enrichedOrder(orderId, PINHEIROS);
    const body = { order: orderId, from_store: PINHEIROS, to_store: MOEMA, processed_by: 'Ana', transfer_reason: 'closer' };
    ok(await t.apiAs(pos).PUT('/api/api/order/transfer', { body }), 200);
    expect((await row(orderId)).storeId).toBe(MOEMA);
    // Now in Moema: the way back is another store's order.
    expect(failed(await calls(orderId).transfer(), 404)).toEqual(errorD(`Order ${orderId} not found`));
  });

  it('infoPayments lists only its stores’ orders', async () => {
    const own = unique('pay-own');
    const other = unique('pay-other');
    const third = unique('pay-third');
    await enrichedOrder(own, PINHEIROS);
    await enrichedOrder(other, MOEMA);
    await enrichedOrder(third, VILA_MARIANA);
    const today = new Date().toISOString().slice(0, 10);
    const query = { startDate: today, endDate: today, pageSize: 100 };
    const limited = ok(await t.apiAs(pos).GET('/api/api/order/infoPayments', { params: { query } }), 200);
    const everyStore = ok(await t.apiAs(f.orders).GET('/api/api/order/infoPayments', { params: { query } }), 200);

    expect(limited.items.map((item) => item.orderId)).toContain(own);
    expect(limited.items.every((item) => item.storeId === PINHEIROS)).toBe(true);
    expect(limited.total).toBe(limited.items.length);
    expect(everyStore.items.map((item) => item.orderId)).toEqual(expect.arrayContaining([own, other, third]));
  });
});
