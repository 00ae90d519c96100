import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ORDER_COUNT_FOLD_LOCK_KEY } from './1763760000000-OrderListIndexes.js';

/** How far back the hourly counters are kept: the dashboard reads at most 7 days, plus a day of margin. */
const HOURLY_WINDOW = `interval '8 days'`;
const HOUR_OF = (column: string) => `date_bin('1 hour', ${column}, timestamptz '2000-01-01 00:00:00+00')`;

/**
 * What the dashboard's aggregates (`/api/admin/stats/…`) read instead of the order rows:
 * - `order_count_hour`: orders per UTC hour of creation and current status, kept by the same
 *   counters as the list's day totals (OrderListIndexes): the trigger's delta rows now carry the
 *   hour too, and `fold_order_counts()` adds them to the hour as well as to the day. No new write
 *   per order, no hot row. Only the last 8 days are kept (older hours are dropped while folding).
 * - `ix_orders_enrichment_failed`: the few orders that failed for want of a fiscal group, by
 *   time, with their store (an index-only scan).
 * - `ix_webhook_delivery_attempted` also carries the answer's status code (forward outcomes by
 *   an index-only scan).
 */
export class DashboardStats1763820000000 implements MigrationInterface {
  name = 'DashboardStats1763820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE order_count_hour (
        hour timestamptz NOT NULL,
        status varchar(30) NOT NULL,
        n bigint NOT NULL,
        CONSTRAINT pk_order_count_hour PRIMARY KEY (hour, status)
      ) WITH (fillfactor = 70)`);
    // Delta rows written before this migration have no hour: the backfill below counts their orders.
    await queryRunner.query(`ALTER TABLE order_count_delta ADD COLUMN hour timestamptz`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION record_order_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO order_count_delta (day, hour, source, status, n)
          VALUES ((OLD.created_at AT TIME ZONE 'UTC')::date, ${HOUR_OF('OLD.created_at')}, OLD.source, OLD.status, -1);
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO order_count_delta (day, hour, source, status, n)
          VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, ${HOUR_OF('NEW.created_at')}, NEW.source, NEW.status, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION reset_order_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM order_count_day;
        DELETE FROM order_count_hour;
        DELETE FROM order_count_delta;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION fold_order_counts() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        folded bigint;
      BEGIN
        -- Two folders at once could lock each other's delta rows in opposite orders: one at a time, the others skip.
        IF NOT pg_try_advisory_xact_lock(${ORDER_COUNT_FOLD_LOCK_KEY}) THEN
          RETURN 0;
        END IF;
        WITH moved AS (
          DELETE FROM order_count_delta RETURNING day, hour, source, status, n
        ), summed AS (
          SELECT day, source, status, sum(n) AS n FROM moved GROUP BY day, source, status
        ), upserted AS (
          INSERT INTO order_count_day AS c (day, source, status, n)
          SELECT day, source, status, n FROM summed ORDER BY day, source, status
          ON CONFLICT (day, source, status) DO UPDATE SET n = c.n + EXCLUDED.n
        ), hourly AS (
          SELECT hour, status, sum(n) AS n FROM moved WHERE hour >= now() - ${HOURLY_WINDOW} GROUP BY hour, status
        ), upserted_hours AS (
          INSERT INTO order_count_hour AS h (hour, status, n)
          SELECT hour, status, n FROM hourly ORDER BY hour, status
          ON CONFLICT (hour, status) DO UPDATE SET n = h.n + EXCLUDED.n
        )
        SELECT count(*) INTO folded FROM moved;
        DELETE FROM order_count_hour WHERE hour < now() - ${HOURLY_WINDOW};
        RETURN folded;
      END $$`);
    // The ALTER above holds off every order write until this commits: the backfill misses nothing.
    await queryRunner.query(`
      INSERT INTO order_count_hour (hour, status, n)
      SELECT ${HOUR_OF('created_at')}, status, count(*) FROM orders
      WHERE created_at >= ${HOUR_OF(`now() - ${HOURLY_WINDOW}`)}
      GROUP BY 1, 2`);

    await queryRunner.query(
      `CREATE INDEX ix_orders_enrichment_failed ON orders (created_at) INCLUDE (store_id) WHERE status = 'ENRICHMENT_FAILED'`,
    );
    await queryRunner.query(`DROP INDEX ix_webhook_delivery_attempted`);
    await queryRunner.query(`CREATE INDEX ix_webhook_delivery_attempted ON webhook_delivery (attempted_at) INCLUDE (status_code)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_webhook_delivery_attempted`);
    await queryRunner.query(`CREATE INDEX ix_webhook_delivery_attempted ON webhook_delivery (attempted_at)`);
    await queryRunner.query(`DROP INDEX ix_orders_enrichment_failed`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION fold_order_counts() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        folded bigint;
      BEGIN
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
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION reset_order_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM order_count_day;
        DELETE FROM order_count_delta;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION record_order_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
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
    await queryRunner.query(`ALTER TABLE order_count_delta DROP COLUMN hour`);
    await queryRunner.query(`DROP TABLE order_count_hour`);
  }
}
