import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { ceilToMicros, floorToMicros, parseIsoDateTime } from '../common/http/iso-instant.js';
import { pageOf } from '../common/http/pagination.js';
import { isUuid } from '../common/http/uuid.pipe.js';
import type { OrderListQuery } from './dto/order-list.query.js';
import { DEFAULT_PAGE_SIZE } from './dto/order-list.query.js';
import type { OrderDetailDto, PersistedOrderDto } from './dto/persisted-order.dto.js';
import { isoUtc, orderCountQuery, orderDetailSelect, orderPageQuery, type OrderListFilter } from './order-list.sql.js';

/**
 * The history and the logs of one order in one round trip, each a JSON array built by
 * PostgreSQL with the response's field names, oldest first.
 */
const ORDER_LOGS_SQL = `
  SELECT
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'status', to_status, 'from', from_status, 'at', ${isoUtc('changed_at')}, 'clientId', client_id, 'via', via,
        'label', label, 'extra', extra
      ) ORDER BY changed_at, id), '[]') FROM order_status_history WHERE order_db_id = $1) AS history,
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'status', status, 'orderStatusApplied', order_status_applied, 'trackurl', trackurl, 'trackingNumber', tracking_number,
        'deliveryConfirmationCode', delivery_confirmation_code, 'shippingCoordinates', shipping_coordinates,
        'at', ${isoUtc('created_at')}, 'clientId', client_id, 'extra', extra
      ) ORDER BY created_at, id), '[]') FROM order_tracking WHERE order_db_id = $1) AS tracking,
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'fromStore', from_store, 'toStore', to_store, 'fromStoreId', from_store_id, 'toStoreId', to_store_id,
        'processedBy', processed_by, 'transferReason', transfer_reason, 'shippingAddress', shipping_address,
        'refiscalized', refiscalized, 'fromFiscalGroupId', from_fiscal_group_id, 'toFiscalGroupId', to_fiscal_group_id,
        'at', ${isoUtc('created_at')}, 'clientId', client_id, 'extra', extra
      ) ORDER BY created_at, id), '[]') FROM order_transfer WHERE order_db_id = $1) AS transfers,
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'idTransaccion', id_transaccion, 'at', ${isoUtc('created_at')}, 'clientId', client_id, 'extra', extra
      ) ORDER BY created_at, id), '[]') FROM order_dispatch WHERE order_db_id = $1) AS dispatches,
    (SELECT coalesce(jsonb_agg(jsonb_build_object(
        'attempt', attempt, 'trigger', trigger, 'webhookId', webhook_id, 'url', url, 'requestHeaders', request_headers,
        'statusCode', status_code, 'responseBody', response_body, 'durationMs', duration_ms, 'error', error,
        'attemptedAt', ${isoUtc('attempted_at')}
      ) ORDER BY attempted_at, attempt, id), '[]') FROM webhook_delivery WHERE order_db_id = $1) AS deliveries`;

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
        ? `${orderDetailSelect('o')} WHERE o.id = $1::uuid OR o.order_id = $2 ORDER BY (o.id = $1::uuid) DESC LIMIT 1`
        : `${orderDetailSelect('o')} WHERE o.order_id = $1`,
      byUuid ? [idOrOrderId.toLowerCase(), idOrOrderId] : [idOrOrderId],
    );
    if (!row) throw ApiError.notFound(`No order has the id or orderId ${idOrOrderId}`);
    const order = row.persisted;
    const [logs] = await this.dataSource.query<
      Array<Pick<OrderDetailDto, 'history' | 'tracking' | 'transfers' | 'dispatches' | 'deliveries'>>
    >(ORDER_LOGS_SQL, [order.id]);
    return { ...order, ...logs! };
  }
}
