import { bootOrderListApp, orderListSteps, LIST, type OrderListApp } from '../support/order-list.js';
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
    const detail = (id: string, token = admin) => t.http.get(`${LIST}/${encodeURIComponent(id)}`, { token });

    it('finds an order by its internal id and by its orderId, with every PersistedOrder field', async () => {
      const byId = await detail(ids.get('RAP-50%OFF')!);
      expect(byId.status).toBe(200);
      const byOrderId = await detail('RAP-50%OFF');
      expect(byOrderId.status).toBe(200);
      expect(byOrderId.body).toEqual(byId.body);
      expect(byId.body).toMatchObject({ id: ids.get('RAP-50%OFF'), orderId: 'RAP-50%OFF', status: 'FORWARD_FAILED', webhookAttempts: 5 });
      expect(Object.keys(byId.body).sort()).toEqual(
        [
          'id',
          'orderId',
          'status',
          'payload',
          'enrichedPayload',
          'webhookAttempts',
          'storeId',
          'source',
          'webhookLastResponse',
          'createdAt',
          'updatedAt',
          'history',
          'tracking',
          'transfers',
          'dispatches',
          'deliveries',
        ].sort(),
      );
      expect(byId.body).toMatchObject({ tracking: [], transfers: [], dispatches: [], deliveries: [] });
      expect((await detail(ids.get('RAP-50%OFF')!.toUpperCase())).body.id).toBe(ids.get('RAP-50%OFF'));
      expect((await detail('WEB-C\\D')).body.orderId).toBe('WEB-C\\D');
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
      const response = await detail(uuidLike);
      expect(response.status).toBe(200);
      expect(response.body.orderId).toBe(uuidLike);
      await t.dataSource.query(`DELETE FROM orders WHERE order_id = $1`, [uuidLike]);
    });

    it('answers 404 for an unknown UUID or orderId, 400 for an id longer than any orderId', async () => {
      const unknownUuid = await detail('00000000-0000-4000-8000-000000000000');
      expect(unknownUuid.status).toBe(404);
      expect(unknownUuid.body.error).toBe('NOT_FOUND');
      expect((await detail('NO-SUCH-ORDER')).status).toBe(404);
      expect((await detail('rap-50%off')).status).toBe(404);
      const tooLong = await detail('x'.repeat(101));
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error).toBe('VALIDATION_FAILED');
      const longestOrderId = `${'%'.repeat(50)}${'é'.repeat(50)}`;
      await insert({
        orderId: longestOrderId,
        storeId: 'store-l',
        source: 'site',
        status: 'ENRICHED',
        attempts: 0,
        createdAt: '2026-01-02T00:00:00Z',
      });
      expect((await detail(longestOrderId)).body.orderId).toBe(longestOrderId);
      await t.dataSource.query(`DELETE FROM orders WHERE order_id = $1`, [longestOrderId]);
      expect((await detail('NO-SUCH-ORDER', await t.tokenFor(['orders']))).status).toBe(403);
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
      await t.dataSource.query(
        `UPDATE orders SET status = 'FORWARDED', last_changed_by = NULL, last_changed_via = 'order webhook' WHERE id = $1`,
        [id],
      );
      await t.dataSource.query(
        `UPDATE orders SET status = 'ACCEPTED', last_changed_by = '2002', last_changed_via = 'POST /api/api/order/status' WHERE id = $1`,
        [id],
      );
      await t.dataSource.query(`UPDATE orders SET webhook_attempts = 1 WHERE id = $1`, [id]);
      const response = await detail('HIST-1');
      expect(response.status).toBe(200);
      const history = response.body.history as Array<{
        status: string;
        from: string | null;
        at: string;
        clientId: string | null;
        via: string;
      }>;
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
      await t.dataSource.query(
        `INSERT INTO order_tracking (order_db_id, status, order_status_applied, trackurl, tracking_number, delivery_confirmation_code, shipping_coordinates, created_at, client_id) VALUES
           ($1, 'DELIVERED', true, 'https://t.example/2', 'BR2', '4821', '[{"latitude": "-23.5", "longitude": "-46.6"}]', '2026-03-01T12:00:00Z', '1001'),
           ($1, 'in transit', false, 'https://t.example/1', 'BR1', null, '[]', '2026-03-01T11:00:00Z', '1001'),
           ($2, 'DISPATCHED', true, 'https://t.example/x', 'BRX', null, '[]', '2026-03-01T11:00:00Z', '1001')`,
        [id, other],
      );
      await t.dataSource.query(
        `INSERT INTO order_transfer (order_db_id, from_store, to_store, from_store_id, to_store_id, processed_by, transfer_reason, shipping_address, refiscalized, created_at, client_id)
         VALUES ($1, 'S1', 'S2', 'store-1', 'store-2', 'Maria', 'Kitchen closed', '{"city": "São Paulo"}', false, '2026-03-01T10:00:00Z', '1001')`,
        [id],
      );
      await t.dataSource.query(
        `INSERT INTO order_dispatch (order_db_id, id_transaccion, created_at, client_id) VALUES ($1, 'TX-1', '2026-03-01T13:00:00Z', '1001')`,
        [id],
      );
      await t.dataSource.query(
        `INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error, attempted_at)
         VALUES ($1, 2, 'retry', 'msg_x', 'http://r.example/h', '{"webhook-id": "msg_x"}', 200, 'ok', 12, null, '2026-03-01T09:00:02Z'),
                ($1, 1, 'forward', 'msg_x', 'http://r.example/h', '{"webhook-id": "msg_x"}', 500, 'no', 15, null, '2026-03-01T09:00:00Z')`,
        [id],
      );
      const response = await detail(id);
      expect(response.status).toBe(200);
      expect(response.body.tracking).toEqual([
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
      expect(response.body.transfers).toEqual([
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
      expect(response.body.dispatches).toEqual([
        { idTransaccion: 'TX-1', at: '2026-03-01T13:00:00.000000Z', clientId: '1001', extra: null },
      ]);
      expect(
        response.body.deliveries.map((delivery: { attempt: number; trigger: string; statusCode: number }) => [
          delivery.attempt,
          delivery.trigger,
          delivery.statusCode,
        ]),
      ).toEqual([
        [1, 'forward', 500],
        [2, 'retry', 200],
      ]);
      expect(response.body.deliveries[0]).toEqual({
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
      expect((await detail(other)).body.transfers).toEqual([]);
    });
  });
});
