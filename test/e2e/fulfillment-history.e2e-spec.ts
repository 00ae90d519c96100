import { bootFulfillmentApp, clientIdOf, fulfillmentSteps, PINHEIROS, VILA_MARIANA, type FulfillmentApp } from '../support/fulfillment.js';
import { failed, ok } from '../support/api.js';
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
    const pos = t.apiAs(orders);
    ok(await pos.POST('/api/api/order/tracking', { body: { order_id: orderId, status: 'IN_PREPARATION' } }), 200);
    ok(await pos.POST('/api/api/order/tracking', { body: { order_id: orderId, status: 'PACKING' } }), 200);
    await setStatus(orderId, 'READY');
    ok(await pos.POST('/api/api/order/dispatched', { body: { codigo_app: orderId, id_transaccion: 'TX-H' } }), 200);
    await setStatus(orderId, 'DELIVERED');
    failed(await pos.POST('/api/api/order/status', { body: { order_id: orderId, status: 'CANCELLED' } }), 409);

    const status = 'POST /api/api/order/status';
    expect(await history(orderId)).toEqual([
      { fromStatus: null, toStatus: 'ENRICHED', clientId: ordersClient, via: 'POST /api/enrich-order' },
      { fromStatus: 'ENRICHED', toStatus: 'ACCEPTED', clientId: ordersClient, via: status },
      { fromStatus: 'ACCEPTED', toStatus: 'IN_PREPARATION', clientId: ordersClient, via: 'POST /api/api/order/tracking' },
      { fromStatus: 'IN_PREPARATION', toStatus: 'READY', clientId: ordersClient, via: status },
      { fromStatus: 'READY', toStatus: 'DISPATCHED', clientId: ordersClient, via: 'POST /api/api/order/dispatched' },
      { fromStatus: 'DISPATCHED', toStatus: 'DELIVERED', clientId: ordersClient, via: status },
    ]);
  });

  it('shows every change made here on the order detail route: history, tracking, transfer, dispatch', async () => {
    const orderId = unique('detail');
    await enrichedOrder(orderId, PINHEIROS, {
      order: { type: 'PICKUP', products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
    });
    await setStatus(orderId, 'ACCEPTED');
    const pos = t.apiAs(orders);
    const trackingInfo = {
      trackurl: 'https://t.example/1',
      trackingNumber: 'BR1',
      deliveryConfirmationCode: '77',
      shippingCoordinates: [],
    };
    ok(await pos.POST('/api/api/order/tracking', { body: { order_id: orderId, status: 'IN_PREPARATION', trackingInfo } }), 200);
    const transfer = { order: orderId, from_store: PINHEIROS, to_store: VILA_MARIANA, processed_by: 'Maria', transfer_reason: 'Oven down' };
    ok(await pos.PUT('/api/api/order/transfer', { body: transfer }), 200);
    await setStatus(orderId, 'READY');
    ok(await pos.POST('/api/api/order/dispatched', { body: { codigo_app: orderId, id_transaccion: 'TX-42' } }), 200);

    const admin = t.apiAs(await t.tokenFor(['admin']));
    const detail = ok(await admin.GET('/api/admin/orders/{id}', { params: { path: { id: orderId } } }), 200);
    const client = clientIdOf(orders);
    expect(detail.history.map((entry) => [entry.from, entry.status, entry.via, entry.clientId])).toEqual([
      [null, 'ENRICHED', 'POST /api/enrich-order', client],
      ['ENRICHED', 'ACCEPTED', 'POST /api/api/order/status', client],
      ['ACCEPTED', 'IN_PREPARATION', 'POST /api/api/order/tracking', client],
      ['IN_PREPARATION', 'READY', 'POST /api/api/order/status', client],
      ['READY', 'DISPATCHED', 'POST /api/api/order/dispatched', client],
    ]);
    expect(detail.tracking).toEqual([
      expect.objectContaining({ status: 'IN_PREPARATION', orderStatusApplied: true, trackingNumber: 'BR1', clientId: client }),
    ]);
    expect(detail.transfers).toEqual([
      expect.objectContaining({
        fromStore: PINHEIROS,
        toStore: VILA_MARIANA,
        processedBy: 'Maria',
        transferReason: 'Oven down',
        refiscalized: false,
      }),
    ]);
    expect(detail.dispatches).toEqual([expect.objectContaining({ idTransaccion: 'TX-42', clientId: client })]);
    expect(detail.storeId).toBe(VILA_MARIANA);
    expect(detail.status).toBe('DISPATCHED');
  });
});
