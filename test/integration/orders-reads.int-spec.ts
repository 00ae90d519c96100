import { jest } from '@jest/globals';
import { SqlRunner } from '../../src/database/sql-runner.js';
import { detailSection, OrderDetailSections } from '../../src/orders/order-detail-sections.js';
import { OrderReadsRepository } from '../../src/orders/order-reads.repository.js';
import type { OrderListQuery } from '../../src/orders/dto/order-list.query.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { OrdersModule } from '../../src/orders/orders.module.js';
import { OrdersQueryService } from '../../src/orders/orders-query.service.js';
import { order } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

interface Page {
  items: Array<{ orderId: string; status: string; createdAt: string }>;
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}

/** Every list query names this day: the other tests' orders (created now) stay out of it. */
const DAY = '2025-03-10';
const at = (time: string) => new Date(`${DAY}T${time}Z`);

describe('Orders: the list and the detail (integration)', () => {
  let db: IntegrationContext;
  let service: OrdersQueryService;
  const list = async (query: OrderListQuery): Promise<Page> =>
    JSON.parse(await service.list({ createdFrom: `${DAY}T00:00:00Z`, createdTo: `${DAY}T23:59:59.999999Z`, ...query })) as Page;
  const ids = (page: Page) => page.items.map((item) => item.orderId);

  beforeAll(async () => {
    db = await bootIntegration({ imports: [OrdersModule] });
    service = db.get(OrdersQueryService);
    // Seven orders of one day, one second apart; the list is newest first.
    const rows: Array<Partial<OrderEntity>> = [
      { orderId: 'L-1', storeId: 'store-a', source: 'platform', status: 'ENRICHED', webhookAttempts: 0 },
      { orderId: 'L-2', storeId: 'store-a', source: 'platform', status: 'FORWARDED', webhookAttempts: 1 },
      { orderId: 'L-3', storeId: 'store-b', source: 'platform', status: 'FORWARD_FAILED', webhookAttempts: 4 },
      { orderId: 'L-4', storeId: 'store-b', source: 'pos', status: 'ACCEPTED', webhookAttempts: 2 },
      { orderId: 'L%5_x', storeId: 'store-a', source: 'pos', status: 'ENRICHED', webhookAttempts: 0 },
      { orderId: 'l-6', storeId: 'store-c', source: 'pos', status: 'DELIVERED', webhookAttempts: 1 },
      { orderId: 'L-7', storeId: 'store-a', source: 'platform', status: 'ENRICHED', webhookAttempts: 0 },
    ];
    for (const [index, row] of rows.entries()) {
      await order(db.dataSource, { ...row, createdAt: at(`10:00:0${index}`) });
    }
    // A Date holds milliseconds: the microsecond that the window's bounds are checked against is set in SQL.
    await db.dataSource.query(`UPDATE orders SET created_at = created_at + interval '1 microsecond' WHERE order_id = ANY($1)`, [
      rows.map((row) => row.orderId),
    ]);
    // Outside the day by a microsecond at each end.
    await order(db.dataSource, { orderId: 'L-before', storeId: 'store-a', createdAt: new Date(`2025-03-09T23:59:59.999Z`) });
    await db.dataSource.query(`UPDATE orders SET created_at = '2025-03-11T00:00:00.000000Z' WHERE order_id = 'L-7'`);
  });
  afterAll(async () => {
    await db?.close();
  });

  describe('list', () => {
    it('lists the day newest first, with the page arithmetic', async () => {
      const first = await list({ pageSize: 4 });
      expect(ids(first)).toEqual(['l-6', 'L%5_x', 'L-4', 'L-3']);
      expect(first).toMatchObject({ total: 6, page: 1, pageSize: 4, totalPages: 2 });
      const second = await list({ pageSize: 4, page: 2 });
      expect(ids(second)).toEqual(['L-2', 'L-1']);
      expect(await list({ pageSize: 4, page: 3 })).toMatchObject({ items: [], total: 6, totalPages: 2 });
    });

    it('bounds the creation window inclusively, to the microsecond', async () => {
      const page = await list({ createdFrom: `${DAY}T10:00:01.000001Z`, createdTo: `${DAY}T10:00:03.000001Z` });
      expect(ids(page)).toEqual(['L-4', 'L-3', 'L-2']);
      expect(page.total).toBe(3);
      // One microsecond later at the start leaves L-2 out.
      expect(ids(await list({ createdFrom: `${DAY}T10:00:01.000002Z`, createdTo: `${DAY}T10:00:03.000001Z` }))).toEqual(['L-4', 'L-3']);
    });

    it.each<[string, OrderListQuery, string[]]>([
      ['store', { storeId: 'store-a' }, ['L%5_x', 'L-2', 'L-1']],
      ['source (counted from the per-day counters)', { source: 'pos' }, ['l-6', 'L%5_x', 'L-4']],
      ['status', { status: 'ENRICHED' }, ['L%5_x', 'L-1']],
      ['status and source', { status: 'ENRICHED', source: 'platform' }, ['L-1']],
      ['orderId substring, case-insensitive', { orderId: 'l-' }, ['l-6', 'L-4', 'L-3', 'L-2', 'L-1']],
      ['webhook attempts range', { minWebhookAttempts: 1, maxWebhookAttempts: 2 }, ['l-6', 'L-4', 'L-2']],
      ['at least 3 attempts', { minWebhookAttempts: 3 }, ['L-3']],
    ])('filters by %s, with the count of the matches', async (_name, query, expected) => {
      const page = await list(query);
      expect(ids(page)).toEqual(expected);
      expect(page.total).toBe(expected.length);
    });

    it('takes % and _ of the orderId filter literally', async () => {
      // Another day, so that the other tests' day keeps its orders.
      const day = { createdFrom: '2025-04-01T00:00:00Z', createdTo: '2025-04-01T23:59:59Z' };
      for (const orderId of ['LIT-50%_off', 'LIT-50xyoff', 'LIT-50%xoff']) {
        await order(db.dataSource, { orderId, createdAt: new Date('2025-04-01T12:00:00Z') });
      }
      expect(ids(await list({ ...day, orderId: '0%_o' }))).toEqual(['LIT-50%_off']);
    });

    it('folds the case of every letter of an orderId fragment, accented ones included', async () => {
      // Another day, so that the other tests' day keeps its orders.
      const day = { createdFrom: '2025-04-03T00:00:00Z', createdTo: '2025-04-03T23:59:59Z' };
      for (const orderId of ['PEDIDO-ÉCLAIR-1', 'pedido-éclair-2', 'AÇAÍ-3']) {
        await order(db.dataSource, { orderId, createdAt: new Date('2025-04-03T12:00:00Z') });
      }
      const both = ['pedido-éclair-2', 'PEDIDO-ÉCLAIR-1'];
      expect(ids(await list({ ...day, orderId: 'éclair' })).sort()).toEqual(both.sort());
      expect(ids(await list({ ...day, orderId: 'ÉCLAIR' })).sort()).toEqual(both.sort());
      expect(ids(await list({ ...day, orderId: 'É' })).sort()).toEqual(both.sort());
      expect(ids(await list({ ...day, orderId: 'açaí' }))).toEqual(['AÇAÍ-3']);
      expect((await list({ ...day, orderId: 'ç' })).total).toBe(1);
      expect((await list({ ...day, orderId: 'ÉCLAIR' })).total).toBe(2);
    });

    it('finds an order by an orderId fragment while its index entries wait in the pending list, and once they are merged', async () => {
      // The substring index takes new entries into a small pending list that every search reads whole.
      const [index] = await db.dataSource.query<Array<{ options: string[] }>>(
        `SELECT reloptions AS options FROM pg_class WHERE relname = 'ix_orders_order_id_trgm'`,
      );
      expect(index!.options).toEqual(expect.arrayContaining(['fastupdate=on', 'gin_pending_list_limit=64']));
      const day = { createdFrom: '2025-04-02T00:00:00Z', createdTo: '2025-04-02T23:59:59Z' };
      await order(db.dataSource, { orderId: 'PENDING-Q7XW', createdAt: new Date('2025-04-02T12:00:00Z') });
      expect(ids(await list({ ...day, orderId: 'q7x' }))).toEqual(['PENDING-Q7XW']);
      await db.dataSource.query(`SELECT gin_clean_pending_list('ix_orders_order_id_trgm'::regclass)`);
      expect(ids(await list({ ...day, orderId: 'q7x' }))).toEqual(['PENDING-Q7XW']);
      expect(ids(await list({ ...day, orderId: 'q7y' }))).toEqual([]);
    });

    it('reads no page for a short orderId fragment whose counters say the page is empty', async () => {
      // A fragment of 1 or 2 characters alone is counted from counters, and its page scans the creation index: that
      // scan is skipped when the count leaves the page empty. The statements run tell which were read.
      const runner = db.get(SqlRunner);
      const run = jest.spyOn(runner, 'row');
      const read = async (query: OrderListQuery) => {
        run.mockClear();
        const page = JSON.parse(await service.list(query)) as Page;
        const statements = run.mock.calls.map(([statement]) => (statement.text.includes('string_agg') ? 'page' : 'count'));
        return { ids: ids(page), total: page.total, totalPages: page.totalPages, statements };
      };
      try {
        // No order's id holds "~^".
        expect(await read({ orderId: '~^' })).toEqual({ ids: [], total: 0, totalPages: 0, statements: ['count'] });
        // "%5" is only in L%5_x, an order of this file: one match, so its page is read.
        expect(await read({ orderId: '%5' })).toEqual({ ids: ['L%5_x'], total: 1, totalPages: 1, statements: ['count', 'page'] });
        // Its second page is past its one match.
        expect(await read({ orderId: '%5', page: 2 })).toEqual({ ids: [], total: 1, totalPages: 1, statements: ['count'] });
        // With another filter the count is not from counters: both run, the page whatever the count.
        expect(await read({ orderId: '~^', storeId: 'store-a' })).toEqual({
          ids: [],
          total: 0,
          totalPages: 0,
          statements: ['page', 'count'],
        });
      } finally {
        run.mockRestore();
      }
    });

    it('gives each item the stored order with its payloads', async () => {
      const [item] = (await list({ orderId: 'L-3' })).items as unknown as Array<Record<string, unknown>>;
      expect(item).toMatchObject({
        orderId: 'L-3',
        status: 'FORWARD_FAILED',
        storeId: 'store-b',
        source: 'platform',
        webhookAttempts: 4,
        createdAt: `${DAY}T10:00:02.000001Z`,
        payload: { orderId: 'L-3', store: { id: 'store-b' } },
        enrichedPayload: null,
      });
    });
  });

  describe('detail', () => {
    it('finds an order by its id and by its orderId, with its history', async () => {
      const stored = await order(db.dataSource, { orderId: 'D-1', status: 'ACCEPTED', lastChangedBy: '7001' });
      await db.dataSource
        .getRepository(OrderEntity)
        .update({ id: stored.id }, { status: 'READY', lastChangedVia: 'PUT /api/order/status' });
      for (const key of [stored.id, stored.id.toUpperCase(), 'D-1']) {
        const detail = await service.detail(key);
        expect(detail).toMatchObject({ id: stored.id, orderId: 'D-1', status: 'READY' });
        expect(detail.history).toEqual([
          expect.objectContaining({ status: 'ACCEPTED', from: null, clientId: '7001', via: 'integration factory' }),
          expect.objectContaining({ status: 'READY', from: 'ACCEPTED', via: 'PUT /api/order/status' }),
        ]);
      }
    });

    it('finds an order whose orderId looks like a UUID, and prefers the order with that id', async () => {
      const target = await order(db.dataSource, { orderId: 'D-target' });
      const lookalike = await order(db.dataSource, { orderId: target.id });
      expect((await service.detail(target.id)).orderId).toBe('D-target');
      await db.dataSource.getRepository(OrderEntity).delete({ id: target.id });
      expect((await service.detail(target.id)).id).toBe(lookalike.id);
    });

    it('answers 404 for an unknown order and 400 for an id longer than an orderId can be', async () => {
      await expect(service.detail('D-missing')).rejects.toMatchObject({ status: 404, message: 'No order has the id or orderId D-missing' });
      await expect(service.detail('x'.repeat(101))).rejects.toMatchObject({ status: 400 });
    });

    it('carries every bound section under its key, read for this order; a key bound twice is refused', async () => {
      const readFor: string[] = [];
      // The sections another module keeps, as OrderDetailSectionsModule binds them; the entries are typed by OrderDetailDto.
      const dispatches = detailSection({
        key: 'dispatches',
        read: (orderDbId) => {
          readFor.push(orderDbId);
          return Promise.resolve([{ idTransaccion: `about ${orderDbId}`, at: '2026-01-01T00:00:00.000000Z', clientId: null, extra: null }]);
        },
      });
      const query = new OrdersQueryService(db.get(OrderReadsRepository), new OrderDetailSections([dispatches]));
      const stored = await order(db.dataSource, { orderId: 'D-sections' });
      expect(await query.detail('D-sections')).toMatchObject({ dispatches: [{ idTransaccion: `about ${stored.id}` }] });
      expect(readFor).toEqual([stored.id]);
      // Only OrdersModule is booted: nothing binds ORDER_DETAIL_SECTIONS, and the detail has no other module's section.
      expect(await service.detail('D-sections')).not.toHaveProperty('dispatches');
      expect(() => new OrderDetailSections([dispatches, dispatches])).toThrow('The order detail section "dispatches" is bound twice');
    });
  });
});
