import {
  bootFulfillmentApp,
  clientIdOf,
  fulfillmentSteps,
  ORDER,
  PINHEIROS,
  VILA_MARIANA,
  type FulfillmentApp,
} from '../support/fulfillment.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let orders: string;
  let ordersClient: string;
  const { history, enrichedOrder, setStatus } = fulfillmentSteps(() => f);

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    ({ t, orders, ordersClient } = f);
  });
  afterAll(async () => {
    await t.close();
  });

  it('records every status change of an order in its history, with the client and the route', async () => {
    const orderId = unique('hist');
    await enrichedOrder(orderId, PINHEIROS, { order: { type: 'PICKUP', products: [] } });
    await setStatus(orderId, 'ACCEPTED');
    expect((await t.http.post(`${ORDER}/tracking`, { order_id: orderId, status: 'IN_PREPARATION' }, { token: orders })).status).toBe(200);
    expect((await t.http.post(`${ORDER}/tracking`, { order_id: orderId, status: 'PACKING' }, { token: orders })).status).toBe(200);
    await setStatus(orderId, 'READY');
    expect((await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-H' }, { token: orders })).status).toBe(200);
    await setStatus(orderId, 'DELIVERED');
    expect((await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'CANCELLED' }, { token: orders })).status).toBe(409);

    const status = 'POST /api/api/order/status';
    expect(await history(orderId)).toEqual([
      { from_status: null, to_status: 'ENRICHED', client_id: ordersClient, via: 'POST /api/enrich-order' },
      { from_status: 'ENRICHED', to_status: 'ACCEPTED', client_id: ordersClient, via: status },
      { from_status: 'ACCEPTED', to_status: 'IN_PREPARATION', client_id: ordersClient, via: 'POST /api/api/order/tracking' },
      { from_status: 'IN_PREPARATION', to_status: 'READY', client_id: ordersClient, via: status },
      { from_status: 'READY', to_status: 'DISPATCHED', client_id: ordersClient, via: 'POST /api/api/order/dispatched' },
      { from_status: 'DISPATCHED', to_status: 'DELIVERED', client_id: ordersClient, via: status },
    ]);
  });

  it('shows every change made here on the order detail route: history, tracking, transfer, dispatch', async () => {
    const orderId = unique('detail');
    await enrichedOrder(orderId, PINHEIROS, {
      order: { type: 'PICKUP', products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
    });
    await setStatus(orderId, 'ACCEPTED');
    const tracked = await t.http.post(
      `${ORDER}/tracking`,
      {
        order_id: orderId,
        status: 'IN_PREPARATION',
        trackingInfo: { trackurl: 'https://t.example/1', trackingNumber: 'BR1', deliveryConfirmationCode: '77', shippingCoordinates: [] },
      },
      { token: orders },
    );
    expect(tracked.status).toBe(200);
    const moved = await t.http.put(
      `${ORDER}/transfer`,
      { order: orderId, from_store: PINHEIROS, to_store: VILA_MARIANA, processed_by: 'Maria', transfer_reason: 'Oven down' },
      { token: orders },
    );
    expect(moved.status).toBe(200);
    await setStatus(orderId, 'READY');
    expect((await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-42' }, { token: orders })).status).toBe(
      200,
    );

    const detail = await t.http.get(`/admin/orders/${orderId}`, { token: await t.tokenFor(['admin']) });
    expect(detail.status).toBe(200);
    const client = clientIdOf(orders);
    expect(
      detail.body.history.map((entry: { status: string; from: string | null; via: string; clientId: string }) => [
        entry.from,
        entry.status,
        entry.via,
        entry.clientId,
      ]),
    ).toEqual([
      [null, 'ENRICHED', 'POST /api/enrich-order', client],
      ['ENRICHED', 'ACCEPTED', 'POST /api/api/order/status', client],
      ['ACCEPTED', 'IN_PREPARATION', 'POST /api/api/order/tracking', client],
      ['IN_PREPARATION', 'READY', 'POST /api/api/order/status', client],
      ['READY', 'DISPATCHED', 'POST /api/api/order/dispatched', client],
    ]);
    expect(detail.body.tracking).toEqual([
      expect.objectContaining({ status: 'IN_PREPARATION', orderStatusApplied: true, trackingNumber: 'BR1', clientId: client }),
    ]);
    expect(detail.body.transfers).toEqual([
      expect.objectContaining({
        fromStore: PINHEIROS,
        toStore: VILA_MARIANA,
        processedBy: 'Maria',
        transferReason: 'Oven down',
        refiscalized: false,
      }),
    ]);
    expect(detail.body.dispatches).toEqual([expect.objectContaining({ idTransaccion: 'TX-42', clientId: client })]);
    expect(detail.body.storeId).toBe(VILA_MARIANA);
    expect(detail.body.status).toBe('DISPATCHED');
  });
});
