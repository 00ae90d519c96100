import { Inject, Injectable, Optional } from '@nestjs/common';
import { CUSTOMER_SEARCH_KEYS, type CustomerSearchKeys } from './customer-search-keys.port.js';
import { ApiError } from '../common/errors/api-error.js';
import { ceilToMicros, floorToMicros, parseIsoDateTime } from '../common/iso-date-time.js';
import { pageOf } from '../common/http/pagination.js';
import { isUuid } from '../common/http/uuid.pipe.js';
import type { OrderListQuery } from './dto/order-list.query.js';
import { DEFAULT_PAGE_SIZE } from './dto/order-list.query.js';
import type { OrderDetailDto } from './dto/persisted-order.dto.js';
import type { OrderListFilter } from './order-list.sql.js';
import { OrderDetailSections } from './order-detail-sections.js';
import { OrderReadsRepository } from './order-reads.repository.js';

/** orders.order_id is varchar(100). */
const MAX_ORDER_ID_LENGTH = 100;

/** The query's filters as the SQL builder takes them: instants rounded to the stored microseconds, inclusively. */
export function toOrderListFilter(query: OrderListQuery, customerKeysOf: (text: string) => string[] = () => []): OrderListFilter {
  const searched = query.q?.trim();
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
    search: searched ? { text: searched, internalId: isUuid(searched), customerKeys: customerKeysOf(searched) } : undefined,
  };
}

/** What the caller's search box may look at. */
export interface ListCaller {
  /** Only an admin's search finds a customer's orders (docs/personal-data.md). */
  findsCustomers: boolean;
}

@Injectable()
export class OrdersQueryService {
  constructor(
    private readonly orders: OrderReadsRepository,
    private readonly sections: OrderDetailSections,
    /** Without the binding (a context of the orders module alone), the search box finds no customer. */
    @Optional() @Inject(CUSTOMER_SEARCH_KEYS) private readonly customerKeys: CustomerSearchKeys | null = null,
  ) {}

  /** The page as JSON text (an OrderPageDto): the items' JSON comes from PostgreSQL as is. */
  async list(query: OrderListQuery, caller: ListCaller = { findsCustomers: false }): Promise<string> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? DEFAULT_PAGE_SIZE;
    const keys = caller.findsCustomers && this.customerKeys ? (text: string) => this.customerKeys!.keysFor(text) : undefined;
    const { itemsJson, total: count } = await this.orders.listPage(toOrderListFilter(query, keys), page, pageSize);
    const { total, totalPages } = pageOf([], count, page, pageSize);
    return `{"items":${itemsJson},"total":${total},"page":${page},"pageSize":${pageSize},"totalPages":${totalPages}}`;
  }

  /** By internal id (UUID) or by orderId; an orderId that looks like a UUID is found too. */
  async detail(idOrOrderId: string): Promise<OrderDetailDto> {
    if (idOrOrderId.length > MAX_ORDER_ID_LENGTH) {
      throw ApiError.badRequest(`id must be a UUID or an orderId of at most ${MAX_ORDER_ID_LENGTH} characters`, 'id');
    }
    const order = await this.orders.detail(idOrOrderId, isUuid(idOrOrderId));
    if (!order) throw ApiError.notFound(`No order has the id or orderId ${idOrOrderId}`);
    const [history, fiscalRevision, sections] = await Promise.all([
      this.orders.history(order.id),
      this.orders.fiscalRevision(order.id),
      this.sections.read(order.id),
    ]);
    return { ...order, fiscalRevision, history, ...sections } as OrderDetailDto;
  }
}
