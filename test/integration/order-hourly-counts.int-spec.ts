import { OrdersModule } from '../../src/orders/orders.module.js';
import { OrderStatsRepository } from '../../src/orders/order-stats.repository.js';
import { FILL_ORDERS_SQL } from '../support/order-fill.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

const HOUR_MS = 3_600_000;

/**
 * The dashboard's orders per hour come from counters kept by a trigger and folded now and then
 * (migration DashboardStats): whatever the writes and folds, they must equal a count of the rows.
 * Raw SQL throughout: the counters are the database's own (its trigger, its fold function), checked
 * against bulk writes and a count of the rows as PostgreSQL holds them.
 */
describe('hourly order counters (integration)', () => {
  let db: IntegrationContext;
  let orders: OrderStatsRepository;

  beforeAll(async () => {
    db = await bootIntegration({ imports: [OrdersModule] });
    orders = db.get(OrderStatsRepository);
    await db.dataSource.transaction(async (manager) => {
      await manager.query('SELECT setseed(0.31)');
      // 3,000 orders spread over 90 days: about 270 in the counters' 8-day window.
      await manager.query(FILL_ORDERS_SQL, [1, 3000]);
    });
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  /** The truth: the rows themselves, counted per hour of creation and current status. */
  async function counted(from: Date): Promise<string[]> {
    const rows: { hour: Date; status: string; n: number }[] = await db.dataSource.query(
      `SELECT date_bin('1 hour', created_at, timestamptz '2000-01-01 00:00:00+00') AS hour, status, count(*)::int AS n
       FROM orders WHERE created_at >= $1 GROUP BY 1, 2`,
      [from],
    );
    return rows.map((row) => `${row.hour.toISOString()} ${row.status} ${row.n}`).sort();
  }
  async function fromCounters(from: Date): Promise<string[]> {
    return (await orders.countsPerHour(from)).map((row) => `${row.hour.toISOString()} ${row.status} ${row.count}`).sort();
  }
  const weekAgo = () => new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 167 * HOUR_MS);

  it('equal the rows before any fold, after a fold, and after status changes and deletions on either side of one', async () => {
    const from = weekAgo();
    const truth = await counted(from);
    expect(truth.length).toBeGreaterThan(50);
    expect(await fromCounters(from)).toEqual(truth);

    await db.dataSource.query('SELECT fold_order_counts()');
    expect(await fromCounters(from)).toEqual(truth);

    // Changes to recent orders: some folded, some left as deltas.
    await db.dataSource.query(
      `UPDATE orders SET status = 'CANCELLED' WHERE id IN (
      SELECT id FROM orders WHERE created_at >= $1 AND status <> 'CANCELLED' ORDER BY id LIMIT 20)`,
      [from],
    );
    await db.dataSource.query('SELECT fold_order_counts()');
    await db.dataSource.query(`DELETE FROM orders WHERE id IN (SELECT id FROM orders WHERE created_at >= $1 ORDER BY id DESC LIMIT 7)`, [
      from,
    ]);
    await db.dataSource.query(
      `UPDATE orders SET status = 'DELIVERED' WHERE id IN (
      SELECT id FROM orders WHERE created_at >= $1 AND status = 'CANCELLED' ORDER BY id LIMIT 5)`,
      [from],
    );
    const changed = await counted(from);
    expect(changed).not.toEqual(truth);
    expect(await fromCounters(from)).toEqual(changed);
    await db.dataSource.query('SELECT fold_order_counts()');
    expect(await fromCounters(from)).toEqual(changed);
  });

  it('keep only the last 8 days of hours', async () => {
    // A status change of an old order writes a delta for its old hour; the fold drops it.
    await db.dataSource.query(`UPDATE orders SET status = 'REJECTED' WHERE id IN (
      SELECT id FROM orders WHERE created_at < now() - interval '30 days' AND status <> 'REJECTED' ORDER BY id LIMIT 3)`);
    await db.dataSource.query('SELECT fold_order_counts()');
    const [{ oldest }] = await db.dataSource.query(`SELECT min(hour) AS oldest FROM order_count_hour`);
    expect((oldest as Date).getTime()).toBeGreaterThanOrEqual(Date.now() - 8 * 24 * HOUR_MS - HOUR_MS);
    expect(await fromCounters(weekAgo())).toEqual(await counted(weekAgo()));
  });
});
