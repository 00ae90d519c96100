import { ok } from '../support/api.js';
import { bootOrderListApp, orderListSteps, type Fixture, type OrderListApp, type OrderListQuery } from '../support/order-list.js';
import type { TestApp } from '../support/test-app.js';

describe('GET /api/admin/orders and /api/admin/orders/{id} (e2e)', () => {
  let app: OrderListApp;
  let t: TestApp;
  let ids: Map<string, string>;
  const { list, page, orderIds, expected } = orderListSteps(() => app);

  beforeAll(async () => {
    app = await bootOrderListApp();
    ({ t, ids } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the list', () => {
    it('returns every order, newest first, in the page envelope with every PersistedOrder field', async () => {
      const listed = await list();
      expect(listed.response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(listed.response.headers.get('x-request-id')).toBeTruthy();
      const response = ok(listed, 200);
      expect(Object.keys(response).sort()).toEqual(['items', 'page', 'pageSize', 'total', 'totalPages']);
      expect(response).toMatchObject({ total: 13, page: 1, pageSize: 20, totalPages: 1 });
      expect(orderIds(response)).toEqual(expected(() => true));
      const item = response.items.find((order) => order.orderId === 'RAP-50%OFF');
      expect(item).toEqual({
        id: ids.get('RAP-50%OFF'),
        orderId: 'RAP-50%OFF',
        status: 'FORWARD_FAILED',
        payload: { orderId: 'RAP-50%OFF', source: 'rappi', store: { id: 'store-b' } },
        enrichedPayload: { orderId: 'RAP-50%OFF', taxSummary: { totals: { total_tax: 1.5 } } },
        webhookAttempts: 5,
        storeId: 'store-b',
        source: 'rappi',
        // Written only for an order read through a marketplace profile (its payload keeps the document under sourceOrder).
        marketplaceOrderNumber: null,
        webhookLastResponse: { statusCode: 200, body: 'ok', durationMs: 12, error: null, attemptedAt: '2026-03-02T12:00:00.123456Z' },
        createdAt: '2026-03-02T12:00:00.123456Z',
        updatedAt: '2026-03-02T12:00:00.123456Z',
      });
      const received = response.items.find((order) => order.orderId === 'MS-AFTER');
      expect(received).toMatchObject({ enrichedPayload: null, storeId: null, source: null, webhookLastResponse: null, webhookAttempts: 0 });
    });

    it('orders equal createdAt by id, descending', async () => {
      const response = await page({ storeId: 'store-c' });
      const [first, second] = [ids.get('WEB-A_B')!, ids.get('WEB-AXB')!].sort().reverse();
      expect(response.items.slice(1).map((item: { id: string }) => item.id)).toEqual([first, second]);
    });

    it.each<[string, OrderListQuery, (f: Fixture) => boolean]>([
      ['storeId', { storeId: 'store-b' }, (f: Fixture) => f.storeId === 'store-b'],
      ['source', { source: 'site' }, (f: Fixture) => f.source === 'site'],
      ['status', { status: 'DELIVERED' }, (f: Fixture) => f.status === 'DELIVERED'],
      ['minWebhookAttempts', { minWebhookAttempts: 3 }, (f: Fixture) => f.attempts >= 3],
      ['maxWebhookAttempts', { maxWebhookAttempts: 1 }, (f: Fixture) => f.attempts <= 1],
      ['min and max attempts equal', { minWebhookAttempts: 2, maxWebhookAttempts: 2 }, (f: Fixture) => f.attempts === 2],
      ['minWebhookAttempts 0 (everything)', { minWebhookAttempts: 0 }, () => true],
      ['an unknown store', { storeId: 'store-zzz' }, () => false],
    ])('filters by %s', async (_label, query, keep) => {
      const response = await page(query);
      const want = expected(keep);
      expect(orderIds(response)).toEqual(want);
      expect(response.total).toBe(want.length);
      expect(response.totalPages).toBe(want.length === 0 ? 0 : 1);
    });

    describe('orderId: a case-insensitive substring with %, _ and \\ taken literally', () => {
      it.each([
        ['aaa', ['IFD-aaa222', 'IFD-AAA111']],
        ['AaA1', ['IFD-AAA111']],
        ['50%', ['RAP-50%OFF']],
        ['%', ['RAP-50%OFF']],
        ['A_B', ['WEB-A_B']],
        ['_', ['WEB-A_B']],
        ['\\', ['WEB-C\\D']],
        ['C\\D', ['WEB-C\\D']],
        ['off', ['RAP-50XOFF', 'RAP-50%OFF']],
        ['-', () => expected(() => true)],
        ['nothing-like-this', []],
      ])('%s', async (fragment, wanted) => {
        const want = typeof wanted === 'function' ? wanted() : wanted;
        const response = await page({ orderId: fragment });
        expect(orderIds(response)).toEqual(want);
        expect(response.total).toBe(want.length);
      });
    });

    describe('createdFrom and createdTo: inclusive, at the exact instant', () => {
      it('includes orders created exactly at both bounds and excludes those 1 ms outside', async () => {
        const response = await page({ createdFrom: '2026-03-05T10:00:00.000Z', createdTo: '2026-03-05T11:00:00.000Z' });
        expect(orderIds(response)).toEqual(['MS-TO', 'MS-FROM']);
        expect(response.total).toBe(2);
      });

      it('is exact to the microsecond, as orders are stored', async () => {
        const response = await page({ createdFrom: '2026-03-02T00:00:00Z', createdTo: '2026-03-02T12:00:00.123456Z' });
        expect(orderIds(response)).toEqual(['RAP-50%OFF', 'RAP-BBB333']);
        // One microsecond earlier leaves the later bound's order out; a sub-microsecond bound never rounds it in.
        expect(orderIds(await page({ createdTo: '2026-03-02T12:00:00.123455999Z', createdFrom: '2026-03-02T00:00:00Z' }))).toEqual([
          'RAP-BBB333',
        ]);
        expect(orderIds(await page({ createdFrom: '2026-03-01T23:59:59.9999991Z', createdTo: '2026-03-02T00:00:00Z' }))).toEqual([
          'RAP-BBB333',
        ]);
      });

      it('applies the zone of the bound; a bound without a zone is UTC', async () => {
        const saoPaulo = await page({ createdFrom: '2026-03-01T21:00:00-03:00', createdTo: '2026-03-01T21:00:00.000000-0300' });
        expect(orderIds(saoPaulo)).toEqual(['RAP-BBB333']);
        const noZone = await page({ createdFrom: '2026-03-02T00:00:00', createdTo: '2026-03-02T00:00' });
        expect(orderIds(noZone)).toEqual(['RAP-BBB333']);
      });

      it('takes one bound alone', async () => {
        expect(orderIds(await page({ createdFrom: '2026-03-04T00:00:00Z' }))).toEqual(expected((f) => f.createdAt >= '2026-03-04T'));
        expect(orderIds(await page({ createdTo: '2026-03-01T23:59:59.999999Z' }))).toEqual(['IFD-aaa222', 'IFD-AAA111']);
      });

      it('counts ranges spanning whole days (per-day counters) and their partial ends exactly', async () => {
        const cases: Array<[OrderListQuery, (f: Fixture) => boolean]> = [
          [{ createdFrom: '2026-03-01T10:00:00Z', createdTo: '2026-03-04T00:00:00Z' }, (f) => f.createdAt <= '2026-03-04T00:00:00.000000Z'],
          [{ createdFrom: '2026-03-01T10:00:00.000001Z' }, (f) => f.createdAt > '2026-03-01T10:00:00.000000Z'],
          [
            { createdFrom: '2026-03-02T00:00:00Z', createdTo: '2026-03-03T23:59:59.999999Z' },
            (f) => f.createdAt.startsWith('2026-03-02') || f.createdAt.startsWith('2026-03-03'),
          ],
          [
            { createdTo: '2026-03-05T10:59:59.999999Z', status: 'RECEIVED' },
            (f) => f.status === 'RECEIVED' && f.createdAt < '2026-03-05T11',
          ],
          [{ createdFrom: '2026-02-01T00:00:00Z', createdTo: '2026-03-31T00:00:00Z', source: 'rappi' }, (f) => f.source === 'rappi'],
          [
            { createdFrom: '2026-03-01T00:00:00Z', createdTo: '2026-03-03T12:00:00Z', source: 'site', status: 'DELIVERED' },
            (f) => f.source === 'site' && f.status === 'DELIVERED',
          ],
        ];
        for (const [query, keep] of cases) {
          const response = await page(query);
          const want = expected(keep);
          expect([query, orderIds(response)]).toEqual([query, want]);
          expect([query, response.total]).toEqual([query, want.length]);
        }
      });
    });

    it('gets totals right under combined filters', async () => {
      const cases: Array<[OrderListQuery, (f: Fixture) => boolean]> = [
        [{ storeId: 'store-b', status: 'DELIVERED' }, (f) => f.storeId === 'store-b' && f.status === 'DELIVERED'],
        [
          { storeId: 'store-a', createdFrom: '2026-03-01T12:00:00Z', createdTo: '2026-03-04T00:00:00Z' },
          (f) => f.storeId === 'store-a' && f.createdAt > '2026-03-01T12',
        ],
        [{ source: 'rappi', orderId: 'off' }, (f) => f.source === 'rappi' && f.orderId.toLowerCase().includes('off')],
        [{ source: 'site', status: 'DELIVERED' }, (f) => f.source === 'site' && f.status === 'DELIVERED'],
        [
          { storeId: 'store-c', minWebhookAttempts: 2, maxWebhookAttempts: 2, createdTo: '2026-03-03T08:00:00Z' },
          (f) => f.storeId === 'store-c' && f.attempts === 2,
        ],
        [
          { status: 'RECEIVED', maxWebhookAttempts: 0, createdFrom: '2026-03-05T10:00:00Z' },
          (f) => f.status === 'RECEIVED' && f.createdAt >= '2026-03-05T10',
        ],
        [
          { storeId: 'store-b', source: 'rappi', status: 'FORWARD_FAILED', orderId: '%', minWebhookAttempts: 5 },
          (f) => f.orderId === 'RAP-50%OFF',
        ],
        [{ storeId: 'store-b', source: 'ifood' }, () => false],
      ];
      for (const [query, keep] of cases) {
        const response = await page(query);
        const want = expected(keep);
        expect([query, orderIds(response), response.total]).toEqual([query, want, want.length]);
      }
    });
  });
});
