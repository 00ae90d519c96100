import { Injectable } from '@nestjs/common';
import { sql, SqlRunner } from '../database/sql-runner.js';

/** The tax report's filters, as the statement takes them. */
export interface TaxReportFilter {
  /** The period's first day and last day (inclusive), `YYYY-MM-DD`, in `timeZone`. */
  from: string;
  to: string;
  timeZone: string;
  storeId: string | null;
  fiscalGroupId: string | null;
  uf: string | null;
}

/** One row of the report: the sums in cents as bigint text, the rate as numeric text. */
export interface TaxReportRow {
  store_id: string | null;
  fiscal_group_id: string | null;
  uf: string | null;
  cfop: string | null;
  cst: string | null;
  icms_rate: string | null;
  orders: string;
  order_count: string;
  items: string;
  icms_base_cents: string;
  icms_cents: string;
  fcp_cents: string;
  pis_base_cents: string;
  pis_cents: string;
  cofins_base_cents: string;
  cofins_cents: string;
  total_tax_cents: string;
}

const CENTS = [
  'icms_base_cents',
  'icms_cents',
  'fcp_cents',
  'pis_base_cents',
  'pis_cents',
  'cofins_base_cents',
  'cofins_cents',
  'total_tax_cents',
];

/**
 * The period's taxed items by store, fiscal group, UF, CFOP, CST/CSOSN and ICMS rate (docs/reports.md), in one
 * statement, so one snapshot: the hours `fold_order_tax_hours()` has summed (`order_tax_hour`, migration OrderTaxHours)
 * and, summed live from the orders, what the summaries do not hold exactly: the hours from `summarized_until` on, the
 * summed hours with an order changed since the fold's watermark (found through `ix_orders_updated_brin`), and the
 * period's first and last hours when its zone's day does not start on a UTC hour. Each part reads ranges of
 * `ix_orders_created`, never the period's orders. The days are turned into instants by PostgreSQL in the given zone.
 * Cancelled and rejected orders are left out (no document stands for them). `order_count` is the orders of the whole
 * report, the same on every row.
 */
export const TAX_REPORT = sql<TaxReportRow>(
  'tax-report',
  `WITH period AS (
     SELECT ($1::date::timestamp AT TIME ZONE $3::text) AS s, (($2::date + 1)::timestamp AT TIME ZONE $3::text) AS e
   ), state AS (
     SELECT f.watermark, coalesce(f.summarized_until, '-infinity') AS until FROM order_tax_fold f WHERE f.id = 1
   ), live_hours AS (
     SELECT date_trunc('hour', o.created_at, 'UTC') AS hour FROM orders o, period, state
     WHERE o.updated_at >= state.watermark AND o.created_at >= period.s AND o.created_at < least(period.e, state.until)
     UNION
     SELECT edge.hour FROM period, state,
       LATERAL (VALUES (date_trunc('hour', period.s, 'UTC')), (date_trunc('hour', period.e, 'UTC'))) AS edge (hour)
     WHERE edge.hour < state.until AND edge.hour + interval '1 hour' > period.s AND edge.hour < period.e
       AND (edge.hour < period.s OR edge.hour + interval '1 hour' > period.e)
   ), live_ranges AS (
     SELECT greatest(period.s, live_hours.hour) AS lo, least(period.e, live_hours.hour + interval '1 hour') AS hi FROM live_hours, period
     UNION ALL
     SELECT greatest(period.s, state.until), period.e FROM period, state WHERE state.until < period.e
   ), keyed AS (
     SELECT h.store_id, h.fiscal_group_id, h.uf, h.cfop, h.cst, h.icms_rate, h.orders::bigint AS orders,
            h.first_orders::bigint AS first_orders, h.items::bigint AS items, ${CENTS.map((c) => `h.${c}`).join(', ')}
     FROM order_tax_hour h, period, state
     WHERE h.hour >= period.s AND h.hour + interval '1 hour' <= period.e AND h.hour < state.until
       AND h.hour NOT IN (SELECT hour FROM live_hours)
       AND ($4::text IS NULL OR h.store_id = $4::text)
       AND ($5::uuid IS NULL OR h.fiscal_group_id = $5::uuid)
       AND ($6::text IS NULL OR h.uf = $6::text)
     UNION ALL
     SELECT o.store_id, o.fiscal_group_id, o.enriched_payload #>> '{taxSummary,uf}', l.cfop, l.cst, l.icms_rate, 1,
            l.first_of_order::int, l.items, ${CENTS.map((c) => `l.${c}`).join(', ')}
     FROM live_ranges r
     -- One index range of ix_orders_created per range, never a scan of the orders.
     CROSS JOIN LATERAL (
       SELECT o.store_id, o.fiscal_group_id, o.enriched_payload FROM orders o
       WHERE o.created_at >= r.lo AND o.created_at < r.hi AND o.status NOT IN ('CANCELLED', 'REJECTED')
         AND ($4::text IS NULL OR o.store_id = $4::text)
         AND ($5::uuid IS NULL OR o.fiscal_group_id = $5::uuid)
         AND ($6::text IS NULL OR o.enriched_payload #>> '{taxSummary,uf}' = $6::text)
       OFFSET 0
     ) AS o
     CROSS JOIN LATERAL order_tax_lines(o.enriched_payload) AS l
   )
   SELECT store_id, fiscal_group_id::text AS fiscal_group_id, uf, cfop, cst, icms_rate::text AS icms_rate,
          sum(orders)::text AS orders, (sum(sum(first_orders)) OVER ())::text AS order_count, sum(items)::text AS items,
          ${CENTS.map((c) => `sum(${c})::text AS ${c}`).join(', ')}
   FROM keyed
   GROUP BY store_id, fiscal_group_id, uf, cfop, cst, icms_rate
   ORDER BY store_id NULLS LAST, fiscal_group_id NULLS LAST, uf NULLS LAST, cfop NULLS LAST, cst NULLS LAST, icms_rate NULLS LAST`,
  {
    store_id: true,
    fiscal_group_id: true,
    uf: true,
    cfop: true,
    cst: true,
    icms_rate: true,
    orders: true,
    order_count: true,
    items: true,
    icms_base_cents: true,
    icms_cents: true,
    fcp_cents: true,
    pis_base_cents: true,
    pis_cents: true,
    cofins_base_cents: true,
    cofins_cents: true,
    total_tax_cents: true,
  },
);

/** The period's instants as PostgreSQL reads the days in the zone: `[start, end)`. */
export const TAX_REPORT_PERIOD = sql<{ period_start: Date; period_end: Date }>(
  'tax-report-period',
  `SELECT ($1::date::timestamp AT TIME ZONE $3::text) AS period_start, (($2::date + 1)::timestamp AT TIME ZONE $3::text) AS period_end`,
  { period_start: true, period_end: true },
);

/** One round of the tax fold (see OrderTaxFolder): how many hours it summed, and whether it reached the current hour. */
export const FOLD_ORDER_TAX_HOURS = sql<{ hours: number; caught_up: boolean }>(
  'fold-order-tax-hours',
  `SELECT hours, caught_up FROM fold_order_tax_hours($1, make_interval(secs => $2::double precision / 1000))`,
  { hours: true, caught_up: true },
);

/** The tax report's reads and the fold of its hourly summaries (the orders module owns both tables they read). */
@Injectable()
export class OrderTaxReportRepository {
  constructor(private readonly db: SqlRunner) {}

  async taxReport(filter: TaxReportFilter): Promise<{ rows: TaxReportRow[]; periodStart: Date; periodEnd: Date }> {
    const values = [filter.from, filter.to, filter.timeZone, filter.storeId, filter.fiscalGroupId, filter.uf];
    const [rows, period] = await Promise.all([
      this.db.rows(TAX_REPORT, values),
      this.db.row(TAX_REPORT_PERIOD, [filter.from, filter.to, filter.timeZone]),
    ]);
    return { rows, periodStart: period!.period_start, periodEnd: period!.period_end };
  }

  /**
   * Folds the hours changed since the last round and up to `maxNewHours` new ones, in one transaction. The new
   * watermark is at least `settleMs` before the clock (and before the oldest transaction under way).
   */
  async fold(maxNewHours: number, settleMs: number): Promise<{ hours: number; caughtUp: boolean }> {
    const row = await this.db.row(FOLD_ORDER_TAX_HOURS, [maxNewHours, settleMs]);
    return { hours: row?.hours ?? 0, caughtUp: row?.caught_up ?? true };
  }
}
