import { bootFulfillmentApp, errorD, fulfillmentSteps, ORDER, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let orders: string;
  let ordersClient: string;
  const { row, history, dispatches, enrichedOrder, setStatus } = fulfillmentSteps(() => f);

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    ({ t, orders, ordersClient } = f);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/api/order/dispatched', () => {
    it('dispatches a pickup order and stores id_transaccion once per transaction', async () => {
      const orderId = unique('pick');
      await enrichedOrder(orderId, PINHEIROS, { order: { type: 'takeout', products: [] } });
      await setStatus(orderId, 'READY');
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-1' }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} dispatched (transaction TX-1)`,
        status: 'success',
        orderStatus: 'DISPATCHED',
      });
      const repeat = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-1' }, { token: orders });
      expect(repeat.status).toBe(200);
      expect(repeat.body.orderStatus).toBe('DISPATCHED');
      const rows = await dispatches(orderId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id_transaccion: 'TX-1', client_id: ordersClient });
      expect((await history(orderId)).at(-1)).toMatchObject({
        from_status: 'READY',
        to_status: 'DISPATCHED',
        via: 'POST /api/api/order/dispatched',
      });
    });

    it('accepts codigo_app and id_transaccion as numbers, and order.pickup true', async () => {
      const orderId = String(900000 + process.pid);
      await enrichedOrder(orderId, PINHEIROS, { order: { pickup: true, products: [] } });
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: Number(orderId), id_transaccion: 998877 }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body.orderStatus).toBe('DISPATCHED');
      expect((await dispatches(orderId))[0].id_transaccion).toBe('998877');
    });

    it('409 for a delivery order; nothing changes', async () => {
      const orderId = unique('delivery');
      await enrichedOrder(orderId, PINHEIROS, { deliveryType: 'DELIVERY' });
      await setStatus(orderId, 'READY');
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-2' }, { token: orders });
      expect(response.status).toBe(409);
      expect(Object.keys(response.body)).toEqual(['error', 'message', 'code', 'details']);
      expect(response.body.error).toContain('not a pickup order');
      expect(response.body.message).toBe(response.body.error);
      expect([response.body.code, response.body.details]).toEqual([
        'NOT_A_PICKUP_ORDER',
        [{ field: 'codigo_app', problem: 'is not a pickup order', orderId }],
      ]);
      expectDeclaredError('POST', '/api/api/order/dispatched', response);
      expect((await row(orderId)).status).toBe('READY');
      expect(await dispatches(orderId)).toEqual([]);
    });

    it('409 for a cancelled pickup order', async () => {
      const orderId = unique('pickcancel');
      await enrichedOrder(orderId, PINHEIROS, { deliveryType: 'PICKUP' });
      await setStatus(orderId, 'CANCELLED');
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-3' }, { token: orders });
      expect(response.status).toBe(409);
      expect(response.body.error).toContain('from CANCELLED to DISPATCHED');
      expect([response.body.code, response.body.details]).toEqual([
        'ILLEGAL_STATUS_TRANSITION',
        [expect.objectContaining({ orderId, currentStatus: 'CANCELLED', requestedStatus: 'DISPATCHED' })],
      ]);
      expectDeclaredError('POST', '/api/api/order/dispatched', response);
      expect(await dispatches(orderId)).toEqual([]);
    });

    it('404 for an unknown order, 400 for a bad body', async () => {
      const missing = await t.http.post(`${ORDER}/dispatched`, { codigo_app: 'ghost', id_transaccion: 'TX' }, { token: orders });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorD('Order ghost not found'));
      for (const body of [{ codigo_app: 'ghost' }, { codigo_app: 'ghost', id_transaccion: '' }]) {
        const response = await t.http.post(`${ORDER}/dispatched`, body, { token: orders });
        expect(response.status).toBe(400);
        expect(Object.keys(response.body)).toEqual(['error', 'message']);
      }
    });
  });
});
