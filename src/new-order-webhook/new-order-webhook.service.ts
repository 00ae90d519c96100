import { Injectable } from '@nestjs/common';
import { mayTouchStore, type Actor } from '../common/actor.js';
import { storedUnderAnotherStore, storeNotAllowed } from '../orders/dto/store-errors.dto.js';
import { ApiError } from '../common/errors/api-error.js';
import { SERVICE_OWNED_STATUSES } from '../orders/order-status.js';
import { OrdersRepository } from '../orders/orders.repository.js';
import { OrderIdTakeover } from '../orders/order-id-takeover.js';
import { StatusAliasesService } from '../status-aliases/status-aliases.service.js';
import type { ReceivedBody } from '../common/http/open-body.js';
import type { NewOrderRequestDto } from './dto/new-order.dto.js';
import { toNewOrder } from './dto/new-order.mapper.js';
import { PersonalDataKeys } from '../personal-data/personal-data-keys.js';

export const NEW_ORDER_SOURCE = 'platform-webhook';

@Injectable()
export class NewOrderWebhookService {
  constructor(
    private readonly orders: OrdersRepository,
    private readonly aliases: StatusAliasesService,
    private readonly takeover: OrderIdTakeover,
    private readonly personalData: PersonalDataKeys,
  ) {}

  /**
   * Whether the order was new (false for a repeated delivery). A sent `status` that is an order
   * status or an alias is the order's first status, its label kept in the
   * history; anything else leaves it RECEIVED. A status only the service gives (ENRICHED, ENRICHMENT_FAILED, FORWARDED,
   * FORWARD_FAILED) is a 400. A store-limited client gets 403 for another store's
   * order, and for a repeat of an `orderId` stored under another store ("Clients limited to stores"
   * in docs/api-decisions.md).
   */
  async receive(body: ReceivedBody<NewOrderRequestDto>, actor: Actor): Promise<boolean> {
    const order = toNewOrder(body);
    if (!mayTouchStore(actor, order.storeId)) throw storeNotAllowed(order.orderId, order.storeId);
    const status = order.label ? ((await this.aliases.resolve(order.label)) ?? 'RECEIVED') : 'RECEIVED';
    // "New-order webhook" in docs/api-decisions.md: an order sent as ENRICHED would look taxed and forwarded without either.
    if (SERVICE_OWNED_STATUSES.includes(status)) {
      throw ApiError.badRequest(
        `status "${order.label}" (${status}) is given by this service only, after enrichment or forwarding: send RECEIVED or a fulfillment status`,
        'status',
      );
    }
    const insert = {
      orderId: order.orderId,
      status,
      payload: order.payload,
      storeId: order.storeId,
      source: NEW_ORDER_SOURCE,
      label: order.label,
      personalDataKeys: this.personalData.keysTextOf(order.payload),
    };
    const inserted = await this.orders.insertIfAbsent(insert, actor);
    // The platform's order takes an id that a store-limited client stored first under another store (docs/access.md).
    if (!inserted && !actor.stores) {
      const taken = await this.takeover.take(order.orderId, order.storeId, actor, (manager) =>
        this.orders.insertIfAbsent(insert, actor, manager),
      );
      if (taken) return true;
    }
    // Only a repeat reads the stored order again, and only for a store-limited client.
    if (!inserted && actor.stores) {
      const stored = await this.orders.storedState(order.orderId);
      if (stored && !mayTouchStore(actor, stored.storeId)) throw storedUnderAnotherStore(order.orderId);
    }
    return inserted;
  }
}
