import { bootFulfillmentApp, errorD, fulfillmentSteps, ORDER, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { failed, ok, refusedPos, type PosErrorBody } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let orders: string;
  let ordersClient: string;
  const { row, history, dispatches, enrichedOrder, setStatus } = fulfillmentSteps(() => f);
  const dispatched = (codigo_app: string | number, id_transaccion: string | number) =>
    t.apiAs(orders).POST('/api/api/order/dispatched', { body: { codigo_app, id_transaccion } });

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
      expect(ok(await dispatched(orderId, 'TX-1'), 200)).toEqual({
        message: `Order ${orderId} dispatched (transaction TX-1)`,
        status: 'success',
        orderStatus: 'DISPATCHED',
      });
      expect(ok(await dispatched(orderId, 'TX-1'), 200).orderStatus).toBe('DISPATCHED');
      const rows = await dispatches(orderId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ idTransaccion: 'TX-1', clientId: ordersClient });
      expect((await history(orderId)).at(-1)).toMatchObject({
        fromStatus: 'READY',
        toStatus: 'DISPATCHED',
        via: 'POST /api/api/order/dispatched',
      });
    });

    it('accepts codigo_app and id_transaccion as numbers, and order.pickup true', async () => {
      const orderId = String(900000 + process.pid);
      await enrichedOrder(orderId, PINHEIROS, { order: { pickup: true, products: [] } });
      expect(ok(await dispatched(Number(orderId), 998877), 200).orderStatus).toBe('DISPATCHED');
      expect((await dispatches(orderId))[0]!.idTransaccion).toBe('998877');
    });

    it('409 for a delivery order; nothing changes', async () => {
      const orderId = unique('delivery');
      await enrichedOrder(orderId, PINHEIROS, { deliveryType: 'DELIVERY' });
      await setStatus(orderId, 'READY');
      const response = refusedPos(await dispatched(orderId, 'TX-2'), 409);
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
      const response = refusedPos(await dispatched(orderId, 'TX-3'), 409);
      expect(response.body.error).toContain('from CANCELLED to DISPATCHED');
      expect([response.body.code, response.body.details]).toEqual([
        'ILLEGAL_STATUS_TRANSITION',
        [expect.objectContaining({ orderId, currentStatus: 'CANCELLED', requestedStatus: 'DISPATCHED' })],
      ]);
      expectDeclaredError('POST', '/api/api/order/dispatched', response);
      expect(await dispatches(orderId)).toEqual([]);
    });

    it('404 for an unknown order, 400 for a bad body', async () => {
      expect(failed(await dispatched('ghost', 'TX'), 404)).toEqual(errorD('Order ghost not found'));
      // Bodies outside the schema: sent raw.
      for (const body of [{ codigo_app: 'ghost' }, { codigo_app: 'ghost', id_transaccion: '' }]) {
        const response = await t.http.post<PosErrorBody>(`${ORDER}/dispatched`, body, { token: orders });
        expect(response.status).toBe(400);
        expect(Object.keys(response.body)).toEqual(['error', 'message']);
      }
    });
  });
});
