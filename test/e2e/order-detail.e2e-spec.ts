import { OrderEntity } from '../../src/orders/order.entity.js';
import { orderDispatch, orderTracking, orderTransfer, webhookDelivery } from '../factories/index.js';
import { failed, ok } from '../support/api.js';
import { bootOrderListApp, orderListSteps, type OrderListApp } from '../support/order-list.js';
import type { TestApp } from '../support/test-app.js';

describe('GET /api/admin/orders and /api/admin/orders/{id} (e2e)', () => {
  let app: OrderListApp;
  let t: TestApp;
  let admin: string;
  let ids: Map<string, string>;
  const { insert } = orderListSteps(() => app);

  beforeAll(async () => {
    app = await bootOrderListApp();
    ({ t, admin, ids } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the detail', () => {
    const detail = (id: string, token = admin) => t.apiAs(token).GET('/api/admin/orders/{id}', { params: { path: { id } } });
    const orders = () => t.dataSource.getRepository(OrderEntity);

    it('finds an order by its internal id and by its orderId, with every PersistedOrder field', async () => {
      const byId = ok(await detail(ids.get('RAP-50%OFF')!), 200);
      const byOrderId = ok(await detail('RAP-50%OFF'), 200);
      expect(byOrderId).toEqual(byId);
      expect(byId).toMatchObject({ id: ids.get('RAP-50%OFF'), orderId: 'RAP-50%OFF', status: 'FORWARD_FAILED', webhookAttempts: 5 });
      expect(Object.keys(byId).sort()).toEqual(
        [
          'id',
          'orderId',
          'status',
          'payload',
          'enrichedPayload',
          'webhookAttempts',
          'storeId',
          'source',
          'marketplaceOrderNumber',
          'webhookLastResponse',
          'createdAt',
          'updatedAt',
          'fiscalRevision',
          'history',
          'tracking',
          'transfers',
          'dispatches',
          'deliveries',
        ].sort(),
      );
      expect(byId).toMatchObject({ tracking: [], transfers: [], dispatches: [], deliveries: [] });
      expect(ok(await detail(ids.get('RAP-50%OFF')!.toUpperCase()), 200).id).toBe(ids.get('RAP-50%OFF'));
      expect(ok(await detail('WEB-C\\D'), 200).orderId).toBe('WEB-C\\D');
    });

    it('finds an order whose orderId looks like a UUID', async () => {
      const uuidLike = '0f0e0d0c-0b0a-4999-8888-777766665555';
      await insert({
        orderId: uuidLike,
        storeId: 'store-u',
        source: 'ifood',
        status: 'ENRICHED',
        attempts: 0,
        createdAt: '2026-01-01T00:00:00Z',
      });
      expect(ok(await detail(uuidLike), 200).orderId).toBe(uuidLike);
      await orders().delete({ orderId: uuidLike });
    });

    it('answers 404 for an unknown UUID or orderId, 400 for an id longer than any orderId', async () => {
      expect(failed(await detail('00000000-0000-4000-8000-000000000000'), 404).error).toBe('NOT_FOUND');
      failed(await detail('NO-SUCH-ORDER'), 404);
      failed(await detail('rap-50%off'), 404);
      expect(failed(await detail('x'.repeat(101)), 400).error).toBe('VALIDATION_FAILED');
      const longestOrderId = `${'%'.repeat(50)}${'é'.repeat(50)}`;
      await insert({
        orderId: longestOrderId,
        storeId: 'store-l',
        source: 'site',
        status: 'ENRICHED',
        attempts: 0,
        createdAt: '2026-01-02T00:00:00Z',
      });
      expect(ok(await detail(longestOrderId), 200).orderId).toBe(longestOrderId);
      await orders().delete({ orderId: longestOrderId });
      failed(await detail('NO-SUCH-ORDER', await t.tokenFor(['orders'])), 403);
    });

    it('shows the status history written by the trigger, oldest first', async () => {
      const id = await insert({
        orderId: 'HIST-1',
        storeId: 'store-h',
        source: 'ifood',
        status: 'ENRICHED',
        attempts: 0,
        createdAt: '2026-03-06T10:00:00Z',
      });
      // The status history trigger records each status change with the last writer and route.
      await orders().update({ id }, { status: 'FORWARDED', lastChangedBy: null, lastChangedVia: 'order webhook' });
      await orders().update({ id }, { status: 'ACCEPTED', lastChangedBy: '2002', lastChangedVia: 'POST /api/api/order/status' });
      await orders().update({ id }, { webhookAttempts: 1 });
      const { history } = ok(await detail('HIST-1'), 200);
      expect(history.map(({ status, from, clientId, via }) => ({ status, from, clientId, via }))).toEqual([
        { status: 'ENRICHED', from: null, clientId: '1001', via: 'test fixture' },
        { status: 'FORWARDED', from: 'ENRICHED', clientId: null, via: 'order webhook' },
        { status: 'ACCEPTED', from: 'FORWARDED', clientId: '2002', via: 'POST /api/api/order/status' },
      ]);
      expect(history.every((change) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(change.at))).toBe(true);
      expect([...history.map((change) => change.at)].sort()).toEqual(history.map((change) => change.at));
    });

    it('shows the tracking, transfer, dispatch and delivery logs, oldest first, in their documented shapes', async () => {
      const id = ids.get('IFD-AAA111')!;
      const other = ids.get('IFD-aaa222')!;
      // Inserted newest first: the detail orders each log by time.
      const db = t.dataSource;
      const tracked = { orderStatusApplied: true, clientId: '1001' };
      await orderTracking(db, {
        ...tracked,
        orderDbId: id,
        status: 'DELIVERED',
        trackurl: 'https://t.example/2',
        trackingNumber: 'BR2',
        deliveryConfirmationCode: '4821',
        shippingCoordinates: [{ latitude: '-23.5', longitude: '-46.6' }],
        createdAt: new Date('2026-03-01T12:00:00Z'),
      });
      await orderTracking(db, {
        ...tracked,
        orderDbId: id,
        status: 'in transit',
        orderStatusApplied: false,
        trackurl: 'https://t.example/1',
        trackingNumber: 'BR1',
        createdAt: new Date('2026-03-01T11:00:00Z'),
      });
      await orderTracking(db, {
        ...tracked,
        orderDbId: other,
        status: 'DISPATCHED',
        trackurl: 'https://t.example/x',
        trackingNumber: 'BRX',
        createdAt: new Date('2026-03-01T11:00:00Z'),
      });
      await orderTransfer(db, {
        orderDbId: id,
        fromStore: 'S1',
        toStore: 'S2',
        fromStoreId: 'store-1',
        toStoreId: 'store-2',
        processedBy: 'Maria',
        transferReason: 'Kitchen closed',
        shippingAddress: { city: 'São Paulo' },
        createdAt: new Date('2026-03-01T10:00:00Z'),
        clientId: '1001',
      });
      await orderDispatch(db, { orderDbId: id, idTransaccion: 'TX-1', createdAt: new Date('2026-03-01T13:00:00Z'), clientId: '1001' });
      const delivery = { orderDbId: id, webhookId: 'msg_x', url: 'http://r.example/h', requestHeaders: { 'webhook-id': 'msg_x' } };
      await webhookDelivery(db, {
        ...delivery,
        attempt: 2,
        trigger: 'retry',
        statusCode: 200,
        responseBody: 'ok',
        durationMs: 12,
        attemptedAt: new Date('2026-03-01T09:00:02Z'),
      });
      await webhookDelivery(db, {
        ...delivery,
        attempt: 1,
        trigger: 'forward',
        statusCode: 500,
        responseBody: 'no',
        durationMs: 15,
        attemptedAt: new Date('2026-03-01T09:00:00Z'),
      });
      const response = ok(await detail(id), 200);
      expect(response.tracking).toEqual([
        {
          status: 'in transit',
          orderStatusApplied: false,
          trackurl: 'https://t.example/1',
          trackingNumber: 'BR1',
          deliveryConfirmationCode: null,
          shippingCoordinates: [],
          at: '2026-03-01T11:00:00.000000Z',
          clientId: '1001',
          extra: null,
        },
        {
          status: 'DELIVERED',
          orderStatusApplied: true,
          trackurl: 'https://t.example/2',
          trackingNumber: 'BR2',
          deliveryConfirmationCode: '4821',
          shippingCoordinates: [{ latitude: '-23.5', longitude: '-46.6' }],
          at: '2026-03-01T12:00:00.000000Z',
          clientId: '1001',
          extra: null,
        },
      ]);
      expect(response.transfers).toEqual([
        {
          fromStore: 'S1',
          toStore: 'S2',
          fromStoreId: 'store-1',
          toStoreId: 'store-2',
          processedBy: 'Maria',
          transferReason: 'Kitchen closed',
          shippingAddress: { city: 'São Paulo' },
          refiscalized: false,
          fromFiscalGroupId: null,
          toFiscalGroupId: null,
          at: '2026-03-01T10:00:00.000000Z',
          clientId: '1001',
          extra: null,
        },
      ]);
      expect(response.dispatches).toEqual([{ idTransaccion: 'TX-1', at: '2026-03-01T13:00:00.000000Z', clientId: '1001', extra: null }]);
      expect(response.deliveries.map((delivery) => [delivery.attempt, delivery.trigger, delivery.statusCode])).toEqual([
        [1, 'forward', 500],
        [2, 'retry', 200],
      ]);
      expect(response.deliveries[0]).toEqual({
        attempt: 1,
        trigger: 'forward',
        webhookId: 'msg_x',
        url: 'http://r.example/h',
        requestHeaders: { 'webhook-id': 'msg_x' },
        statusCode: 500,
        responseBody: 'no',
        durationMs: 15,
        error: null,
        attemptedAt: '2026-03-01T09:00:00.000000Z',
      });
      // Another order's rows do not show.
      expect(ok(await detail(other), 200).transfers).toEqual([]);
    });
  });
});
