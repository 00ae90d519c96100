import { ApiProperty } from '@nestjs/swagger';
import { ENRICHED_ORDER_EXAMPLE, ORDER_EXAMPLE } from '../../demo/order-examples.js';
import type { OrderStatus } from '../order-status.js';
import { ORDER_DETAIL_MAX_BYTES, ORDER_LIST_ITEM_MAX_BYTES, ORDER_LIST_PAGE_MAX_BYTES, PAYLOAD_OMITTED } from '../order-size-bounds.js';

const ORDER_DB_ID = '5c2b9a8e-1f0d-4e3c-9b7a-6d5e4f3a2b1c';
const DATE_TIME_DESCRIPTION = 'RFC 3339, UTC, to the microsecond as stored (usable as an exact createdFrom / createdTo bound)';

export class WebhookLastResponseDto {
  /** HTTP status of the receiver; null when no answer arrived */
  @ApiProperty({ type: 'integer', example: 200 })
  statusCode: number | null;

  /** Body of the answer (possibly cut) */
  @ApiProperty({ example: '{"received":true}' })
  body: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, example: 184 })
  durationMs: number;

  /** Network error or timeout, when there was no answer */
  @ApiProperty({ example: null })
  error: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T15:30:02.118Z' })
  attemptedAt: string;
}

/** What the KFC point of sale sends with a tracking update: its delivery partner's objects. */
const EXTRA_EXAMPLE = {
  client_bringg: { id: '12345678', coordinate: { latitude: '-0.1806532', longitude: '-78.4678382' } },
  order_bringg: { uuid: 'a1b2c3d4-0000-4000-8000-000000000001', task_id: '98765432' },
};

/** The request body's properties beyond the documented ones, kept with the record. */
const ApiKeptProperties = (example: Record<string, unknown> | null = null) =>
  ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The request body’s properties beyond the documented ones, kept as sent; null when there were none',
    example,
  });

const CREATED_AT_EXAMPLE = '2026-11-21T15:30:01.204518Z';
const UPDATED_AT_EXAMPLE = '2026-11-21T15:30:02.301877Z';

/** An order as stored (spec "PersistedOrder"). */
export class PersistedOrderDto {
  /** Internal id of the stored order */
  @ApiProperty({ format: 'uuid', example: ORDER_DB_ID })
  id: string;

  /** Business identifier from the ordering platform; unique */
  @ApiProperty({ example: ORDER_EXAMPLE.orderId })
  orderId: string;

  @ApiProperty({ example: 'FORWARDED' })
  status: OrderStatus;

  /** The order as received (OrderPayload; every property kept) */
  @ApiProperty({ type: 'object', additionalProperties: true, example: ORDER_EXAMPLE })
  payload: Record<string, unknown>;

  /** The order after enrichment (taxes per line, `taxSummary`); null when enrichment failed */
  @ApiProperty({ type: 'object', additionalProperties: true, example: ENRICHED_ORDER_EXAMPLE })
  enrichedPayload: Record<string, unknown> | null;

  /** Delivery attempts to the order webhook so far */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  webhookAttempts: number;

  /** Store id of the order (`payload.store.id`) */
  @ApiProperty({ example: ORDER_EXAMPLE.store.id })
  storeId: string | null;

  /** Origin of the order (`payload.source`) */
  @ApiProperty({ example: ORDER_EXAMPLE.source })
  source: string | null;

  /** The marketplace's own number of the order, for an order read through a marketplace profile (`?profile=`): iFood's, Open Delivery's and Keeta's `displayId` (the short number the customer and the store see), Rappi's and 99Food's order id (the same as `orderId`); null for any other order. The list's `q` finds an order by it */
  @ApiProperty({ type: 'string', nullable: true, example: '3813' })
  marketplaceOrderNumber: string | null;

  /** The last answer of the order webhook; null before the first attempt */
  webhookLastResponse: WebhookLastResponseDto | null;

  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: CREATED_AT_EXAMPLE })
  createdAt: string;

  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: UPDATED_AT_EXAMPLE })
  updatedAt: string;

  @ApiProperty({
    description:
      `Present only when \`payload\` and \`enrichedPayload\` were left out (sent as null) to bound the answer's size: ` +
      `\`${PAYLOAD_OMITTED.item}\`: the order's JSON is over ${ORDER_LIST_ITEM_MAX_BYTES / 1048576} MiB (the detail route still has it); ` +
      `\`${PAYLOAD_OMITTED.page}\`: the page already holds ${ORDER_LIST_PAGE_MAX_BYTES / 1048576} MiB (fetch the detail, or use a smaller pageSize); ` +
      `\`${PAYLOAD_OMITTED.detail}\`: the order's JSON is over ${ORDER_DETAIL_MAX_BYTES / 1048576} MiB (stored before ORDER_MAX_LINES existed).`,
    example: PAYLOAD_OMITTED.page,
  })
  payloadOmitted?: (typeof PAYLOAD_OMITTED)[keyof typeof PAYLOAD_OMITTED];
}

export class OrderPageDto {
  /** Newest first (createdAt desc, then id desc); empty past the last page */
  items: PersistedOrderDto[];

  /** Orders matching the filters (exact, not paginated) */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  pageSize: number;

  /** ceil(total / pageSize); 0 when total is 0 */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  totalPages: number;
}

export class OrderStatusChangeDto {
  /** The status the order moved to */
  @ApiProperty({ example: 'FORWARDED' })
  status: OrderStatus;

  /** The status before; null for the first one */
  @ApiProperty({ example: 'ENRICHED' })
  from: OrderStatus | null;

  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: '2026-11-21T15:30:02.301877Z' })
  at: string;

  /** API client that made the change */
  @ApiProperty({ example: '1001' })
  clientId: string | null;

  /** Route or process that made the change */
  @ApiProperty({ example: 'POST /api/api/order/status' })
  via: string | null;

  /** The status as the caller sent it (a point-of-sale label such as `Por Asignar`); null when none was sent */
  @ApiProperty({ example: 'Por Asignar' })
  label: string | null;

  @ApiKeptProperties()
  extra: Record<string, unknown> | null;
}

export class TrackedCoordinateDto {
  @ApiProperty({ example: '-23.561414' })
  latitude: string;
  @ApiProperty({ example: '-46.655881' })
  longitude: string;
}

export class OrderTrackingEntryDto {
  /** The status sent with the tracking (an order status, or the carrier's own) */
  @ApiProperty({ example: 'DISPATCHED' })
  status: string;
  /** Whether `status` was an order status and was applied to the order */
  @ApiProperty({ example: true })
  orderStatusApplied: boolean;
  @ApiProperty({ example: 'https://track.example.com/abc123' })
  trackurl: string | null;
  @ApiProperty({ example: 'BR123456789' })
  trackingNumber: string | null;
  @ApiProperty({ example: '4821' })
  deliveryConfirmationCode: string | null;
  shippingCoordinates: TrackedCoordinateDto[];
  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: '2026-11-21T15:40:12.120Z' })
  at: string;
  @ApiProperty({ example: '1001' })
  clientId: string | null;
  @ApiKeptProperties(EXTRA_EXAMPLE)
  extra: Record<string, unknown> | null;
}

export class OrderTransferEntryDto {
  /** As sent: the store id or its store code */
  @ApiProperty({ example: 'store-0042' })
  fromStore: string;
  @ApiProperty({ example: 'store-0043' })
  toStore: string;
  /** The store id `fromStore` resolved to */
  @ApiProperty({ example: 'store-0042' })
  fromStoreId: string | null;
  /** The store id `toStore` resolved to (the order’s store now) */
  @ApiProperty({ example: 'store-0043' })
  toStoreId: string;
  @ApiProperty({ example: 'Maria Lima' })
  processedBy: string;
  @ApiProperty({ example: 'Kitchen closed' })
  transferReason: string;
  @ApiProperty({ type: 'object', additionalProperties: true, example: { street: 'Av. Paulista, 1578', city: 'São Paulo' } })
  shippingAddress: Record<string, unknown> | null;
  /** Whether the order was taxed again with the target store’s fiscal group */
  @ApiProperty({ example: true })
  refiscalized: boolean;
  @ApiProperty({ format: 'uuid' })
  fromFiscalGroupId: string | null;
  @ApiProperty({ format: 'uuid' })
  toFiscalGroupId: string | null;
  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: '2026-11-21T15:41:00.000Z' })
  at: string;
  @ApiProperty({ example: '1001' })
  clientId: string | null;
  @ApiKeptProperties()
  extra: Record<string, unknown> | null;
}

export class OrderDispatchEntryDto {
  /** The `id_transaccion` of the dispatch call */
  @ApiProperty({ example: 'TX-998877' })
  idTransaccion: string;
  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: '2026-11-21T15:45:00.000Z' })
  at: string;
  @ApiProperty({ example: '1001' })
  clientId: string | null;
  @ApiKeptProperties()
  extra: Record<string, unknown> | null;
}

/** What sent a delivery attempt: the first forward, an admin's redeliver, or the retry queue. */
export type DeliveryTrigger = 'forward' | 'redeliver' | 'retry';

export class WebhookDeliveryEntryDto {
  /** The order’s delivery attempt number */
  @ApiProperty({ type: 'integer', example: 1 })
  attempt: number;
  @ApiProperty({ example: 'forward' })
  trigger: DeliveryTrigger;
  /** Standard Webhooks message id (the same for every attempt of one enriched payload) */
  @ApiProperty({ example: 'msg_wctOHEVOVDT0I5V16HOo_czrF45IS6kB' })
  webhookId: string;
  /** The webhook URL (without credentials or query) */
  @ApiProperty({ example: 'https://restaurant.example.com/orders' })
  url: string;
  /** The headers sent (no secret) */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  requestHeaders: Record<string, string>;
  @ApiProperty({ type: 'integer', example: 200 })
  statusCode: number | null;
  /** The first 4 KiB of the answer */
  responseBody: string | null;
  @ApiProperty({ type: 'integer', example: 184 })
  durationMs: number;
  @ApiProperty({ example: null })
  error: string | null;
  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: '2026-11-21T15:30:02.512Z' })
  attemptedAt: string;
}

/** The fiscal group revision that taxed the order: `GET /api/admin/fiscal-groups/{fiscalGroupId}/revisions/{revision}` shows it. */
export class OrderFiscalRevisionDto {
  /** The group that taxed the order (null: not taxed) */
  @ApiProperty({ format: 'uuid', example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' })
  fiscalGroupId: string | null;

  /** Its revision (null: not taxed, or taxed before revisions were kept) */
  @ApiProperty({ type: 'integer', minimum: 1, example: 3 })
  revision: number | null;

  /** The instant that chose the revision, kept from the first receipt (null for orders stored before it was kept) */
  @ApiProperty({ format: 'date-time', example: '2026-11-21T15:30:00.000Z' })
  taxInstant: string | null;
}

export class OrderDetailDto extends PersistedOrderDto {
  /** Which revision of which fiscal group taxed the order */
  fiscalRevision: OrderFiscalRevisionDto;

  /** Every status change, oldest first (the first one is the creation, with `from: null`) */
  history: OrderStatusChangeDto[];

  /** Tracking updates, oldest first */
  tracking: OrderTrackingEntryDto[];

  /** Store transfers, oldest first */
  transfers: OrderTransferEntryDto[];

  /** Pickup dispatches, oldest first */
  dispatches: OrderDispatchEntryDto[];

  /** The webhook delivery log, oldest first */
  deliveries: WebhookDeliveryEntryDto[];
}
