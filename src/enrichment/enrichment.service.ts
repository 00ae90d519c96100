import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as setImmediatePromise } from 'node:timers/promises';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import type { Actor, UpsertedOrder } from '../orders/orders.repository.js';
import { OrdersRepository } from '../orders/orders.repository.js';
import { productIdsOf, TAX_ENGINE, type TaxEngine, type TaxWarning } from '../tax-engine/tax-engine.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import { lineCountExceeds, receiveOrder } from './order-payload.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';

export interface Enrichment {
  orderId: string;
  /** Null on a dry run (nothing stored). */
  order: UpsertedOrder | null;
  enrichedPayload: Record<string, unknown>;
  /** The enriched payload as JSON text, serialized once for the database and the answer. */
  enrichedJson: string;
  warnings: TaxWarning[];
  /** Every warning, including those left out of the summary's list. */
  warningCount: number;
}

/** Orders with more lines than this yield to the event loop between the steps of their enrichment. */
const LARGE_ORDER_LINES = 200;

@Injectable()
export class EnrichmentService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lookup: FiscalLookupService,
    private readonly orders: OrdersRepository,
    @Inject(TAX_ENGINE) private readonly engine: TaxEngine,
  ) {}

  /**
   * Finds the store's fiscal group and the products' categories (two queries, in
   * parallel), computes the taxes and stores the order by `orderId`. Without a group
   * the order is still stored, as ENRICHMENT_FAILED, and the call answers 422.
   */
  async enrich(body: unknown, actor: Actor, options: { dryRun?: boolean; rawBody?: Buffer } = {}): Promise<Enrichment> {
    const received = receiveOrder(body);
    const { payload, orderId, storeId, source } = received;
    const large = lineCountExceeds(payload, LARGE_ORDER_LINES);
    if (large && lineCountExceeds(payload, this.config.orderMaxLines)) {
      throw new ApiError(
        ErrorCode.ORDER_TOO_LARGE,
        `The order has more than ${this.config.orderMaxLines} lines and selected modifiers (ORDER_MAX_LINES); nothing was computed or stored`,
        {
          details: [
            {
              field: `${received.wrapped ? 'payload.' : ''}order.products`,
              problem: `more than ${this.config.orderMaxLines} lines and selected modifiers`,
            },
          ],
        },
      );
    }
    // At the root, the received text is the payload's JSON (jsonb normalizes it the same way).
    const payloadJson = () => (!received.wrapped && options.rawBody ? options.rawBody.toString('utf8') : JSON.stringify(payload));
    const [group, categories] = await Promise.all([
      storeId ? this.lookup.groupByStore(storeId) : Promise.resolve(undefined),
      this.lookup.categoriesFor(productIdsOf(payload)),
    ]);

    if (!group) {
      if (!options.dryRun) {
        await this.orders.upsert(
          {
            orderId,
            status: 'ENRICHMENT_FAILED',
            payloadJson: payloadJson(),
            enrichedPayloadJson: null,
            storeId,
            source,
            fiscalGroupId: null,
          },
          actor,
        );
      }
      const message = storeId
        ? `No fiscal group holds store "${storeId}"; the order was stored as ENRICHMENT_FAILED`
        : 'The order has no store.id, so no fiscal group can be found; the order was stored as ENRICHMENT_FAILED';
      throw new ApiError(ErrorCode.FISCAL_GROUP_NOT_FOUND, options.dryRun ? message.replace(/; the order was stored.*$/, '') : message);
    }

    const result = this.engine.enrich({ group, categories, payload });
    // A large order is several milliseconds of work at each step: let other requests in between.
    if (large) await setImmediatePromise();
    const enrichedJson = JSON.stringify(result.payload);
    if (large) await setImmediatePromise();
    const order = options.dryRun
      ? null
      : await this.orders.upsert(
          {
            orderId,
            status: 'ENRICHED',
            payloadJson: payloadJson(),
            enrichedPayloadJson: enrichedJson,
            storeId,
            source,
            fiscalGroupId: group.id,
          },
          actor,
        );
    return { orderId, order, enrichedPayload: result.payload, enrichedJson, warnings: result.warnings, warningCount: result.warningCount };
  }
}
