import { And, LessThan, MoreThanOrEqual } from 'typeorm';
import { OrderCountDeltaEntity, OrderIdFragmentDeltaEntity } from '../../src/orders/order-count.entity.js';
import { containsPattern } from '../../src/orders/order-list.sql.js';
import { OrderCountFolder } from '../../src/orders/order-count-folder.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { bootOrderListApp, FIXTURES, orderListSteps, type OrderListApp, type OrderListQuery } from '../support/order-list.js';
import type { TestApp } from '../support/test-app.js';

describe('GET /api/admin/orders and /api/admin/orders/{id} (e2e)', () => {
  let app: OrderListApp;
  let t: TestApp;
  const { page, orderIds, expected, insert } = orderListSteps(() => app);

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
      for (let number = 1; number <= 4; number++) {
        const response = await page({ page: number, pageSize: 4 });
        expect(response).toMatchObject({ total: 13, page: number, pageSize: 4, totalPages: 4 });
        expect(response.items.length).toBe(number < 4 ? 4 : 1);
        seen.push(...orderIds(response));
      }
      expect(seen).toEqual(expected(() => true));
    });

    it('answers a page past the end with no items and the right total', async () => {
      const response = await page({ page: 99, pageSize: 5, storeId: 'store-b' });
      expect(response).toEqual({ items: [], total: 3, page: 99, pageSize: 5, totalPages: 1 });
      const huge = await page({ page: 2147483647, pageSize: 100 });
      expect(huge).toEqual({ items: [], total: 13, page: 2147483647, pageSize: 100, totalPages: 1 });
    });

    it('answers an empty result with totalPages 0', async () => {
      expect(await page({ status: 'DISPATCHED' })).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 });
    });
  });

  describe('exact counts while orders change', () => {
    it('keeps the per-day counters right through updates, deletes and folding', async () => {
      const checks: OrderListQuery[] = [
        {},
        { status: 'DELIVERED' },
        { source: 'site' },
        { createdFrom: '2026-03-01T00:00:00Z', createdTo: '2026-03-03T23:59:59.999999Z', status: 'DELIVERED' },
      ];
      const totals = async () => Promise.all(checks.map(async (query) => (await page(query)).total));
      const orders = t.dataSource.getRepository(OrderEntity);
      // The same counts read row by row, beside the counters the list reads.
      const countInSql = async () =>
        Promise.all([
          orders.count(),
          orders.countBy({ status: 'DELIVERED' }),
          orders.countBy({ source: 'site' }),
          orders.countBy({
            status: 'DELIVERED',
            createdAt: And(MoreThanOrEqual(new Date('2026-03-01T00:00:00Z')), LessThan(new Date('2026-03-04T00:00:00Z'))),
          }),
        ]);

      const extra = await insert({
        orderId: 'TMP-1',
        storeId: 'store-x',
        source: 'site',
        status: 'DELIVERED',
        attempts: 1,
        createdAt: '2026-03-03T10:00:00Z',
      });
      await orders.update({ orderId: 'RAP-BBB333' }, { status: 'DELIVERED', source: 'site' });
      await orders.update({ orderId: 'WEB-A_B' }, { createdAt: new Date('2026-03-10T00:00:00Z') });
      await orders.increment({ orderId: 'WEB-AXB' }, 'webhookAttempts', 1);
      expect(await totals()).toEqual(await countInSql());
      expect(await totals()).toEqual([14, 5, 6, 4]);

      await t.app.get(OrderCountFolder).fold();
      // The fold moved every pending change into the counters.
      expect(await t.dataSource.getRepository(OrderCountDeltaEntity).count()).toBe(0);
      expect(await totals()).toEqual([14, 5, 6, 4]);

      await orders.delete({ id: extra });
      await orders.update({ orderId: 'RAP-BBB333' }, { status: 'DELIVERED', source: 'rappi' });
      await orders.update({ orderId: 'WEB-A_B' }, { createdAt: new Date('2026-03-03T08:00:00Z') });
      expect(await totals()).toEqual(await countInSql());
      expect(await totals()).toEqual([13, 4, 4, 4]);
    });

    it('keeps the orderId fragment counters right through inserts, renames, deletes and folding', async () => {
      // 1 and 2 characters (counted by fragment), either case, %, _ and \ literal; 3 characters and
      // non-ASCII are counted in orders, as a control.
      const fragments = ['a', 'Aa', '2', 'b3', '_', 'a_', '%', '\\', '\\d', '-', 'z', 'é', 'off'];
      const totals = async () => Promise.all(fragments.map(async (orderId) => (await page({ orderId })).total));
      // The same counts read row by row with the list's ILIKE.
      const countInSql = async () =>
        Promise.all(
          fragments.map(async (fragment) => {
            const [{ n }] = await t.dataSource.query<Array<{ n: number }>>(
              `SELECT count(*)::int AS n FROM orders WHERE order_id ILIKE $1 ESCAPE '\\'`,
              [containsPattern(fragment)],
            );
            return n;
          }),
        );
      // And from the orderIds in JavaScript (lower-casing ASCII as the database does).
      const countIn = (orderIds: string[]) =>
        fragments.map((fragment) => orderIds.filter((orderId) => orderId.toLowerCase().includes(fragment.toLowerCase())).length);
      const fixtureIds = FIXTURES.map((fixture) => fixture.orderId);
      const orders = t.dataSource.getRepository(OrderEntity);
      const folder = t.app.get(OrderCountFolder);

      await folder.fold();
      const before = await totals();
      expect(before).toEqual(await countInSql());
      expect(before).toEqual(countIn(fixtureIds));

      const extra = await insert({
        orderId: 'ZZ-a_Aa\\D%%',
        storeId: 'store-x',
        source: 'site',
        status: 'DELIVERED',
        attempts: 1,
        createdAt: '2026-03-03T10:00:00Z',
      });
      await orders.update({ orderId: 'IFD-AAA111' }, { orderId: 'IFD-BBB111' });
      const changedIds = [...fixtureIds.map((orderId) => (orderId === 'IFD-AAA111' ? 'IFD-BBB111' : orderId)), 'ZZ-a_Aa\\D%%'];
      expect(await totals()).toEqual(await countInSql());
      expect(await totals()).toEqual(countIn(changedIds));

      await folder.fold();
      // The fold moved every pending change into the counters.
      expect(await t.dataSource.getRepository(OrderIdFragmentDeltaEntity).count()).toBe(0);
      expect(await totals()).toEqual(countIn(changedIds));

      await orders.delete({ id: extra });
      await orders.update({ orderId: 'IFD-BBB111' }, { orderId: 'IFD-AAA111' });
      expect(await totals()).toEqual(before);
      await folder.fold();
      expect(await totals()).toEqual(before);
    });
  });
});
