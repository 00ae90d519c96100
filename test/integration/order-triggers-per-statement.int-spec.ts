import type { EntityManager } from 'typeorm';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { OrdersModule } from '../../src/orders/orders.module.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

interface HistoryRow {
  order_id: string;
  from_status: string | null;
  to_status: string;
  client_id: string | null;
  label: string | null;
}

/**
 * The order's status history and the list's counter deltas are written by statement-level triggers over the
 * statement's transition tables (migration OrderTriggersPerStatement): one history row per order whose status a
 * statement changed, and the statement's count changes summed per day, hour, source and status. Raw SQL: the test is
 * about the database's own triggers, fed multi-row statements as the group commit sends them. Each case runs in a
 * transaction rolled back at its end and reads only the delta rows its statement wrote (ids above the ones before),
 * so the background fold, stopped anyway, could not take them away.
 */
describe('order history and counter triggers, once per statement (integration)', () => {
  let db: IntegrationContext;
  const CREATED = '2026-03-01T10:20:00Z';

  beforeAll(async () => {
    db = await bootIntegration({ imports: [OrdersModule] });
    await db.get(JobRunner).stopAll();
  });
  afterAll(async () => {
    await db?.close();
  });

  /** Runs `test` in a transaction that is rolled back afterwards. */
  async function inRolledBack(test: (manager: EntityManager) => Promise<void>): Promise<void> {
    const runner = db.dataSource.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await test(runner.manager);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
  }

  /** Inserts the orders `[orderId, source, status]` in one statement, all created at `CREATED`. */
  async function insertOrders(manager: EntityManager, orders: Array<[string, string, string]>): Promise<void> {
    await manager.query(
      `INSERT INTO orders (order_id, source, status, payload, created_at, last_changed_by, last_changed_via)
       SELECT o.order_id, o.source, o.status, '{}'::jsonb, $4::timestamptz, '7001', 'trigger test'
       FROM unnest($1::text[], $2::text[], $3::text[]) AS o(order_id, source, status)`,
      [orders.map((o) => o[0]), orders.map((o) => o[1]), orders.map((o) => o[2]), CREATED],
    );
  }

  const lastDeltaId = async (manager: EntityManager) =>
    ((await manager.query(`SELECT coalesce(max(id), 0)::text AS id FROM order_count_delta`)) as Array<{ id: string }>)[0]!.id;

  /** The delta rows written after `afterId`, as `day hour source status n`, sorted. */
  async function deltasAfter(manager: EntityManager, afterId: string): Promise<string[]> {
    const rows: Array<{ day: string; hour: Date; source: string; status: string; n: number }> = await manager.query(
      `SELECT day::text, hour, source, status, n FROM order_count_delta WHERE id > $1 ORDER BY source, status, n`,
      [afterId],
    );
    return rows.map((row) => `${row.day} ${row.hour.toISOString()} ${row.source} ${row.status} ${row.n}`);
  }

  async function historyOf(manager: EntityManager, orderIds: string[]): Promise<HistoryRow[]> {
    return manager.query(
      `SELECT o.order_id, h.from_status, h.to_status, h.client_id, h.label
       FROM order_status_history h JOIN orders o ON o.id = h.order_db_id
       WHERE o.order_id = ANY($1) ORDER BY o.order_id, h.id`,
      [orderIds],
    );
  }

  it('a multi-row insert writes one history row per order and one delta row per day, hour, source and status', async () => {
    await inRolledBack(async (manager) => {
      const before = await lastDeltaId(manager);
      await insertOrders(manager, [
        ['ins-1', 'ifood', 'ENRICHED'],
        ['ins-2', 'ifood', 'ENRICHED'],
        ['ins-3', 'ifood', 'ENRICHED'],
        ['ins-4', 'ifood', 'ENRICHMENT_FAILED'],
        ['ins-5', 'rappi', 'ENRICHED'],
      ]);
      expect(await historyOf(manager, ['ins-1', 'ins-2', 'ins-3', 'ins-4', 'ins-5'])).toEqual([
        { order_id: 'ins-1', from_status: null, to_status: 'ENRICHED', client_id: '7001', label: null },
        { order_id: 'ins-2', from_status: null, to_status: 'ENRICHED', client_id: '7001', label: null },
        { order_id: 'ins-3', from_status: null, to_status: 'ENRICHED', client_id: '7001', label: null },
        { order_id: 'ins-4', from_status: null, to_status: 'ENRICHMENT_FAILED', client_id: '7001', label: null },
        { order_id: 'ins-5', from_status: null, to_status: 'ENRICHED', client_id: '7001', label: null },
      ]);
      // 3 ifood orders ENRICHED, 1 ifood ENRICHMENT_FAILED, 1 rappi ENRICHED, all in the hour 10:00 of 2026-03-01.
      expect(await deltasAfter(manager, before)).toEqual([
        '2026-03-01 2026-03-01T10:00:00.000Z ifood ENRICHED 3',
        '2026-03-01 2026-03-01T10:00:00.000Z ifood ENRICHMENT_FAILED 1',
        '2026-03-01 2026-03-01T10:00:00.000Z rappi ENRICHED 1',
      ]);
    });
  });

  it('a multi-row update writes a history row for each order whose status changed, with the label, and the summed deltas', async () => {
    await inRolledBack(async (manager) => {
      await insertOrders(manager, [
        ['upd-1', 'ifood', 'ENRICHED'],
        ['upd-2', 'ifood', 'ENRICHED'],
        ['upd-3', 'ifood', 'ENRICHED'],
      ]);
      const before = await lastDeltaId(manager);
      // upd-1 and upd-2 are forwarded; upd-3 only gets an attempt counted, its status set to what it was.
      await manager.query(
        `UPDATE orders SET webhook_attempts = webhook_attempts + 1, last_changed_by = '7002',
           status = CASE WHEN order_id = 'upd-3' THEN status ELSE 'FORWARDED' END
         FROM (SELECT set_config('app.status_label', 'Sent', true)) AS note
         WHERE order_id IN ('upd-1', 'upd-2', 'upd-3')`,
      );
      expect(await historyOf(manager, ['upd-1', 'upd-2', 'upd-3'])).toEqual([
        { order_id: 'upd-1', from_status: null, to_status: 'ENRICHED', client_id: '7001', label: null },
        { order_id: 'upd-1', from_status: 'ENRICHED', to_status: 'FORWARDED', client_id: '7002', label: 'Sent' },
        { order_id: 'upd-2', from_status: null, to_status: 'ENRICHED', client_id: '7001', label: null },
        { order_id: 'upd-2', from_status: 'ENRICHED', to_status: 'FORWARDED', client_id: '7002', label: 'Sent' },
        { order_id: 'upd-3', from_status: null, to_status: 'ENRICHED', client_id: '7001', label: null },
      ]);
      // Two orders left ENRICHED for FORWARDED: -2 and +2, one row each.
      expect(await deltasAfter(manager, before)).toEqual([
        '2026-03-01 2026-03-01T10:00:00.000Z ifood ENRICHED -2',
        '2026-03-01 2026-03-01T10:00:00.000Z ifood FORWARDED 2',
      ]);
    });
  });

  it('an update that changes no status, source or creation time writes no history and no delta', async () => {
    await inRolledBack(async (manager) => {
      await insertOrders(manager, [
        ['same-1', 'ifood', 'FORWARDED'],
        ['same-2', 'rappi', 'ENRICHED'],
      ]);
      const before = await lastDeltaId(manager);
      await manager.query(
        `UPDATE orders SET status = status, webhook_attempts = webhook_attempts + 1, updated_at = now() WHERE order_id IN ('same-1', 'same-2')`,
      );
      expect((await historyOf(manager, ['same-1', 'same-2'])).map((row) => row.to_status)).toEqual(['FORWARDED', 'ENRICHED']);
      expect(await deltasAfter(manager, before)).toEqual([]);
    });
  });

  it('changes that cancel out within a statement write no delta, but each order its history row', async () => {
    await inRolledBack(async (manager) => {
      await insertOrders(manager, [
        ['swap-1', 'ifood', 'ENRICHED'],
        ['swap-2', 'ifood', 'FORWARDED'],
      ]);
      const before = await lastDeltaId(manager);
      await manager.query(
        `UPDATE orders SET status = CASE status WHEN 'ENRICHED' THEN 'FORWARDED' ELSE 'ENRICHED' END WHERE order_id IN ('swap-1', 'swap-2')`,
      );
      expect((await historyOf(manager, ['swap-1', 'swap-2'])).map((row) => `${row.from_status}→${row.to_status}`)).toEqual([
        'null→ENRICHED',
        'ENRICHED→FORWARDED',
        'null→FORWARDED',
        'FORWARDED→ENRICHED',
      ]);
      // ifood ENRICHED: -1 (swap-1) +1 (swap-2) = 0; ifood FORWARDED: +1 (swap-1) -1 (swap-2) = 0.
      expect(await deltasAfter(manager, before)).toEqual([]);
    });
  });

  it('a change of source or creation time moves the order between counters', async () => {
    await inRolledBack(async (manager) => {
      await insertOrders(manager, [
        ['move-1', 'ifood', 'ENRICHED'],
        ['move-2', 'ifood', 'ENRICHED'],
      ]);
      const before = await lastDeltaId(manager);
      await manager.query(`UPDATE orders SET source = 'rappi' WHERE order_id = 'move-1'`);
      await manager.query(`UPDATE orders SET created_at = created_at + interval '1 hour' WHERE order_id = 'move-2'`);
      expect(await historyOf(manager, ['move-1', 'move-2'])).toHaveLength(2);
      expect(await deltasAfter(manager, before)).toEqual([
        '2026-03-01 2026-03-01T10:00:00.000Z ifood ENRICHED -1',
        '2026-03-01 2026-03-01T10:00:00.000Z ifood ENRICHED -1',
        '2026-03-01 2026-03-01T11:00:00.000Z ifood ENRICHED 1',
        '2026-03-01 2026-03-01T10:00:00.000Z rappi ENRICHED 1',
      ]);
    });
  });

  it('a multi-row delete writes one negative delta per day, hour, source and status', async () => {
    await inRolledBack(async (manager) => {
      await insertOrders(manager, [
        ['del-1', 'ifood', 'DELIVERED'],
        ['del-2', 'ifood', 'DELIVERED'],
        ['del-3', 'rappi', 'CANCELLED'],
      ]);
      const before = await lastDeltaId(manager);
      await manager.query(`DELETE FROM orders WHERE order_id IN ('del-1', 'del-2', 'del-3')`);
      expect(await deltasAfter(manager, before)).toEqual([
        '2026-03-01 2026-03-01T10:00:00.000Z ifood DELIVERED -2',
        '2026-03-01 2026-03-01T10:00:00.000Z rappi CANCELLED -1',
      ]);
    });
  });

  it('the counters, folded, equal a count of the rows after those statements', async () => {
    await inRolledBack(async (manager) => {
      await insertOrders(manager, [
        ['fold-1', 'aiqfome', 'ENRICHED'],
        ['fold-2', 'aiqfome', 'ENRICHED'],
        ['fold-3', 'aiqfome', 'ENRICHMENT_FAILED'],
      ]);
      await manager.query(`UPDATE orders SET status = 'FORWARDED' WHERE order_id IN ('fold-1', 'fold-2')`);
      await manager.query(`DELETE FROM orders WHERE order_id = 'fold-3'`);
      await manager.query('SELECT fold_order_counts()');
      const counted = (sql: string) => manager.query(sql) as Promise<Array<{ status: string; n: number }>>;
      const fromCounters = await counted(`SELECT status, n::int FROM order_count_day WHERE source = 'aiqfome' AND n <> 0 ORDER BY status`);
      expect(fromCounters).toEqual(
        await counted(`SELECT status, count(*)::int AS n FROM orders WHERE source = 'aiqfome' GROUP BY 1 ORDER BY 1`),
      );
      expect(fromCounters).toEqual([{ status: 'FORWARDED', n: 2 }]);
    });
  });
});
