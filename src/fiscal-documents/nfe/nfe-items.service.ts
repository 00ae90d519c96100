import { Injectable } from '@nestjs/common';
import type { Actor } from '../../common/actor.js';
import { ApiError } from '../../common/errors/api-error.js';
import { OrderReadsRepository } from '../../orders/order-reads.repository.js';
import { nfeNotIssuable } from './dto/nfe-errors.dto.js';
import { nfeItemsOf } from './nfe-items.js';
import type { NfeItems, NfeOptions, NfeOutcome } from './nfe-layout.js';
import { nfeItemsXml } from './nfe-xml.js';

/**
 * The NF-e/NFC-e items of a taxed order: from an enrichment just computed (the enrich routes' `?nfe=`), or from the
 * order's stored enrichment (`GET /orders/{orderId}/nfe`). Reads the enrichment, never changes it; owns no table.
 */
@Injectable()
export class NfeItemsService {
  constructor(private readonly orders: OrderReadsRepository) {}

  /** The items of an enriched payload, or why it cannot be printed. */
  itemsOf(enriched: Record<string, unknown>, options: NfeOptions): NfeOutcome {
    return nfeItemsOf(enriched, options);
  }

  /**
   * The items of a stored order. An order of a store the actor may not touch answers as an unknown one (404); an
   * order that cannot be printed, or was stored without taxes, is 422 NFE_NOT_ISSUABLE.
   */
  async forOrder(orderId: string, actor: Actor, options: NfeOptions): Promise<NfeItems> {
    const stored = await this.orders.enrichedPayloadOf(orderId, actor.stores ?? null);
    if (!stored) throw ApiError.notFound(`No order has orderId ${orderId}`);
    if (!stored.enrichedPayload) {
      throw nfeNotIssuable(orderId, [
        { field: 'taxSummary', problem: `the order is stored without taxes (status ${stored.status})`, code: 'NO_TAX' },
      ]);
    }
    const outcome = nfeItemsOf(stored.enrichedPayload, options);
    if (outcome.problems) throw nfeNotIssuable(orderId, outcome.problems);
    return outcome.items;
  }

  /** The items as the XML document `<NFeItens>`. */
  xml(items: NfeItems): string {
    return nfeItemsXml(items);
  }
}
