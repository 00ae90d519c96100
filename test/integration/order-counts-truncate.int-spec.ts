import { OrderReadsRepository } from '../../src/orders/order-reads.repository.js';
import { OrdersModule } from '../../src/orders/orders.module.js';
import { order } from '../factories/index.js';
import { bootIntegration, eventually, type IntegrationContext } from '../support/integration.js';

/**
 * `TRUNCATE orders` empties the list's counters through its triggers, and must do so even while the background fold
 * is moving delta rows into them. Raw SQL: the test is about the database's own triggers and fold functions, with two
 * sessions interleaved as an operator's truncate and the fold job would be.
 */
describe('order counters and a TRUNCATE during a fold (integration)', () => {
  let db: IntegrationContext;

  beforeAll(async () => {
    db = await bootIntegration({ imports: [OrdersModule] });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('after a TRUNCATE that ran while a fold was under way, every total is 0', async () => {
    for (let i = 0; i < 5; i++) {
      await order(db.dataSource, { orderId: `truncated-${i}`, source: 'ifood', createdAt: new Date('2026-03-01T10:00:00Z') });
    }
    const folder = db.dataSource.createQueryRunner();
    const truncater = db.dataSource.createQueryRunner();
    await folder.connect();
    await truncater.connect();
    try {
      // The fold as the background job runs it, not yet committed: its new counter rows exist only in its transaction.
      await folder.startTransaction();
      await folder.query('SELECT fold_order_counts() + fold_order_id_fragment_counts()');
      const truncated = truncater.query('TRUNCATE orders CASCADE');
      await eventually(
        async () =>
          (
            await db.dataSource.query<Array<{ waiting: number }>>(
              `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'TRUNCATE orders%'`,
            )
          )[0]!.waiting > 0,
        { what: 'the TRUNCATE to wait for the fold' },
      );
      await folder.commitTransaction();
      await truncated;
    } finally {
      await folder.release();
      await truncater.release();
    }

    const reads = db.get(OrderReadsRepository);
    const totals = await Promise.all(
      [{}, { source: 'ifood' }, { orderId: 'tr' }].map(async (filter) => (await reads.listPage(filter, 1, 20)).total),
    );
    expect(totals).toEqual([0, 0, 0]);
  });
});
