import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { ceilToMicros, floorToMicros, parseIsoDateTime } from '../common/http/iso-instant.js';
import { pageOf } from '../common/http/pagination.js';
import { isUuid } from '../common/http/uuid.pipe.js';
import type { OrderListQuery } from './dto/order-list.query.js';
import { DEFAULT_PAGE_SIZE } from './dto/order-list.query.js';
import type { OrderDetailDto, PersistedOrderDto } from './dto/persisted-order.dto.js';
import { toCamelCaseRecord, toStatusChange, type StatusHistoryRow } from './dto/persisted-order.mapper.js';
import { isoUtc, orderCountQuery, orderPageQuery, persistedOrderJson, type OrderListFilter } from './order-list.sql.js';

/**
 * Logs of an order kept by other features, each `order_db_id`-keyed. A table that does not
 * exist (yet) reads as an empty log.
 */
const ORDER_LOGS = {
  tracking: { table: 'order_tracking', orderBy: 'created_at, id' },
  transfers: { table: 'order_transfer', orderBy: 'created_at, id' },
  deliveries: { table: 'webhook_delivery', orderBy: 'attempted_at, attempt, id' },
} as const;

const UNDEFINED_TABLE = '42P01';
/** orders.order_id is varchar(100). */
const MAX_ORDER_ID_LENGTH = 100;

/** The query's filters as the SQL builder takes them: instants rounded to the stored microseconds, inclusively. */
export function toOrderListFilter(query: OrderListQuery): OrderListFilter {
  const from = parseIsoDateTime(query.createdFrom);
  const to = parseIsoDateTime(query.createdTo);
  return {
    storeId: query.storeId,
    source: query.source,
    status: query.status,
    orderId: query.orderId,
    createdFromUs: from === undefined ? undefined : ceilToMicros(from),
    createdToUs: to === undefined ? undefined : floorToMicros(to),
    minWebhookAttempts: query.minWebhookAttempts,
    maxWebhookAttempts: query.maxWebhookAttempts,
  };
}

@Injectable()
export class OrdersQueryService {
  /** Log tables seen to exist; the others are looked up again on each detail request. */
  private readonly presentTables = new Set<string>();

  constructor(private readonly dataSource: DataSource) {}

  /** The page as JSON text (an OrderPageDto): the items' JSON comes from PostgreSQL as is. */
  async list(query: OrderListQuery): Promise<string> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const filter = toOrderListFilter(query);
    const items = orderPageQuery(filter, page, pageSize);
    const count = orderCountQuery(filter);
    // Two connections, in parallel: the page and the count do not wait for each other.
    const [pages, totals] = await Promise.all([
      this.dataSource.query<Array<{ items: string }>>(items.sql, items.params),
      this.dataSource.query<Array<{ total: string }>>(count.sql, count.params),
    ]);
    const { total, totalPages } = pageOf([], Number(totals[0]!.total), page, pageSize);
    return `{"items":${pages[0]!.items},"total":${total},"page":${page},"pageSize":${pageSize},"totalPages":${totalPages}}`;
  }

  /** By internal id (UUID) or by orderId; an orderId that looks like a UUID is found too. */
  async detail(idOrOrderId: string): Promise<OrderDetailDto> {
    if (idOrOrderId.length > MAX_ORDER_ID_LENGTH) {
      throw ApiError.badRequest(`id must be a UUID or an orderId of at most ${MAX_ORDER_ID_LENGTH} characters`, 'id');
    }
    const byUuid = isUuid(idOrOrderId);
    const [row] = await this.dataSource.query<Array<{ persisted: PersistedOrderDto }>>(
      byUuid
        ? `SELECT ${persistedOrderJson('o')} AS persisted FROM orders o WHERE o.id = $1::uuid OR o.order_id = $2 ORDER BY (o.id = $1::uuid) DESC LIMIT 1`
        : `SELECT ${persistedOrderJson('o')} AS persisted FROM orders o WHERE o.order_id = $1`,
      byUuid ? [idOrOrderId.toLowerCase(), idOrOrderId] : [idOrOrderId],
    );
    if (!row) throw ApiError.notFound(`No order has the id or orderId ${idOrOrderId}`);
    const order = row.persisted;
    const [history, tracking, transfers, deliveries] = await Promise.all([
      this.dataSource.query<StatusHistoryRow[]>(
        `SELECT to_status, from_status, ${isoUtc('changed_at')} AS changed_at, client_id, via
         FROM order_status_history WHERE order_db_id = $1 ORDER BY changed_at, id`,
        [order.id],
      ),
      this.logRows(ORDER_LOGS.tracking, order.id),
      this.logRows(ORDER_LOGS.transfers, order.id),
      this.logRows(ORDER_LOGS.deliveries, order.id),
    ]);
    return { ...order, history: history.map(toStatusChange), tracking, transfers, deliveries };
  }

  /** The rows of one order in a log table, oldest first, camelCased; [] while the table does not exist. */
  private async logRows(log: { table: string; orderBy: string }, orderDbId: string): Promise<Array<Record<string, unknown>>> {
    if (!this.presentTables.has(log.table)) {
      const [{ present }] = await this.dataSource.query<Array<{ present: boolean }>>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
        `public.${log.table}`,
      ]);
      if (!present) return [];
      this.presentTables.add(log.table);
    }
    try {
      const rows = await this.dataSource.query<Array<Record<string, unknown>>>(
        `SELECT * FROM ${log.table} WHERE order_db_id = $1 ORDER BY ${log.orderBy}`,
        [orderDbId],
      );
      return rows.map(toCamelCaseRecord);
    } catch (error) {
      const code = ((error as { driverError?: { code?: string } }).driverError ?? (error as { code?: string })).code;
      if (code !== UNDEFINED_TABLE) throw error;
      this.presentTables.delete(log.table);
      return [];
    }
  }
}
