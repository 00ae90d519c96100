import { Injectable } from '@nestjs/common';
import { sql, SqlRunner } from '../database/sql-runner.js';
import type { OrderStatus } from './order-status.js';

export interface HourlyStatusCount {
  hour: Date;
  status: OrderStatus;
  count: number;
}

export interface FailedEnrichmentStore {
  storeId: string;
  failedOrders: number;
  lastFailedAt: Date;
}

/**
 * From the hourly counters (migration DashboardStats): the folded hours plus the deltas not folded yet,
 * so the figures are exact at once. Hours whose changes cancel out are left out.
 */
export const COUNTS_PER_HOUR = sql<{ hour: Date; status: OrderStatus; n: number }>(
  'order-counts-per-hour',
  `SELECT hour, status, sum(n)::int AS n FROM (
     SELECT hour, status, n FROM order_count_hour WHERE hour >= $1
     UNION ALL
     SELECT hour, status, n FROM order_count_delta WHERE hour >= $1
   ) counted GROUP BY hour, status HAVING sum(n) <> 0`,
  { hour: true, status: true, n: true },
);
/** Index-only on the partial ix_orders_enrichment_failed. */
export const FAILED_ENRICHMENT_STORES = sql<{ store_id: string; n: number; last_at: Date }>(
  'order-failed-enrichment-stores',
  `SELECT store_id, count(*)::int AS n, max(created_at) AS last_at
   FROM orders WHERE status = 'ENRICHMENT_FAILED' AND created_at >= $1 AND store_id IS NOT NULL GROUP BY store_id`,
  { store_id: true, n: true, last_at: true },
);

/** The orders module's aggregates for the dashboard (`src/stats/`). */
@Injectable()
export class OrderStatsRepository {
  constructor(private readonly db: SqlRunner) {}

  /** Orders created since `from` (at most 8 days back: the hourly counters' window), per UTC hour of creation and current status; hours without orders are absent. */
  async countsPerHour(from: Date): Promise<HourlyStatusCount[]> {
    const rows = await this.db.rows(COUNTS_PER_HOUR, [from]);
    return rows.map((row) => ({ hour: row.hour, status: row.status, count: row.n }));
  }

  /** Stores whose orders since `from` are still ENRICHMENT_FAILED (no fiscal group held the store), with how many and the last one. */
  async failedEnrichmentStores(from: Date): Promise<FailedEnrichmentStore[]> {
    const rows = await this.db.rows(FAILED_ENRICHMENT_STORES, [from]);
    return rows.map((row) => ({ storeId: row.store_id, failedOrders: row.n, lastFailedAt: row.last_at }));
  }
}
