import { bootFulfillmentApp, domainErrorD, errorD, fulfillmentSteps, ORDER, type FulfillmentApp } from '../support/fulfillment.js';
import { failed, ok, refusedPos, type Schemas, type PosErrorBody } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let orders: string;
  let ordersClient: string;
  const { row, history, tracking, enrichedOrder, setStatus } = fulfillmentSteps(() => f);
  const track = (body: Schemas['TrackingRequestDto']) => t.apiAs(orders).POST('/api/api/order/tracking', { body });

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    ({ t, orders, ordersClient } = f);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/api/order/tracking', () => {
    const info = {
      trackurl: 'https://track.example.com/BR1',
      trackingNumber: 'BR1',
      deliveryConfirmationCode: '4821',
      shippingCoordinates: [
        { latitude: '-23.5629', longitude: '-46.6826' },
        { latitude: -23.57, longitude: -46.69 },
      ],
    };

    it('applies an order status by the rules and stores the tracking record', async () => {
      const orderId = unique('trk');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'READY');
      expect(ok(await track({ order_id: orderId, status: 'DISPATCHED', trackingInfo: info }), 200)).toEqual({
        message: `Tracking registered for order ${orderId}; order status changed from READY to DISPATCHED`,
        status: 'success',
        orderStatus: 'DISPATCHED',
      });
      expect((await row(orderId)).status).toBe('DISPATCHED');
      const [record] = await tracking(orderId);
      expect(record).toMatchObject({
        status: 'DISPATCHED',
        orderStatusApplied: true,
        trackurl: info.trackurl,
        trackingNumber: 'BR1',
        deliveryConfirmationCode: '4821',
        shippingCoordinates: info.shippingCoordinates,
        clientId: ordersClient,
      });
      expect((await history(orderId)).at(-1)).toEqual({
        fromStatus: 'READY',
        toStatus: 'DISPATCHED',
        clientId: ordersClient,
        via: 'POST /api/api/order/tracking',
      });
    });

    it('keeps a carrier status on the tracking record only, and keeps every record (newest last)', async () => {
      const orderId = unique('carrier');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'DISPATCHED');
      expect(ok(await track({ order_id: orderId, status: 'IN_TRANSIT', trackingInfo: info }), 200)).toEqual({
        message: `Tracking registered for order ${orderId}; carrier status "IN_TRANSIT" kept on the tracking record`,
        status: 'success',
        orderStatus: 'DISPATCHED',
      });
      // Status matching ignores case: `delivered` is the order status DELIVERED.
      const second = await track({ order_id: orderId, status: 'delivered', trackingInfo: { trackingNumber: 'BR2' } });
      expect(ok(second, 200).orderStatus).toBe('DELIVERED');
      expect((await row(orderId)).status).toBe('DELIVERED');
      const records = await tracking(orderId);
      expect(records.map((record) => [record.status, record.trackingNumber, record.orderStatusApplied])).toEqual([
        ['IN_TRANSIT', 'BR1', false],
        ['delivered', 'BR2', true],
      ]);
      expect(records[1]!.shippingCoordinates).toEqual([]);
    });

    it('accepts the order id as a number and no trackingInfo; the current status again is 200', async () => {
      const orderId = String(890000 + process.pid);
      await enrichedOrder(orderId);
      await setStatus(orderId, 'DISPATCHED');
      expect(ok(await track({ order_id: Number(orderId), status: 'DISPATCHED' }), 200).orderStatus).toBe('DISPATCHED');
      expect(await tracking(orderId)).toHaveLength(1);
    });

    it('409 for an order status the order cannot move to; nothing is stored', async () => {
      const orderId = unique('trk409');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'DELIVERED');
      const response = refusedPos(await track({ order_id: orderId, status: 'DISPATCHED', trackingInfo: info }), 409);
      const reason = 'cannot change from DELIVERED to DISPATCHED: DELIVERED is a final status';
      expect(response.body).toEqual(
        domainErrorD(`Order ${orderId}: ${reason}`, 'ILLEGAL_STATUS_TRANSITION', [
          { field: 'status', problem: reason, orderId, currentStatus: 'DELIVERED', requestedStatus: 'DISPATCHED' },
        ]),
      );
      expectDeclaredError('POST', '/api/api/order/tracking', response);
      expect(await tracking(orderId)).toEqual([]);
    });

    it.each([
      ['a latitude out of range', { trackingInfo: { shippingCoordinates: [{ latitude: '-95', longitude: '0' }] } }],
      ['a coordinate that is not a number', { trackingInfo: { shippingCoordinates: [{ latitude: 'north', longitude: '0' }] } }],
      ['a coordinate without longitude', { trackingInfo: { shippingCoordinates: [{ latitude: '1' }] } }],
      ['a numeric trackingNumber', { trackingInfo: { trackingNumber: 123 } }],
      ['no status', { status: undefined }],
      ['a blank status', { status: '  ' }],
    ])('400 { error } for %s', async (_label, change) => {
      // Bodies outside the schema: sent raw.
      const response = await t.http.post<PosErrorBody>(
        `${ORDER}/tracking`,
        { order_id: 'x', status: 'IN_TRANSIT', ...change },
        { token: orders },
      );
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error', 'message']);
    });

    it('404 for an unknown order', async () => {
      expect(failed(await track({ order_id: 'no-such-order', status: 'IN_TRANSIT' }), 404)).toEqual(
        errorD('Order no-such-order not found'),
      );
    });
  });
});
