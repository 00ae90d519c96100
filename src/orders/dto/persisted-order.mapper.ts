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
