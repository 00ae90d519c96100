import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Transaction-scoped advisory lock of `fold_order_counts()`: one folder at a time. */
export const ORDER_COUNT_FOLD_LOCK_KEY = 7_310_060;

/**
 * What `GET /api/admin/orders` needs to stay fast at millions of orders (measured with
 * `npm run bench:orders`; the plans are checked by test/e2e/order-list-plans.e2e-spec.ts).
 *
 * Indexes: one per selective filter, each ordered like the list (`created_at DESC, id DESC`)
 * so a page is the first entries of one index range, with the other filter columns INCLUDEd
 * so that combinations and counts stay index-only (the store index also carries order_id: a
 * store plus an orderId fragment too short for trigrams is filtered inside the index). `ix_orders_created` (Orders migration)
 * serves the unfiltered list and date ranges; a pg_trgm GIN index serves the orderId
 * substring (3 characters or more).
 *
 * Counters: counting a million index entries takes ~200 ms, so the orders per UTC day,
 * source and status are kept by a trigger, exact and in the same transaction as the order
 * write. The trigger only appends ±1 rows to `order_count_delta` (no row is updated, so
 * concurrent order writes never wait on a hot counter row); `fold_order_counts()`, called
 * by the service every few seconds, moves them into `order_count_day`. A count reads both.
 */
export class OrderListIndexes1763760000000 implements MigrationInterface {
  name = 'OrderListIndexes1763760000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // Index-only scans need an up-to-date visibility map: vacuum after ~1% new or changed rows, not 20%.
    await queryRunner.query(`
      ALTER TABLE orders SET (
        autovacuum_vacuum_insert_scale_factor = 0.01,
        autovacuum_vacuum_scale_factor = 0.02,
        autovacuum_analyze_scale_factor = 0.02
      )`);
    await queryRunner.query(
      `CREATE INDEX ix_orders_store_created ON orders (store_id, created_at DESC, id DESC) INCLUDE (status, source, webhook_attempts, order_id)`,
    );
    await queryRunner.query(
      `CREATE INDEX ix_orders_status_created ON orders (status, created_at DESC, id DESC) INCLUDE (source, webhook_attempts)`,
    );
    await queryRunner.query(
      `CREATE INDEX ix_orders_source_created ON orders (source, created_at DESC, id DESC) INCLUDE (status, webhook_attempts)`,
    );
    await queryRunner.query(
      `CREATE INDEX ix_orders_attempts_created ON orders (webhook_attempts, created_at DESC, id DESC) INCLUDE (status, source)`,
    );
    // fastupdate off: each insert pays its own few trigram entries instead of an occasional
    // request flushing the whole pending list (a latency spike on the order path).
    await queryRunner.query(`CREATE INDEX ix_orders_order_id_trgm ON orders USING gin (order_id gin_trgm_ops) WITH (fastupdate = off)`);

    await queryRunner.query(`
      CREATE TABLE order_count_day (
        day date NOT NULL,
        source varchar(100),
        status varchar(30) NOT NULL,
        n bigint NOT NULL,
        CONSTRAINT uq_order_count_day UNIQUE NULLS NOT DISTINCT (day, source, status)
      ) WITH (fillfactor = 70)`);
    await queryRunner.query(`
      CREATE TABLE order_count_delta (
        day date NOT NULL,
        source varchar(100),
        status varchar(30) NOT NULL,
        n integer NOT NULL
      )`);
    await queryRunner.query(`
      CREATE FUNCTION record_order_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO order_count_delta (day, source, status, n)
          VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, OLD.source, OLD.status, -1);
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO order_count_delta (day, source, status, n)
          VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.source, NEW.status, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_count AFTER INSERT OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION record_order_count_change()`,
    );
    await queryRunner.query(`
      CREATE TRIGGER trg_orders_count_change AFTER UPDATE OF status, source, created_at ON orders FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.source IS DISTINCT FROM NEW.source OR OLD.created_at IS DISTINCT FROM NEW.created_at)
      EXECUTE FUNCTION record_order_count_change()`);
    await queryRunner.query(`
      CREATE FUNCTION reset_order_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM order_count_day;
        DELETE FROM order_count_delta;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_count_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION reset_order_counts()`,
    );
    await queryRunner.query(`
      CREATE FUNCTION fold_order_counts() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        folded bigint;
      BEGIN
        -- Two folders at once could lock each other's delta rows in opposite orders: one at a time, the others skip.
        IF NOT pg_try_advisory_xact_lock(${ORDER_COUNT_FOLD_LOCK_KEY}) THEN
          RETURN 0;
        END IF;
        WITH moved AS (
          DELETE FROM order_count_delta RETURNING day, source, status, n
        ), summed AS (
          SELECT day, source, status, sum(n) AS n FROM moved GROUP BY day, source, status
        ), upserted AS (
          INSERT INTO order_count_day AS c (day, source, status, n)
          SELECT day, source, status, n FROM summed ORDER BY day, source, status
          ON CONFLICT (day, source, status) DO UPDATE SET n = c.n + EXCLUDED.n
        )
        SELECT count(*) INTO folded FROM moved;
        RETURN folded;
      END $$`);
    // The trigger exists and the index builds hold off writers until this commits: the backfill misses nothing.
    await queryRunner.query(`
      INSERT INTO order_count_day (day, source, status, n)
      SELECT (created_at AT TIME ZONE 'UTC')::date, source, status, count(*) FROM orders GROUP BY 1, 2, 3`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER trg_orders_count_truncate ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_count_change ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_count ON orders`);
    await queryRunner.query(`DROP FUNCTION fold_order_counts()`);
    await queryRunner.query(`DROP FUNCTION reset_order_counts()`);
    await queryRunner.query(`DROP FUNCTION record_order_count_change()`);
    await queryRunner.query(`DROP TABLE order_count_delta`);
    await queryRunner.query(`DROP TABLE order_count_day`);
    for (const index of [
      'ix_orders_order_id_trgm',
      'ix_orders_attempts_created',
      'ix_orders_source_created',
      'ix_orders_status_created',
      'ix_orders_store_created',
    ]) {
      await queryRunner.query(`DROP INDEX ${index}`);
    }
    await queryRunner.query(
      `ALTER TABLE orders RESET (autovacuum_vacuum_insert_scale_factor, autovacuum_vacuum_scale_factor, autovacuum_analyze_scale_factor)`,
    );
  }
}
