import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ENRICHED_ORDER_EXAMPLE, ORDER_EXAMPLE } from '../../enrichment/dto/order-examples.js';
import { ORDER_STATUSES, type OrderStatus } from '../order-status.js';

const ORDER_DB_ID = '5c2b9a8e-1f0d-4e3c-9b7a-6d5e4f3a2b1c';
const DATE_TIME_DESCRIPTION = 'RFC 3339, UTC, to the microsecond as stored (usable as an exact createdFrom / createdTo bound)';

export class WebhookLastResponseDto {
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the receiver; null when no answer arrived', example: 200 })
  statusCode: number | null;

  @ApiProperty({ type: String, nullable: true, description: 'Body of the answer (possibly cut)', example: '{"received":true}' })
  body: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, example: 184 })
  durationMs: number;

  @ApiProperty({ type: String, nullable: true, description: 'Network error or timeout, when there was no answer', example: null })
  error: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-21T15:30:02.118Z' })
  attemptedAt: string;
}

const CREATED_AT_EXAMPLE = '2026-11-21T15:30:01.204518Z';
const UPDATED_AT_EXAMPLE = '2026-11-21T15:30:02.301877Z';

/** An order as stored (spec "PersistedOrder"). */
export class PersistedOrderDto {
  @ApiProperty({ format: 'uuid', description: 'Internal id of the stored order', example: ORDER_DB_ID })
  id: string;

  @ApiProperty({ description: 'Business identifier from the ordering platform; unique', example: ORDER_EXAMPLE.orderId })
  orderId: string;

  @ApiProperty({ enum: ORDER_STATUSES, example: 'FORWARDED' })
  status: OrderStatus;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The order as received (OrderPayload; every property kept)',
    example: ORDER_EXAMPLE,
  })
  payload: Record<string, unknown>;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The order after enrichment (taxes per line, `taxSummary`); null when enrichment failed',
    example: ENRICHED_ORDER_EXAMPLE,
  })
  enrichedPayload: Record<string, unknown> | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Delivery attempts to the order webhook so far', example: 1 })
  webhookAttempts: number;

  @ApiProperty({ type: String, nullable: true, description: 'Store id of the order (`payload.store.id`)', example: ORDER_EXAMPLE.store.id })
  storeId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Origin of the order (`payload.source`)', example: ORDER_EXAMPLE.source })
  source: string | null;

  @ApiProperty({
    type: WebhookLastResponseDto,
    nullable: true,
    description: 'The last answer of the order webhook; null before the first attempt',
  })
  webhookLastResponse: WebhookLastResponseDto | null;

  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: CREATED_AT_EXAMPLE })
  createdAt: string;

  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: UPDATED_AT_EXAMPLE })
  updatedAt: string;
}

export class OrderPageDto {
  @ApiProperty({ type: [PersistedOrderDto], description: 'Newest first (createdAt desc, then id desc); empty past the last page' })
  items: PersistedOrderDto[];

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Orders matching the filters (exact, not paginated)', example: 1 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  pageSize: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'ceil(total / pageSize); 0 when total is 0', example: 1 })
  totalPages: number;
}

export class OrderStatusChangeDto {
  @ApiProperty({ enum: ORDER_STATUSES, description: 'The status the order moved to', example: 'FORWARDED' })
  status: OrderStatus;

  @ApiProperty({ enum: ORDER_STATUSES, nullable: true, description: 'The status before; null for the first one', example: 'ENRICHED' })
  from: OrderStatus | null;

  @ApiProperty({ format: 'date-time', description: DATE_TIME_DESCRIPTION, example: '2026-11-21T15:30:02.301877Z' })
  at: string;

  @ApiProperty({ type: String, nullable: true, description: 'API client that made the change', example: '1001' })
  clientId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'Route or process that made the change', example: 'POST /api/enrich-order' })
  via: string | null;
}

// The three logs below are written by the tracking, transfer and webhook-delivery features; their rows are
// returned column by column (camelCase), so these shapes describe the agreed columns loosely.

export class OrderTrackingEntryDto {
  @ApiPropertyOptional({ example: 'DISPATCHED' })
  status?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://track.example.com/abc123' })
  trackurl?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'BR123456789' })
  trackingNumber?: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: '4821' })
  deliveryConfirmationCode?: string | null;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { latitude: -23.561414, longitude: -46.655881 },
  })
  shippingCoordinates?: Record<string, unknown> | null;
  @ApiPropertyOptional({ format: 'date-time' })
  createdAt?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '1001' })
  clientId?: string | null;
}

export class OrderTransferEntryDto {
  @ApiPropertyOptional({ example: 'store-0042' })
  fromStore?: string;
  @ApiPropertyOptional({ example: 'store-0043' })
  toStore?: string;
  @ApiPropertyOptional({ example: 'Maria Lima' })
  processedBy?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'Kitchen closed' })
  transferReason?: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  shippingAddress?: Record<string, unknown> | null;
  @ApiPropertyOptional({ format: 'date-time' })
  createdAt?: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: '1001' })
  clientId?: string | null;
}

export class WebhookDeliveryEntryDto {
  @ApiPropertyOptional({ type: 'integer', example: 1 })
  attempt?: number;
  @ApiPropertyOptional({ description: 'What started the delivery', example: 'enrichment' })
  trigger?: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  webhookId?: string | null;
  @ApiPropertyOptional({ type: 'object', additionalProperties: true, nullable: true })
  requestHeaders?: Record<string, unknown> | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 200 })
  statusCode?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  responseBody?: string | null;
  @ApiPropertyOptional({ type: 'integer', nullable: true, example: 184 })
  durationMs?: number | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  error?: string | null;
  @ApiPropertyOptional({ format: 'date-time' })
  attemptedAt?: string;
}

export class OrderDetailDto extends PersistedOrderDto {
  @ApiProperty({
    type: [OrderStatusChangeDto],
    description: 'Every status change, oldest first (the first one is the creation, with `from: null`)',
  })
  history: OrderStatusChangeDto[];

  @ApiProperty({ type: [OrderTrackingEntryDto], description: 'Tracking updates, oldest first' })
  tracking: Array<Record<string, unknown>>;

  @ApiProperty({ type: [OrderTransferEntryDto], description: 'Store transfers, oldest first' })
  transfers: Array<Record<string, unknown>>;

  @ApiProperty({ type: [WebhookDeliveryEntryDto], description: 'The webhook delivery log, oldest first' })
  deliveries: Array<Record<string, unknown>>;
}
