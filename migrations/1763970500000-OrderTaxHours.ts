import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Transaction try-lock of `fold_order_tax_hours()`: one instance folds at a time (ADVISORY_LOCKS.orderTaxFold). */
export const ORDER_TAX_FOLD_LOCK_KEY = 7_310_100;

/** Sums of an order's taxed items in cents, per key of the tax report. */
const CENT_COLUMNS = [
  'icms_base_cents',
  'icms_cents',
  'fcp_cents',
  'pis_base_cents',
  'pis_cents',
  'cofins_base_cents',
  'cofins_cents',
  'total_tax_cents',
];

const HOUR_OF = (column: string) => `date_trunc('hour', ${column}, 'UTC')`;

/** The report's keys and sums of the orders `from` (naming `orders o`) and `where` select, per UTC hour of creation. */
const SUMMED_BY_HOUR = (from: string, where: string) => `
  SELECT ${HOUR_OF('o.created_at')}, o.store_id, o.fiscal_group_id, o.enriched_payload #>> '{taxSummary,uf}', l.cfop, l.cst, l.icms_rate,
         count(*), count(*) FILTER (WHERE l.first_of_order), sum(l.items), ${CENT_COLUMNS.map((column) => `sum(l.${column})`).join(', ')}
  FROM ${from} CROSS JOIN LATERAL order_tax_lines(o.enriched_payload) AS l
  WHERE ${where} AND o.status NOT IN ('CANCELLED', 'REJECTED')
  GROUP BY 1, 2, 3, 4, 5, 6, 7`;

const SUMMARY_COLUMNS = `hour, store_id, fiscal_group_id, uf, cfop, cst, icms_rate, orders, first_orders, items, ${CENT_COLUMNS.join(', ')}`;

/**
 * The tax report's hourly summaries (docs/reports.md), filled by a background job, off the orders' write path:
 *
 * - `order_tax_lines(enriched_payload)`: an order's taxed items (lines and selected modifiers carrying `tax`) summed
 *   in cents per CFOP, CST/CSOSN and ICMS rate; `first_of_order` marks one of its rows, so that orders are counted
 *   without a DISTINCT. The fold and the report's live part both sum through it.
 * - `order_tax_hour`: those sums per UTC hour of creation, store, fiscal group, UF, CFOP, CST/CSOSN and rate, of the
 *   orders the report covers (every status but CANCELLED and REJECTED).
 * - `order_tax_fold`: one row, the fold's state. Every hour before `summarized_until` is summed in `order_tax_hour`
 *   with every order change whose `updated_at` is before `watermark`; a change at or after it is not folded yet.
 * - `ix_orders_updated_brin`: finds the orders changed since the watermark (re-taxed, cancelled, moved) without
 *   reading the table. A BRIN index is summarizing: it keeps updates HOT and costs an order write next to nothing.
 * - `fold_order_tax_hours(max_new_hours, settle)`: one round of the job, in one transaction (a crash folds nothing): the
 *   hours of orders changed since the watermark are summed again from the orders, then up to `max_new_hours` hours
 *   after `summarized_until`, and the state moves on. The new watermark is the start of the oldest transaction
 *   under way, or the clock less `settle` (a margin for a transaction that has its start time but is not yet listed), read before the statements that sum: a transaction that
 *   started earlier has committed and is seen, one that commits later wrote an `updated_at` at or after it.
 */
export class OrderTaxHours1763970500000 implements MigrationInterface {
  name = 'OrderTaxHours1763970500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // A number of the stored JSON in cents; anything else (an order stored by an older engine) counts as zero.
    await queryRunner.query(`
      CREATE FUNCTION tax_cents(value jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT CASE WHEN jsonb_typeof(value) = 'number' THEN round((value #>> '{}')::numeric * 100)::bigint ELSE 0 END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION order_tax_lines(enriched_payload jsonb)
      RETURNS TABLE (cfop text, cst text, icms_rate numeric, first_of_order boolean, items bigint, ${CENT_COLUMNS.map((c) => `${c} bigint`).join(', ')})
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
        SELECT cfop, cst, icms_rate, row_number() OVER (ORDER BY cfop, cst, icms_rate) = 1, items,
               ${CENT_COLUMNS.join(', ')}
        FROM (
          SELECT t ->> 'CFOP' AS cfop, t ->> 'CST_ICMS' AS cst,
                 CASE WHEN jsonb_typeof(t -> 'ICMS_rate') = 'number' THEN (t ->> 'ICMS_rate')::numeric END AS icms_rate,
                 count(*) AS items,
                 sum(tax_cents(t -> 'ICMS_base')) AS icms_base_cents, sum(tax_cents(t -> 'ICMS_value')) AS icms_cents,
                 sum(tax_cents(t -> 'FCP_value')) AS fcp_cents,
                 sum(tax_cents(t -> 'PIS_base')) AS pis_base_cents, sum(tax_cents(t -> 'PIS_value')) AS pis_cents,
                 sum(tax_cents(t -> 'COFINS_base')) AS cofins_base_cents, sum(tax_cents(t -> 'COFINS_value')) AS cofins_cents,
                 sum(tax_cents(t -> 'total_tax')) AS total_tax_cents
          FROM (
            SELECT jsonb_path_query(enriched_payload, 'lax $.order.products[*].tax ? (@.type() == "object")') AS t
            UNION ALL
            SELECT jsonb_path_query(enriched_payload,
                                    'lax $.order.products[*].modifierGroups[*].selectedModifiers[*].tax ? (@.type() == "object")')
          ) AS taxed
          GROUP BY 1, 2, 3
        ) AS keyed
      $$`);
    await queryRunner.query(`
      CREATE TABLE order_tax_hour (
        id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT pk_order_tax_hour PRIMARY KEY,
        hour timestamptz NOT NULL,
        store_id varchar(100),
        fiscal_group_id uuid,
        uf text,
        cfop text,
        cst text,
        icms_rate numeric,
        orders integer NOT NULL,
        first_orders integer NOT NULL,
        items integer NOT NULL,
        ${CENT_COLUMNS.map((column) => `${column} bigint NOT NULL`).join(',\n        ')}
      )`);
    await queryRunner.query(`CREATE INDEX ix_order_tax_hour_hour ON order_tax_hour (hour)`);
    await queryRunner.query(`
      CREATE TABLE order_tax_fold (
        id smallint CONSTRAINT pk_order_tax_fold PRIMARY KEY CONSTRAINT ck_order_tax_fold_one CHECK (id = 1),
        watermark timestamptz NOT NULL,
        summarized_until timestamptz
      )`);
    await queryRunner.query(`INSERT INTO order_tax_fold (id, watermark, summarized_until) VALUES (1, '-infinity', NULL)`);
    await queryRunner.query(
      `CREATE INDEX ix_orders_updated_brin ON orders USING brin (updated_at) WITH (pages_per_range = 32, autosummarize = on)`,
    );
    await queryRunner.query(`
      CREATE FUNCTION fold_order_tax_hours(max_new_hours integer, settle interval, OUT hours integer, OUT caught_up boolean) LANGUAGE plpgsql AS $$
      DECLARE
        old_watermark timestamptz;
        new_watermark timestamptz;
        summarized timestamptz;
        new_until timestamptz;
        changed timestamptz[];
      BEGIN
        hours := 0;
        caught_up := true;
        IF NOT pg_try_advisory_xact_lock(${ORDER_TAX_FOLD_LOCK_KEY}) THEN
          RETURN;
        END IF;
        -- Read before any statement that sums (each takes its own snapshot, later): see the comment of the migration.
        SELECT least(clock_timestamp() - settle, min(a.xact_start)) INTO new_watermark
        FROM pg_stat_activity a
        WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.xact_start IS NOT NULL;
        SELECT f.watermark, f.summarized_until INTO old_watermark, summarized FROM order_tax_fold f WHERE f.id = 1 FOR UPDATE;
        IF summarized IS NULL THEN
          summarized := coalesce((SELECT ${HOUR_OF('min(created_at)')} FROM orders), ${HOUR_OF('new_watermark')});
        END IF;
        new_until := greatest(summarized, least(summarized + make_interval(hours => max_new_hours), ${HOUR_OF('new_watermark')}));
        -- Planned with the watermark's value (EXECUTE), so that PostgreSQL reads the BRIN index for the few recent
        -- changes instead of a generic plan's scan of every order.
        EXECUTE format('SELECT array_agg(DISTINCT %s) FROM orders WHERE updated_at >= %L AND created_at < %L',
                       $q$${HOUR_OF('created_at')}$q$, old_watermark, summarized)
        INTO changed;
        changed := coalesce(changed, '{}');
        DELETE FROM order_tax_hour WHERE hour = ANY(changed) OR (hour >= summarized AND hour < new_until);
        INSERT INTO order_tax_hour (${SUMMARY_COLUMNS})
        ${SUMMED_BY_HOUR('unnest(changed) AS changed_hour JOIN orders o ON true', "o.created_at >= changed_hour AND o.created_at < changed_hour + interval '1 hour'")};
        INSERT INTO order_tax_hour (${SUMMARY_COLUMNS})
        ${SUMMED_BY_HOUR('orders o', 'o.created_at >= summarized AND o.created_at < new_until')};
        UPDATE order_tax_fold SET watermark = new_watermark, summarized_until = new_until WHERE id = 1;
        hours := cardinality(changed) + (extract(epoch FROM new_until - summarized) / 3600)::integer;
        caught_up := new_until >= ${HOUR_OF('new_watermark')};
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION fold_order_tax_hours(integer, interval)`);
    await queryRunner.query(`DROP INDEX ix_orders_updated_brin`);
    await queryRunner.query(`DROP TABLE order_tax_fold`);
    await queryRunner.query(`DROP TABLE order_tax_hour`);
    await queryRunner.query(`DROP FUNCTION order_tax_lines(jsonb)`);
    await queryRunner.query(`DROP FUNCTION tax_cents(jsonb)`);
  }
}
