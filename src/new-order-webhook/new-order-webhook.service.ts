import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/actor.js';
import { OrdersRepository } from '../orders/orders.repository.js';
import { StatusAliasesService } from '../status-aliases/status-aliases.service.js';
import type { ReceivedBody } from '../common/http/open-body.js';
import type { NewOrderRequestDto } from './dto/new-order.dto.js';
import { toNewOrder } from './dto/new-order.mapper.js';

export const NEW_ORDER_SOURCE = 'platform-webhook';

@Injectable()
export class NewOrderWebhookService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly aliases: StatusAliasesService,
  ) {}

  /**
   * Whether the order was new (false for a repeated delivery). A sent `status` that is an order
   * status or an alias is the order's first status, its label kept in the
   * history; anything else leaves it RECEIVED.
   */
  async receive(body: ReceivedBody<NewOrderRequestDto>, actor: Actor): Promise<boolean> {
    const order = toNewOrder(body);
    const status = order.label ? ((await this.aliases.resolve(order.label)) ?? 'RECEIVED') : 'RECEIVED';
    return this.orders.insertIfAbsent(
      { orderId: order.orderId, status, payload: order.payload, storeId: order.storeId, source: NEW_ORDER_SOURCE, label: order.label },
      actor,
    );
  }
}
