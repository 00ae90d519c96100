import { OrderCountFolder } from '../../src/orders/order-count-folder.js';
import { bootOrderListApp, orderListSteps, type OrderListApp } from '../support/order-list.js';
import type { TestApp } from '../support/test-app.js';

describe('GET /api/admin/orders and /api/admin/orders/{id} (e2e)', () => {
  let app: OrderListApp;
  let t: TestApp;
  const { list, orderIds, expected, insert } = orderListSteps(() => app);

  beforeAll(async () => {
    app = await bootOrderListApp();
    ({ t } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the list', () => {
    it('pages through the list without gaps or repeats; totalPages = ceil(total / pageSize)', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const response = await list({ page, pageSize: 4 });
        expect(response.body).toMatchObject({ total: 13, page, pageSize: 4, totalPages: 4 });
        expect(response.body.items.length).toBe(page < 4 ? 4 : 1);
        seen.push(...orderIds(response.body));
      }
      expect(seen).toEqual(expected(() => true));
    });

    it('answers a page past the end with no items and the right total', async () => {
      const response = await list({ page: 99, pageSize: 5, storeId: 'store-b' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ items: [], total: 3, page: 99, pageSize: 5, totalPages: 1 });
      const huge = await list({ page: 2147483647, pageSize: 100 });
      expect(huge.body).toEqual({ items: [], total: 13, page: 2147483647, pageSize: 100, totalPages: 1 });
    });

    it('answers an empty result with totalPages 0', async () => {
      expect((await list({ status: 'DISPATCHED' })).body).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 });
    });
  });

  describe('exact counts while orders change', () => {
    it('keeps the per-day counters right through updates, deletes and folding', async () => {
      const checks: Array<Record<string, string>> = [
        {},
        { status: 'DELIVERED' },
        { source: 'site' },
        { createdFrom: '2026-03-01T00:00:00Z', createdTo: '2026-03-03T23:59:59.999999Z', status: 'DELIVERED' },
      ];
      const totals = async () => Promise.all(checks.map(async (query) => (await list(query)).body.total));
      const countInSql = async () =>
        Promise.all(
          [
            `SELECT count(*) AS n FROM orders`,
            `SELECT count(*) AS n FROM orders WHERE status = 'DELIVERED'`,
            `SELECT count(*) AS n FROM orders WHERE source = 'site'`,
            `SELECT count(*) AS n FROM orders WHERE status = 'DELIVERED' AND created_at >= '2026-03-01T00:00:00Z' AND created_at < '2026-03-04T00:00:00Z'`,
          ].map(async (sql) => Number((await t.dataSource.query(sql))[0].n)),
        );

      const extra = await insert({
        orderId: 'TMP-1',
        storeId: 'store-x',
        source: 'site',
        status: 'DELIVERED',
        attempts: 1,
        createdAt: '2026-03-03T10:00:00Z',
      });
      await t.dataSource.query(`UPDATE orders SET status = 'DELIVERED', source = 'site' WHERE order_id = 'RAP-BBB333'`);
      await t.dataSource.query(`UPDATE orders SET created_at = '2026-03-10T00:00:00Z' WHERE order_id = 'WEB-A_B'`);
      await t.dataSource.query(`UPDATE orders SET webhook_attempts = webhook_attempts + 1 WHERE order_id = 'WEB-AXB'`);
      expect(await totals()).toEqual(await countInSql());
      expect(await totals()).toEqual([14, 5, 6, 4]);

      await t.app.get(OrderCountFolder).fold();
      const [{ pending }] = await t.dataSource.query(`SELECT count(*)::int AS pending FROM order_count_delta`);
      expect(pending).toBe(0);
      expect(await totals()).toEqual([14, 5, 6, 4]);

      await t.dataSource.query(`DELETE FROM orders WHERE id = $1`, [extra]);
      await t.dataSource.query(`UPDATE orders SET status = 'DELIVERED', source = 'rappi' WHERE order_id = 'RAP-BBB333'`);
      await t.dataSource.query(`UPDATE orders SET created_at = '2026-03-03T08:00:00Z' WHERE order_id = 'WEB-A_B'`);
      expect(await totals()).toEqual(await countInSql());
      expect(await totals()).toEqual([13, 4, 4, 4]);
    });
  });
});
