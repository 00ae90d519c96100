import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { StatusAliasesService } from '../status-aliases/status-aliases.service.js';
import type { ReceivedBody } from '../common/http/open-body.js';
import type { NewOrderRequestDto } from './dto/new-order.dto.js';
import { toNewOrder } from './dto/new-order.mapper.js';

export const NEW_ORDER_SOURCE = 'platform-webhook';

/**
 * Stores the platform's new order once: the platform retries, so the insert is one
 * statement that does nothing when the `order_id` is already stored (whatever its status
 * is by then: a repeat never resets an order that moved on).
 */
const INSERT_NEW_ORDER_SQL = `
  INSERT INTO orders (order_id, status, payload, store_id, source, last_changed_by, last_changed_via)
  SELECT $1, $2, $3::jsonb, $4, $5, $6, $7
  FROM (SELECT set_config('app.status_label', $8, true), set_config('app.status_extra', '', true)) AS note
  ON CONFLICT (order_id) DO NOTHING
  RETURNING id`;

@Injectable()
export class NewOrderWebhookService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly aliases: StatusAliasesService,
  ) {}

  /**
   * Whether the order was new (false for a repeated delivery). A sent `status` that is an order
   * status or an alias (contract §7) is the order's first status, its label kept in the
   * history; anything else leaves it RECEIVED.
   */
  async receive(body: ReceivedBody<NewOrderRequestDto>, actor: Actor): Promise<boolean> {
    const order = toNewOrder(body);
    const status = order.label ? ((await this.aliases.resolve(order.label)) ?? 'RECEIVED') : 'RECEIVED';
    const rows = (await this.dataSource.query(INSERT_NEW_ORDER_SQL, [
      order.orderId,
      status,
      JSON.stringify(order.payload),
      order.storeId,
      NEW_ORDER_SOURCE,
      actor.clientId,
      actor.via,
      order.label ?? '',
    ])) as unknown[];
    return rows.length > 0;
  }
}
