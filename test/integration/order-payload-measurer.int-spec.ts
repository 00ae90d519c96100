import { createRootLogger } from '../../src/common/logging/logger.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { OrderPayloadMeasurer, PAYLOAD_MEASURE_BATCH } from '../../src/orders/order-payload-measurer.js';
import { OrdersModule } from '../../src/orders/orders.module.js';
import { OrdersRepository } from '../../src/orders/orders.repository.js';
import { FILL_ORDERS_SQL } from '../support/order-fill.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

/**
 * Orders stored before `orders.payload_bytes` existed (migration OrderPayloadBytes) are measured
 * after start, in batches, by OrderPayloadMeasurer; every later write is measured by the trigger.
 * Raw SQL throughout: the rows must be written around the trigger, failing statements injected, and
 * the column compared with the documents' size as PostgreSQL computes it.
 */
describe('OrderPayloadMeasurer (integration)', () => {
  let db: IntegrationContext;
  let measurer: OrderPayloadMeasurer;

  /** Orders as stored before the migration: the measuring trigger off while they are written. */
  async function storeUnmeasured(from: number, to: number): Promise<void> {
    await db.dataSource.transaction(async (manager) => {
      await manager.query('ALTER TABLE orders DISABLE TRIGGER trg_orders_payload_bytes');
      await manager.query(FILL_ORDERS_SQL, [from, to]);
      await manager.query('ALTER TABLE orders ENABLE TRIGGER trg_orders_payload_bytes');
    });
  }

  /** Orders whose payload_bytes is not their documents' text size (null included). */
  async function mismeasured(): Promise<number> {
    const [{ n }] = await db.dataSource.query<Array<{ n: number }>>(
      `SELECT count(*)::int AS n FROM orders
       WHERE payload_bytes IS DISTINCT FROM octet_length(payload::text) + coalesce(octet_length(enriched_payload::text), 0)`,
    );
    return n;
  }

  beforeAll(async () => {
    db = await bootIntegration({ imports: [OrdersModule] });
    // The module's own jobs ran at start (nothing to measure) and are stopped: the test drives a measurer of its own.
    await db.get(JobRunner).stopAll();
    measurer = new OrderPayloadMeasurer(db.get(OrdersRepository), db.get(JobRunner), createRootLogger('silent'));
  });
  afterAll(async () => {
    await db?.close();
  });

  it('measures every order stored before the column, in batches, and then has nothing to do', async () => {
    // 1,234 orders: batches of 500, 500 and 234.
    await storeUnmeasured(1, 1234);
    expect(await db.get(OrdersRepository).unmeasuredPayloads()).toBe(1234);
    expect(await measurer.measureAll()).toBe(1234);
    expect(await mismeasured()).toBe(0);
    expect(await measurer.measureAll()).toBe(0);
    expect(PAYLOAD_MEASURE_BATCH).toBeLessThan(1234);
  }, 60_000);

  it('measures each write through the trigger: a new order, a changed enriched payload', async () => {
    await db.dataSource.query(FILL_ORDERS_SQL, [5001, 5010]);
    await db.dataSource.query(
      `UPDATE orders SET enriched_payload = enriched_payload || '{"note": "a longer enriched payload than before"}'
       WHERE id = (SELECT id FROM orders ORDER BY id LIMIT 1)`,
    );
    expect(await mismeasured()).toBe(0);
  });

  it('tries a failing batch again in halves, down to the order that alone can be measured', async () => {
    await storeUnmeasured(9001, 9300);
    const [{ id: heavy }] = await db.dataSource.query<Array<{ id: string }>>(
      'SELECT id FROM orders WHERE payload_bytes IS NULL ORDER BY id OFFSET 150 LIMIT 1',
    );
    // Stands for an order of tens of megabytes: any batch holding it with others fails as a
    // statement past the timeout would (57014); on its own it passes.
    await db.dataSource.query(`
      CREATE FUNCTION fail_heavy_batch() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF (SELECT count(*) FROM measured) > 1 AND EXISTS (SELECT 1 FROM measured WHERE id = '${heavy}') THEN
          RAISE EXCEPTION 'canceling statement due to statement timeout' USING ERRCODE = '57014';
        END IF;
        RETURN NULL;
      END $$`);
    await db.dataSource.query(
      'CREATE TRIGGER trg_fail_heavy_batch AFTER UPDATE ON orders REFERENCING NEW TABLE AS measured FOR EACH STATEMENT EXECUTE FUNCTION fail_heavy_batch()',
    );
    try {
      expect(await measurer.measureAll()).toBe(300);
      expect(await mismeasured()).toBe(0);
    } finally {
      await db.dataSource.query('DROP TRIGGER trg_fail_heavy_batch ON orders; DROP FUNCTION fail_heavy_batch()');
    }
  });

  it('skips an order a writer holds, without waiting for it, and measures it on a later pass', async () => {
    await storeUnmeasured(7001, 7003);
    const writer = db.dataSource.createQueryRunner();
    await writer.startTransaction();
    try {
      const [held] = (await writer.query(`SELECT id FROM orders WHERE payload_bytes IS NULL ORDER BY id LIMIT 1 FOR UPDATE`)) as Array<{
        id: string;
      }>;
      expect(await measurer.measureAll()).toBe(2);
      const [{ payload_bytes }] = await db.dataSource.query<Array<{ payload_bytes: string | null }>>(
        'SELECT payload_bytes FROM orders WHERE id = $1',
        [held.id],
      );
      expect(payload_bytes).toBeNull();
    } finally {
      await writer.commitTransaction();
      await writer.release();
    }
    expect(await measurer.measureAll()).toBe(1);
    expect(await mismeasured()).toBe(0);
  });
});
