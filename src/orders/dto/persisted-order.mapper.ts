import type { OrderStatus } from '../order-status.js';
import type { OrderStatusChangeDto } from './persisted-order.dto.js';

export interface StatusHistoryRow {
  to_status: OrderStatus;
  from_status: OrderStatus | null;
  changed_at: string;
  client_id: string | null;
  via: string | null;
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
