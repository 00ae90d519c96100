import type { OrderStatus } from '../order-status.js';
import type { OrderStatusChangeDto, PersistedOrderDto, WebhookLastResponseDto } from './persisted-order.dto.js';

/** A row selected with `persistedOrderColumns()`: dates already RFC 3339 text. */
export interface PersistedOrderRow {
  id: string;
  order_id: string;
  status: OrderStatus;
  payload: Record<string, unknown>;
  enriched_payload: Record<string, unknown> | null;
  webhook_attempts: number;
  store_id: string | null;
  source: string | null;
  webhook_last_response: WebhookLastResponseDto | null;
  created_at: string;
  updated_at: string;
}

export interface StatusHistoryRow {
  to_status: OrderStatus;
  from_status: OrderStatus | null;
  changed_at: string;
  client_id: string | null;
  via: string | null;
}

export function toPersistedOrder(row: PersistedOrderRow): PersistedOrderDto {
  return {
    id: row.id,
    orderId: row.order_id,
    status: row.status,
    payload: row.payload,
    enrichedPayload: row.enriched_payload,
    webhookAttempts: row.webhook_attempts,
    storeId: row.store_id,
    source: row.source,
    webhookLastResponse: row.webhook_last_response,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toStatusChange(row: StatusHistoryRow): OrderStatusChangeDto {
  return { status: row.to_status, from: row.from_status, at: row.changed_at, clientId: row.client_id, via: row.via };
}

function camelCase(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_match, character: string) => character.toUpperCase());
}

/** A row of any table as a response object: snake_case columns to camelCase, dates to RFC 3339 text. */
export function toCamelCaseRecord(row: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) record[camelCase(column)] = value instanceof Date ? value.toISOString() : value;
  return record;
}
