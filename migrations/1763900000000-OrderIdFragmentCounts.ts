import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ORDER_COUNT_FOLD_LOCK_KEY } from './1763760000000-OrderListIndexes.js';

/**
 * The exact `total` of the admin list for an orderId fragment of 1 or 2 characters and no other filter
 * (see "Short orderId fragments" in docs/order-list.md): such a fragment is too short for the trigram
 * index, and counting it through the `order_id` index read a million entries (about 250 ms at a million
 * orders). The count comes instead from how many orders hold each 1- and 2-character substring of
 * `lower(order_id)`.
 *
 * As for the per-day counters, the trigger only appends a row per order written (`order_id_fragment_delta`:
 * the orderId and ±1, nothing computed on the order's path); `fold_order_id_fragment_counts()`, called
 * with `fold_order_counts()`, turns them into the per-fragment totals of `order_id_fragment_count`. A count
 * reads both: the totals by fragment, and the delta rows by the list's own `ILIKE`.
 */
export class OrderIdFragmentCounts1763900000000 implements MigrationInterface {
  name = 'OrderIdFragmentCounts1763900000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // ILIKE matches lower(pattern) inside lower(order_id), so the substrings are those of lower(order_id).
    // Each substring once per order (kept at its first position); plpgsql: a set-returning SQL function
    // rescanned per order cost twice as much.
    await queryRunner.query(`
      CREATE FUNCTION order_id_fragments(order_id text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
      DECLARE
        lowered text := lower(order_id);
        last integer := length(lowered);
        found text[] := '{}';
        fragment text;
      BEGIN
        FOR position IN 1..last LOOP
          FOR width IN 1..least(2, last - position + 1) LOOP
            fragment := substr(lowered, position, width);
            IF strpos(lowered, fragment) = position THEN
              found := found || fragment;
            END IF;
          END LOOP;
        END LOOP;
        RETURN found;
      END $$`);
    await queryRunner.query(`
      CREATE TABLE order_id_fragment_count (
        fragment varchar(2) NOT NULL CONSTRAINT pk_order_id_fragment_count PRIMARY KEY,
        n bigint NOT NULL
      ) WITH (fillfactor = 70)`);
    await queryRunner.query(`
      CREATE TABLE order_id_fragment_delta (
        id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT pk_order_id_fragment_delta PRIMARY KEY,
        order_id varchar(100) NOT NULL,
        n integer NOT NULL
      )`);
    await queryRunner.query(`
      CREATE FUNCTION record_order_id_fragments() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO order_id_fragment_delta (order_id, n) VALUES (OLD.order_id, -1);
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO order_id_fragment_delta (order_id, n) VALUES (NEW.order_id, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_id_fragments AFTER INSERT OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION record_order_id_fragments()`,
    );
    await queryRunner.query(`
      CREATE TRIGGER trg_orders_id_fragments_change AFTER UPDATE OF order_id ON orders FOR EACH ROW
      WHEN (OLD.order_id IS DISTINCT FROM NEW.order_id) EXECUTE FUNCTION record_order_id_fragments()`);
    await queryRunner.query(`
      CREATE FUNCTION reset_order_id_fragment_counts() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM order_id_fragment_count;
        DELETE FROM order_id_fragment_delta;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_id_fragments_truncate AFTER TRUNCATE ON orders FOR EACH STATEMENT EXECUTE FUNCTION reset_order_id_fragment_counts()`,
    );
    // The order counters' fold lock: called in fold_order_counts()'s transaction it is already held; another
    // folder skips, as for the per-day counters.
    await queryRunner.query(`
      CREATE FUNCTION fold_order_id_fragment_counts() RETURNS bigint LANGUAGE plpgsql AS $$
      DECLARE
        folded bigint;
      BEGIN
        IF NOT pg_try_advisory_xact_lock(${ORDER_COUNT_FOLD_LOCK_KEY}) THEN
          RETURN 0;
        END IF;
        WITH moved AS (
          DELETE FROM order_id_fragment_delta RETURNING order_id, n
        ), summed AS (
          SELECT fragment, sum(n) AS n FROM moved CROSS JOIN LATERAL unnest(order_id_fragments(order_id)) AS fragment GROUP BY fragment
        ), upserted AS (
          INSERT INTO order_id_fragment_count AS c (fragment, n)
          SELECT fragment, n FROM summed ORDER BY fragment
          ON CONFLICT (fragment) DO UPDATE SET n = c.n + EXCLUDED.n
        )
        SELECT count(*) INTO folded FROM moved;
        RETURN folded;
      END $$`);
    // The triggers exist and hold off writers until this commits: the backfill misses nothing. It reads
    // every orderId (about a minute per million orders on a 2-core machine): past the service's statement timeout.
    await queryRunner.query(`SET LOCAL statement_timeout = 0`);
    await queryRunner.query(`
      INSERT INTO order_id_fragment_count (fragment, n)
      SELECT fragment, count(*) FROM orders CROSS JOIN LATERAL unnest(order_id_fragments(order_id)) AS fragment GROUP BY fragment`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER trg_orders_id_fragments_truncate ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_id_fragments_change ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_id_fragments ON orders`);
    await queryRunner.query(`DROP FUNCTION fold_order_id_fragment_counts()`);
    await queryRunner.query(`DROP FUNCTION reset_order_id_fragment_counts()`);
    await queryRunner.query(`DROP FUNCTION record_order_id_fragments()`);
    await queryRunner.query(`DROP TABLE order_id_fragment_delta`);
    await queryRunner.query(`DROP TABLE order_id_fragment_count`);
    await queryRunner.query(`DROP FUNCTION order_id_fragments(text)`);
  }
}
