import type { KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import type { RecordedAttempt } from '../orders/order-forwarding.repository.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import type { OrderStatus } from '../orders/order-status.js';
import type { Actor } from '../common/actor.js';
import type { DeliveryTrigger } from '../orders/dto/persisted-order.dto.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { type AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookMetrics } from './webhook-metrics.js';
import { WebhookSender, type WebhookAnswer } from './webhook-sender.js';
import { signingKey } from '../config/webhook-secret.js';
import { webhookHeaders } from './webhook-signature.js';

/** One enriched payload of one order, as it goes to the webhook. */
export interface WebhookMessage {
  orderDbId: string;
  webhookId: string;
  /** The exact bytes POSTed: the enriched payload alone. */
  body: string;
}

export interface DeliveryResult extends WebhookAnswer {
  delivered: boolean;
  /** The order's webhookAttempts after this attempt; undefined when the order was deleted meanwhile. */
  attempt: number | undefined;
  /** The order's status after this attempt. */
  status: OrderStatus | undefined;
  /** Whether the message was still the order's current one (false: a newer send of the order replaced it meanwhile). */
  current: boolean | undefined;
}

/** Makes one attempt: signs, sends, then counts and logs it on the order in one statement. */
@Injectable()
export class WebhookDeliveryService {
  private readonly key: KeyObject | undefined;
  private readonly shownUrl: string | undefined;
  private readonly logger: Logger;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sender: WebhookSender,
    private readonly repository: WebhookDeliveriesRepository,
    private readonly recorder: AttemptRecorder,
    private readonly metrics: WebhookMetrics,
    private readonly transactions: TransactionRunner,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.key = config.orderWebhookSecret ? signingKey(config.orderWebhookSecret) : undefined;
    this.shownUrl = config.orderWebhookUrl ? displayUrl(config.orderWebhookUrl) : undefined;
    this.logger = logger.child({ context: 'WebhookDelivery' });
  }

  /** ORDER_WEBHOOK_URL, or undefined when forwarding is not configured. */
  get url(): string | undefined {
    return this.config.orderWebhookUrl;
  }

  async deliver(
    message: WebhookMessage,
    trigger: DeliveryTrigger,
    actor: Actor,
    options: {
      cancelPendingRetry: boolean;
      onlyIfPayload?: string;
      /** Writes that must commit with the recorded attempt (its audit event): then the attempt is recorded in a transaction. */
      withAttempt?: (manager: EntityManager, recorded: RecordedAttempt | undefined) => Promise<void>;
    },
  ): Promise<DeliveryResult> {
    const url = this.config.orderWebhookUrl;
    if (!url || !this.shownUrl) throw new Error('ORDER_WEBHOOK_URL is not set');
    const attemptedAt = new Date();
    const headers = webhookHeaders({
      webhookId: message.webhookId,
      timestamp: Math.floor(attemptedAt.getTime() / 1000),
      body: message.body,
      key: this.key,
    });
    const shownUrl = this.shownUrl;
    const answer = await this.sender.post(url, headers, message.body);
    const delivered = answer.outcome === 'delivered';
    const record: AttemptRecord = {
      orderDbId: message.orderDbId,
      trigger,
      webhookId: message.webhookId,
      url: shownUrl,
      requestHeaders: headers,
      lastResponse: {
        statusCode: answer.statusCode,
        body: answer.body,
        durationMs: answer.durationMs,
        error: answer.error,
        attemptedAt: attemptedAt.toISOString(),
      },
      status: delivered ? 'FORWARDED' : 'FORWARD_FAILED',
      onlyIfPayload: options.onlyIfPayload ?? null,
      cancelPendingRetry: delivered && options.cancelPendingRetry,
    };
    const { withAttempt } = options;
    // A forward's attempt goes with the other forwards finishing meanwhile (one statement); a retry's checks its payload.
    const recorded = withAttempt
      ? await this.transactions.run(async (manager) => {
          const attempt = await this.repository.recordAttempt(record, actor, manager);
          await withAttempt(manager, attempt);
          return attempt;
        })
      : record.onlyIfPayload === null
        ? await this.recorder.record(record, actor)
        : await this.repository.recordAttempt(record, actor);
    this.metrics.observe(trigger, answer.outcome, answer.durationMs);
    const logged = {
      orderDbId: message.orderDbId,
      webhookId: message.webhookId,
      trigger,
      attempt: recorded?.attempt,
      statusCode: answer.statusCode,
      durationMs: answer.durationMs,
    };
    // The forward's own request log already tells of a success; retries and redeliveries happen out of sight.
    if (delivered) this.logger[trigger === 'forward' ? 'debug' : 'info'](logged, 'order webhook delivery accepted');
    else this.logger.warn({ ...logged, outcome: answer.outcome, error: answer.error }, 'order webhook delivery failed');
    return { ...answer, delivered, attempt: recorded?.attempt, status: recorded?.status, current: recorded?.current };
  }
}

/** The target as shown in the delivery log: no user info, no query string (either may carry a token). */
export function displayUrl(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.toString();
}
