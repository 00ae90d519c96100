import { orderNotEnriched } from './dto/redelivery-errors.dto.js';
import { Inject, Injectable } from '@nestjs/common';
import type { AuditChanges, AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { isUuid } from '../common/http/uuid.pipe.js';
import { EnrichmentService, withJsonMember } from '../enrichment/enrichment.service.js';
import type { NfeModel } from '../fiscal-documents/nfe/nfe-layout.js';
import type { OrderProfile } from '../enrichment/dto/order-profile.dto.js';
import { INTAKE_STATUSES, isTerminal } from '../orders/order-status.js';
import { OrderForwardingRepository } from '../orders/order-forwarding.repository.js';
import type { Actor } from '../common/actor.js';
import type { ForwardResponseDto } from './dto/forwarding.dto.js';
import { nextRetryDelay, parseRetryAfter } from './retry-policy.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { type DeliveryResult, WebhookDeliveryService, type WebhookMessage } from './webhook-delivery.service.js';
import { canonicalJson, webhookIdOfCanonical } from './webhook-signature.js';

/** The pending job of a forward in flight falls due this long after the send's own timeout. */
const IN_FLIGHT_MARGIN_MS = 5_000;

/** `/enrich-order-forward` and the admin's redeliver. */
@Injectable()
export class ForwardingService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly enrichment: EnrichmentService,
    private readonly delivery: WebhookDeliveryService,
    private readonly repository: WebhookDeliveriesRepository,
    private readonly orders: OrderForwardingRepository,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Enriches and stores the order exactly as `/enrich-order` does (a 422 stays a 422 and
   * nothing is sent), then POSTs the enriched payload alone. A failure is answered 502
   * and, with WEBHOOK_RETRY_ENABLED, queued for the retry schedule.
   */
  async forward(body: unknown, actor: Actor, rawBody?: Buffer, profile?: OrderProfile, nfe?: NfeModel): Promise<ForwardResponseDto> {
    this.requireWebhook();
    const inFlightMs = this.config.orderWebhookTimeoutMs + IN_FLIGHT_MARGIN_MS;
    // With retries, the order's own upsert writes its outbox, durable before the first byte leaves: if this process dies
    // while the receiver holds the message, the retry worker sends the order's stored payload under the same webhook-id
    // once the outbox is due ("The forward's outbox" in docs/webhook-retries.md).
    const enrichment = await this.enrichment.enrich(body, actor, {
      rawBody,
      profile,
      nfe,
      webhookOutboxInMs: this.config.webhookRetryEnabled ? inFlightMs : undefined,
    });
    const order = enrichment.order!;
    // With `nfe`, this send carries the items beside the payload; the stored payload, which retries send, has none.
    const message: WebhookMessage = {
      orderDbId: order.id,
      webhookId: order.webhookId!,
      body: withJsonMember(enrichment.enrichedJson, enrichment.nfeMember),
    };
    const result = await this.delivery.deliver(message, 'forward', actor, { cancelPendingRetry: true });
    const label = `Order ${enrichment.orderId}`;
    if (result.delivered) {
      const answer: ForwardResponseDto = { message: `${label} enriched, stored and forwarded: ${answered(result)}` };
      return enrichment.nfeMember === undefined ? answer : { ...answer, ...(JSON.parse(`{${enrichment.nfeMember}}`) as object) };
    }

    // An order the store already works (ACCEPTED and later) is not chased by retries, nor a message a newer send of the
    // order replaced while this one was under way (that send owns the order's retry job).
    const superseded = result.current === false;
    const retryable =
      this.config.webhookRetryEnabled && !superseded && result.status !== undefined && INTAKE_STATUSES.includes(result.status);
    const retryInMs = retryable
      ? nextRetryDelay(0, this.config.webhookRetrySchedule, parseRetryAfter(result.retryAfter, Date.now()))
      : undefined;
    if (retryInMs !== undefined) await this.repository.scheduleRetry(message.orderDbId, message.webhookId, retryInMs);
    else if (this.config.webhookRetryEnabled) await this.repository.dropPendingJob(message.orderDbId, message.webhookId);
    const next = superseded
      ? 'a newer send of the order replaced this one meanwhile, so it is not retried'
      : retryInMs === undefined
        ? 'it is not retried automatically'
        : `it will be retried in ${describeDelay(retryInMs)}`;
    throw new ApiError(
      ErrorCode.WEBHOOK_DELIVERY_FAILED,
      `${label} was enriched and stored${superseded ? '' : ` as ${result.status ?? 'FORWARD_FAILED'}`}, but the order webhook did not accept it: ${answered(result)}; ${next}`,
    );
  }

  /**
   * Sends the stored enriched payload again (same webhook-id as its earlier attempts). A
   * success also cancels the order's pending retry; a failure leaves the retry schedule as it is.
   */
  async redeliver(idOrOrderId: string, actor: Actor, audit: AuditContext): Promise<ForwardResponseDto> {
    this.requireWebhook();
    const order = await this.orders.findForRedelivery(idOrOrderId, isUuid(idOrOrderId));
    if (!order) throw ApiError.notFound(`Order ${idOrOrderId} not found`);
    if (!order.enrichedPayload) {
      throw orderNotEnriched(order.orderId, order.status);
    }
    // Re-serialized from jsonb, so the key order differs from the forward's anyway. An order stored without its
    // webhook-id hashes that canonical JSON for it: one serialization for both.
    const json = canonicalJson(order.enrichedPayload);
    const message: WebhookMessage = { orderDbId: order.id, webhookId: order.webhookId ?? webhookIdOfCanonical(order.id, json), body: json };
    const result = await this.delivery.deliver(message, 'redeliver', actor, {
      cancelPendingRetry: true,
      onlyIfPayload: order.webhookId === null ? json : undefined,
      // The attempt (counter, status, delivery log) and its event commit together, after the send.
      withAttempt: async (manager, recorded) => {
        if (!recorded) return;
        const changes: AuditChanges = { webhookAttempts: { before: recorded.attempt - 1, after: recorded.attempt } };
        if (recorded.status !== order.status) changes.status = { before: order.status, after: recorded.status };
        // A closed order's receiver may act on it again (a second invoice, a second delivery): the event says so by its action.
        const action = isTerminal(recorded.status) ? 'redeliver-closed' : 'redeliver';
        await this.audit.record(manager, audit, { action, target: { type: 'order', id: order.orderId }, changes });
      },
    });
    if (result.delivered)
      return {
        message: `Order ${order.orderId} redelivered: ${answered(result)}`,
        ...(result.statusCode === null ? {} : { webhookStatusCode: result.statusCode }),
        ...(result.attempt === undefined ? {} : { attempt: result.attempt }),
      };
    throw new ApiError(
      ErrorCode.WEBHOOK_DELIVERY_FAILED,
      `Order ${order.orderId} was not accepted by the order webhook: ${answered(result)}`,
    );
  }

  private requireWebhook(): void {
    if (!this.delivery.url) {
      throw new ApiError(
        ErrorCode.WEBHOOK_NOT_CONFIGURED,
        'No order webhook is configured (ORDER_WEBHOOK_URL); nothing was stored or sent',
      );
    }
  }
}

function answered(result: DeliveryResult): string {
  const attempt = result.attempt === undefined ? '' : ` (attempt ${result.attempt})`;
  if (result.delivered) return `the webhook answered ${result.statusCode}${attempt}`;
  return `${result.error ?? 'the delivery failed'}${attempt}`;
}

function describeDelay(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  if (ms < 120_000) return `${Math.round(ms / 1000)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
