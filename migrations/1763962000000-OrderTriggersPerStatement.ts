import type { MigrationInterface, QueryRunner } from 'typeorm';

const HOUR_OF = (column: string) => `date_bin('1 hour', ${column}, timestamptz '2000-01-01 00:00:00+00')`;
const DAY_OF = (column: string) => `(${column} AT TIME ZONE 'UTC')::date`;

/** The label and extra the status writer hands to the history through transaction-local settings (StatusVocabulary). */
const LABEL = `NULLIF(current_setting('app.status_label', true), '')`;
const EXTRA = `NULLIF(current_setting('app.status_extra', true), '')::jsonb`;

/**
 * The order's status history and the list's counters (migrations Orders, OrderListIndexes, DashboardStats) kept by
 * statement-level triggers over the statement's transition tables instead of row-level ones: same rows, written by one
 * `INSERT … SELECT` per statement instead of a trigger call and an `INSERT` per changed order. Orders are stored and
 * their forward attempts recorded by group commit, many orders per statement, so this is a few statements where there
 * were two per order ("The order's history and counters" in docs/order-list.md).
 *
 * - Inserted orders: a history row each (from nothing to its status), and their +1 deltas, summed per day, hour,
 *   source and status (one delta row per group: the fold sums them anyway).
 * - Updated orders: a history row for each whose status changed, and the -1/+1 deltas of those whose status, source
 *   or creation time changed, summed per group (a group whose sum is 0 writes nothing). The old and new rows are paired
 *   by id, which no statement changes. A transition table cannot go with a column list (`UPDATE OF status`), so the
 *   trigger runs for every update of an order; one that changes none of these columns writes nothing.
 * - Deleted orders: their -1 deltas, summed per group (their history goes with them, `ON DELETE CASCADE`).
 *
 * PostgreSQL allows a transition table on a trigger of one event only: one trigger per event.
 */
export class OrderTriggersPerStatement1763962000000 implements MigrationInterface {
  name = 'OrderTriggersPerStatement1763962000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER trg_orders_status_history ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_count ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_count_change ON orders`);
    await queryRunner.query(`DROP FUNCTION record_order_status_change()`);
    await queryRunner.query(`DROP FUNCTION record_order_count_change()`);

    await queryRunner.query(`
      CREATE FUNCTION record_orders_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH history AS (
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via, label, extra)
          SELECT id, NULL, status, last_changed_by, last_changed_via, ${LABEL}, ${EXTRA} FROM inserted_orders
        )
        INSERT INTO order_count_delta (day, hour, source, status, n)
        SELECT ${DAY_OF('created_at')}, ${HOUR_OF('created_at')}, source, status, count(*)
        FROM inserted_orders GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION record_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        WITH changed AS MATERIALIZED (
          SELECT n.id, o.status AS old_status, n.status AS new_status, n.last_changed_by, n.last_changed_via,
            o.source AS old_source, n.source AS new_source, o.created_at AS old_created_at, n.created_at AS new_created_at
          FROM updated_orders_after n JOIN updated_orders_before o ON o.id = n.id
          WHERE o.status IS DISTINCT FROM n.status OR o.source IS DISTINCT FROM n.source
            OR o.created_at IS DISTINCT FROM n.created_at
        ), history AS (
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via, label, extra)
          SELECT id, old_status, new_status, last_changed_by, last_changed_via, ${LABEL}, ${EXTRA}
          FROM changed WHERE old_status IS DISTINCT FROM new_status
        ), deltas AS (
          SELECT ${DAY_OF('old_created_at')} AS day, ${HOUR_OF('old_created_at')} AS hour, old_source AS source,
            old_status AS status, -1 AS n FROM changed
          UNION ALL
          SELECT ${DAY_OF('new_created_at')}, ${HOUR_OF('new_created_at')}, new_source, new_status, 1 FROM changed
        )
        INSERT INTO order_count_delta (day, hour, source, status, n)
        SELECT day, hour, source, status, sum(n) FROM deltas GROUP BY 1, 2, 3, 4 HAVING sum(n) <> 0;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION record_orders_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO order_count_delta (day, hour, source, status, n)
        SELECT ${DAY_OF('created_at')}, ${HOUR_OF('created_at')}, source, status, -count(*)
        FROM deleted_orders GROUP BY 1, 2, 3, 4;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER trg_orders_inserted AFTER INSERT ON orders REFERENCING NEW TABLE AS inserted_orders
      FOR EACH STATEMENT EXECUTE FUNCTION record_orders_inserted()`);
    await queryRunner.query(`
      CREATE TRIGGER trg_orders_updated AFTER UPDATE ON orders
      REFERENCING OLD TABLE AS updated_orders_before NEW TABLE AS updated_orders_after
      FOR EACH STATEMENT EXECUTE FUNCTION record_orders_updated()`);
    await queryRunner.query(`
      CREATE TRIGGER trg_orders_deleted AFTER DELETE ON orders REFERENCING OLD TABLE AS deleted_orders
      FOR EACH STATEMENT EXECUTE FUNCTION record_orders_deleted()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER trg_orders_deleted ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_updated ON orders`);
    await queryRunner.query(`DROP TRIGGER trg_orders_inserted ON orders`);
    await queryRunner.query(`DROP FUNCTION record_orders_deleted()`);
    await queryRunner.query(`DROP FUNCTION record_orders_updated()`);
    await queryRunner.query(`DROP FUNCTION record_orders_inserted()`);
    // The row-level triggers as StatusVocabulary and DashboardStats left them.
    await queryRunner.query(`
      CREATE FUNCTION record_order_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via, label, extra)
          VALUES (NEW.id, NULL, NEW.status, NEW.last_changed_by, NEW.last_changed_via, ${LABEL}, ${EXTRA});
        ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via, label, extra)
          VALUES (NEW.id, OLD.status, NEW.status, NEW.last_changed_by, NEW.last_changed_via, ${LABEL}, ${EXTRA});
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION record_order_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN
          INSERT INTO order_count_delta (day, hour, source, status, n)
          VALUES (${DAY_OF('OLD.created_at')}, ${HOUR_OF('OLD.created_at')}, OLD.source, OLD.status, -1);
        END IF;
        IF TG_OP <> 'DELETE' THEN
          INSERT INTO order_count_delta (day, hour, source, status, n)
          VALUES (${DAY_OF('NEW.created_at')}, ${HOUR_OF('NEW.created_at')}, NEW.source, NEW.status, 1);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_status_history AFTER INSERT OR UPDATE OF status ON orders FOR EACH ROW EXECUTE FUNCTION record_order_status_change()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_count AFTER INSERT OR DELETE ON orders FOR EACH ROW EXECUTE FUNCTION record_order_count_change()`,
    );
    await queryRunner.query(`
      CREATE TRIGGER trg_orders_count_change AFTER UPDATE OF status, source, created_at ON orders FOR EACH ROW
      WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.source IS DISTINCT FROM NEW.source OR OLD.created_at IS DISTINCT FROM NEW.created_at)
      EXECUTE FUNCTION record_order_count_change()`);
  }
}
