import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../orders/orders.repository.js';
import { readNewOrder } from './new-order.validation.js';

export const NEW_ORDER_SOURCE = 'platform-webhook';

/**
 * Stores the platform's new order once: the platform retries, so the insert is one
 * statement that does nothing when the `order_id` is already stored (whatever its status
 * is by then: a repeat never resets an order that moved on).
 */
const INSERT_NEW_ORDER_SQL = `
  INSERT INTO orders (order_id, status, payload, store_id, source, last_changed_by, last_changed_via)
  VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7)
  ON CONFLICT (order_id) DO NOTHING
  RETURNING id`;

@Injectable()
export class NewOrderWebhookService {
  constructor(private readonly dataSource: DataSource) {}

  /** Whether the order was new (false for a repeated delivery). */
  async receive(body: unknown, actor: Actor): Promise<boolean> {
    const order = readNewOrder(body);
    const rows = (await this.dataSource.query(INSERT_NEW_ORDER_SQL, [
      order.orderId,
      order.status,
      JSON.stringify(order.payload),
      order.storeId,
      NEW_ORDER_SOURCE,
      actor.clientId,
      actor.via,
    ])) as unknown[];
    return rows.length > 0;
  }
}
