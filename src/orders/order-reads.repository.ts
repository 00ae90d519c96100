import { Injectable } from '@nestjs/common';
import { formatMicrosUtc } from '../common/iso-date-time.js';
import { isoUtc } from '../database/sql-json.js';
import { sql, SqlRunner, sqlUnnamed, type BuiltStatement } from '../database/sql-runner.js';
import type { OrderFiscalRevisionDto, OrderStatusChangeDto, PersistedOrderDto } from './dto/persisted-order.dto.js';
import {
  countableFromFragmentCounters,
  orderCountQuery,
  orderDetailSelect,
  orderExportQuery,
  orderPageQuery,
  type OrderExportCursor,
  type OrderListFilter,
} from './order-list.sql.js';
import type { OrderStatus } from './order-status.js';

/** The filters of `GET /api/order/infoPayments`: a creation window and root or `store` properties compared as text. */
export interface PaymentsFilter {
  /** created_at >= this instant, in microseconds since the epoch. */
  startUs: bigint;
  /** created_at <= (or < when `endExclusive`) this instant, in microseconds since the epoch. */
  endUs: bigint;
  endExclusive: boolean;
  /** Property name → value; names are the route's fixed filter names, never a caller's text. */
  properties: ReadonlyArray<readonly [name: 'country' | 'account' | 'sellerId', value: string]>;
  /** Only orders of these stores (a store-limited client's); absent or null: every store. */
  stores?: readonly string[] | null;
}

export interface OrderPayments {
  id: string;
  orderId: string;
  storeId: string | null;
  createdAt: Date;
  payments: unknown;
}

interface HistoryRow {
  to_status: OrderStatus;
  from_status: OrderStatus | null;
  at: string;
  client_id: string | null;
  via: string | null;
  label: string | null;
  extra: Record<string, unknown> | null;
}

export const HISTORY = sql<HistoryRow>(
  'order-detail-history',
  `SELECT to_status, from_status, ${isoUtc('changed_at')} AS at, client_id, via, label, extra
   FROM order_status_history WHERE order_db_id = $1 ORDER BY changed_at, id`,
  { to_status: true, from_status: true, at: true, client_id: true, via: true, label: true, extra: true },
);

export const FISCAL_REVISION = sql<{ fiscal_group_id: string | null; fiscal_group_revision: number | null; tax_instant: Date | null }>(
  'order-detail-fiscal-revision',
  `SELECT fiscal_group_id::text AS fiscal_group_id, fiscal_group_revision, tax_instant FROM orders WHERE id = $1`,
  { fiscal_group_id: true, fiscal_group_revision: true, tax_instant: true },
);

/** A taxed order's enrichment, for the documents printed from it; only of `$2`'s stores when given. */
export const ENRICHED_PAYLOAD = sql<{ status: OrderStatus; enriched_payload: Record<string, unknown> | null }>(
  'order-enriched-payload',
  `SELECT status, enriched_payload FROM orders WHERE order_id = $1 AND ($2::text[] IS NULL OR store_id = ANY($2::text[]))`,
  { status: true, enriched_payload: true },
);

/** The detail's JSON is built by PostgreSQL (see persistedOrderJson): its keys are checked against PersistedOrderDto there. */
export const DETAIL_BY_UUID = sql<{ persisted: PersistedOrderDto }>(
  'order-detail-by-uuid',
  `${orderDetailSelect('o')} WHERE o.id = $1::uuid OR o.order_id = $2 ORDER BY (o.id = $1::uuid) DESC LIMIT 1`,
  { persisted: true },
);
export const DETAIL_BY_ORDER_ID = sql<{ persisted: PersistedOrderDto }>(
  'order-detail-by-order-id',
  `${orderDetailSelect('o')} WHERE o.order_id = $1`,
  { persisted: true },
);

/** The page of the admin list as one JSON array text (built by PostgreSQL from PersistedOrderDto's keys). */
export function orderPageStatement(filter: OrderListFilter, page: number, pageSize: number): BuiltStatement<{ items: string }> {
  const query = orderPageQuery(filter, page, pageSize);
  return { statement: sqlUnnamed<{ items: string }>(query.sql, { items: true }), values: query.params };
}

/** How many orders match the list's filters (bigint text). */
export function orderCountStatement(filter: OrderListFilter): BuiltStatement<{ total: string }> {
  const query = orderCountQuery(filter);
  return { statement: sqlUnnamed<{ total: string }>(query.sql, { total: true }), values: query.params };
}

/** One row of the order export (the list's filters, newest first); the totals as the stored JSON's number text. */
export interface OrderExportRow {
  id: string;
  order_id: string;
  status: OrderStatus;
  store_id: string | null;
  source: string | null;
  webhook_attempts: number;
  fiscal_group_id: string | null;
  created_at: string;
  uf: string | null;
  base: string | null;
  icms_value: string | null;
  fcp_value: string | null;
  pis_value: string | null;
  cofins_value: string | null;
  total_tax: string | null;
}

/** The next batch of the order export after `cursor`. */
export function orderExportStatement(
  filter: OrderListFilter,
  cursor: OrderExportCursor | undefined,
  limit: number,
): BuiltStatement<OrderExportRow> {
  const query = orderExportQuery(filter, cursor, limit);
  const columns = {
    id: true,
    order_id: true,
    status: true,
    store_id: true,
    source: true,
    webhook_attempts: true,
    fiscal_group_id: true,
    created_at: true,
    uf: true,
    base: true,
    icms_value: true,
    fcp_value: true,
    pis_value: true,
    cofins_value: true,
    total_tax: true,
  } as const;
  return { statement: sqlUnnamed<OrderExportRow>(query.sql, columns), values: query.params };
}

/** The count and the page of `GET /api/order/infoPayments`. */
export function paymentsStatements(
  filter: PaymentsFilter,
  page: number,
  pageSize: number,
): {
  count: BuiltStatement<{ total: number }>;
  page: BuiltStatement<{ id: string; order_id: string; store_id: string | null; created_at: Date; payments: unknown }>;
} {
  // Microsecond text, as PostgreSQL stores it: a Date would cut an inclusive bound to the millisecond.
  const values: unknown[] = [formatMicrosUtc(filter.startUs), formatMicrosUtc(filter.endUs)];
  const conditions = [
    'created_at >= $1::timestamptz',
    filter.endExclusive ? 'created_at < $2::timestamptz' : 'created_at <= $2::timestamptz',
  ];
  for (const [name, value] of filter.properties) {
    values.push(value);
    // The root property of that name, else the one under `store`; numbers compare as their text.
    conditions.push(`COALESCE(payload ->> '${name}', payload -> 'store' ->> '${name}') = $${values.length}`);
  }
  if (filter.stores) {
    values.push([...filter.stores]);
    conditions.push(`store_id = ANY($${values.length}::text[])`);
  }
  const where = conditions.join(' AND ');
  return {
    count: {
      statement: sqlUnnamed<{ total: number }>(`SELECT count(*)::int AS total FROM orders WHERE ${where}`, { total: true }),
      values,
    },
    page: {
      statement: sqlUnnamed(
        `SELECT id, order_id, store_id, created_at,
           COALESCE(NULLIF(payload -> 'payments', 'null'::jsonb), payload -> 'order' -> 'payments') AS payments
         FROM orders WHERE ${where}
         ORDER BY created_at, id
         LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        { id: true, order_id: true, store_id: true, created_at: true, payments: true },
      ),
      values: [...values, pageSize, (page - 1) * pageSize],
    },
  };
}

/** The orders module's reads for the admin list, the order detail and the payments report. */
@Injectable()
export class OrderReadsRepository {
  constructor(private readonly db: SqlRunner) {}

  /** One page of the orders created in the window, oldest first, with their payments, and how many match. */
  async paymentsPage(filter: PaymentsFilter, page: number, pageSize: number): Promise<{ total: number; items: OrderPayments[] }> {
    const built = paymentsStatements(filter, page, pageSize);
    const [counted, rows] = await Promise.all([
      this.db.row(built.count.statement, built.count.values),
      this.db.rows(built.page.statement, built.page.values),
    ]);
    return {
      total: counted?.total ?? 0,
      items: rows.map((row) => ({
        id: row.id,
        orderId: row.order_id,
        storeId: row.store_id,
        createdAt: row.created_at,
        payments: row.payments,
      })),
    };
  }

  /**
   * The page's items as one JSON array text built by PostgreSQL, and the count of every match; the two run in parallel,
   * except for an orderId fragment too short for trigrams: its count comes from counters at once, while its page scans
   * the creation index until the page is full or the index ends, so a page the count says is empty is not read.
   */
  async listPage(filter: OrderListFilter, page: number, pageSize: number): Promise<{ itemsJson: string; total: number }> {
    const items = orderPageStatement(filter, page, pageSize);
    const count = orderCountStatement(filter);
    if (countableFromFragmentCounters(filter)) {
      const total = Number((await this.db.row(count.statement, count.values))!.total);
      if (total <= (page - 1) * pageSize) return { itemsJson: '[]', total };
      return { itemsJson: (await this.db.row(items.statement, items.values))!.items, total };
    }
    const [pageRow, countRow] = await Promise.all([this.db.row(items.statement, items.values), this.db.row(count.statement, count.values)]);
    return { itemsJson: pageRow!.items, total: Number(countRow!.total) };
  }

  /**
   * The orders matching the list's filters, newest first, in batches of `batchSize` read one after the other (a keyset
   * page each), so that an export holds one batch in memory whatever it covers.
   */
  async *exportBatches(filter: OrderListFilter, batchSize: number): AsyncGenerator<OrderExportRow[]> {
    let cursor: OrderExportCursor | undefined;
    for (;;) {
      const built = orderExportStatement(filter, cursor, batchSize);
      const rows = await this.db.rows(built.statement, built.values);
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) return;
      const last = rows[rows.length - 1]!;
      cursor = { createdAt: last.created_at, id: last.id };
    }
  }

  /** The stored order as the detail shows it, by UUID (or orderId) or by orderId. */
  async detail(idOrOrderId: string, isUuid: boolean): Promise<PersistedOrderDto | undefined> {
    const row = await this.db.row(
      isUuid ? DETAIL_BY_UUID : DETAIL_BY_ORDER_ID,
      isUuid ? [idOrOrderId.toLowerCase(), idOrOrderId] : [idOrOrderId],
    );
    return row?.persisted;
  }

  /**
   * The order's stored enrichment (null when it was stored without taxes), by `orderId`; with `stores`, only an order
   * of those stores (another store's order is as unknown).
   */
  async enrichedPayloadOf(
    orderId: string,
    stores: readonly string[] | null,
  ): Promise<{ status: OrderStatus; enrichedPayload: Record<string, unknown> | null } | undefined> {
    const row = await this.db.row(ENRICHED_PAYLOAD, [orderId, stores]);
    return row && { status: row.status, enrichedPayload: row.enriched_payload };
  }

  /** The revision that taxed the order, and its tax instant. */
  async fiscalRevision(orderDbId: string): Promise<OrderFiscalRevisionDto> {
    const row = await this.db.row(FISCAL_REVISION, [orderDbId]);
    return {
      fiscalGroupId: row?.fiscal_group_id ?? null,
      revision: row?.fiscal_group_id ? row.fiscal_group_revision : null,
      taxInstant: row?.tax_instant?.toISOString() ?? null,
    };
  }

  /** The order's status changes, oldest first. */
  async history(orderDbId: string): Promise<OrderStatusChangeDto[]> {
    const rows = await this.db.rows(HISTORY, [orderDbId]);
    return rows.map((row) => ({
      status: row.to_status,
      from: row.from_status,
      at: row.at,
      clientId: row.client_id,
      via: row.via,
      label: row.label,
      extra: row.extra,
    }));
  }
}
