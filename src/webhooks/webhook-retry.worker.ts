import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { INTAKE_STATUSES } from '../orders/order-status.js';
import type { Actor } from '../common/actor.js';
import { nextRetryDelay, parseRetryAfter, pollIntervalFor } from './retry-policy.js';
import { type ClaimedJob, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';
import { WebhookDeliveryService } from './webhook-delivery.service.js';

const RETRY_ACTOR: Actor = { clientId: null, via: 'webhook retry' };
/** A claimed job is invisible to other instances this long beyond the attempt's own timeout (then it is taken over). */
const LEASE_MARGIN_MS = 60_000;
const MAX_ERROR_BACKOFF_MS = 10_000;

/**
 * Sends the due retries of failed forwards. The queue is the `webhook_retry_job` table:
 * every instance polls it and claims due rows with `FOR UPDATE SKIP LOCKED`, pushing their
 * `run_at` past the attempt's timeout, so one job is sent by one instance at a time. Jobs
 * are rows: they survive restarts. Off with WEBHOOK_RETRY_ENABLED=false (or without a webhook).
 */
@Injectable()
export class WebhookRetryWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private failures = 0;
  /** The last claim took as many jobs as it could: more are due, claim again as slots free up. */
  private backlog = false;
  private polling = false;
  private readonly concurrency: number;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WebhookDeliveriesRepository,
    private readonly delivery: WebhookDeliveryService,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ context: 'WebhookRetryWorker' });
    this.pollMs = pollIntervalFor(config.webhookRetrySchedule);
    this.leaseMs = config.orderWebhookTimeoutMs + LEASE_MARGIN_MS;
    this.concurrency = config.webhookRetryConcurrency;
  }

  onApplicationBootstrap(): void {
    if (!this.config.webhookRetryEnabled || !this.config.orderWebhookUrl) return;
    this.logger.info(
      { pollMs: this.pollMs, concurrency: this.concurrency, schedule: this.config.webhookRetrySchedule },
      'webhook retry worker started',
    );
    this.schedule(0);
  }

  /** Stops polling and waits for the attempts under way (each is bounded by ORDER_WEBHOOK_TIMEOUT_MS). */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.poll(), delayMs);
    this.timer.unref();
  }

  /**
   * Claims as many due jobs as there are free slots (WEBHOOK_RETRY_CONCURRENCY). A full claim
   * means more are due: the next claim comes as soon as half the slots are free again, not
   * after the poll interval, so a backlog drains as fast as the receiver answers.
   */
  private async poll(): Promise<void> {
    if (this.polling || this.stopped) return;
    this.polling = true;
    let next = this.pollMs;
    try {
      const free = this.concurrency - this.inFlight.size;
      if (free > 0) {
        const jobs = await this.repository.claimDueJobs(free, this.leaseMs);
        this.backlog = jobs.length === free;
        for (const job of jobs) this.track(this.run(job));
      }
      this.failures = 0;
    } catch (error) {
      this.backlog = false;
      this.failures += 1;
      next = Math.min(this.pollMs * 2 ** this.failures, MAX_ERROR_BACKOFF_MS);
      this.logger.warn({ err: error, retryInMs: next }, 'could not read the webhook retry queue');
    } finally {
      this.polling = false;
    }
    // With a backlog, a finishing job triggers the next claim (see `track`).
    if (!this.backlog) this.schedule(next);
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      if (this.backlog && this.inFlight.size <= this.concurrency / 2) {
        this.backlog = false;
        this.schedule(0);
      }
    });
  }

  private async run(job: ClaimedJob): Promise<void> {
    const log = { orderDbId: job.orderDbId, webhookId: job.webhookId, retry: job.retriesDone + 1 };
    try {
      const skip = !job.current
        ? 'the order has a newer payload'
        : job.delivered
          ? 'this payload was already delivered'
          : !job.orderStatus || !INTAKE_STATUSES.includes(job.orderStatus)
            ? `the order is ${job.orderStatus ?? 'gone'}`
            : undefined;
      if (skip) {
        await this.repository.finishJob(job);
        this.logger.info({ ...log, reason: skip }, 'webhook retry dropped');
        return;
      }

      const result = await this.delivery.deliver(job, 'retry', RETRY_ACTOR, { cancelPendingRetry: false, onlyIfPayload: job.body });
      if (result.delivered) {
        await this.repository.finishJob(job);
        return;
      }
      const retriesDone = job.retriesDone + 1;
      const delay = nextRetryDelay(retriesDone, this.config.webhookRetrySchedule, parseRetryAfter(result.retryAfter, Date.now()));
      if (delay === undefined) {
        await this.repository.finishJob(job);
        this.logger.warn(
          { ...log, attempt: result.attempt },
          'webhook retries exhausted; the order stays FORWARD_FAILED until redelivered',
        );
      } else {
        await this.repository.rescheduleJob(job, retriesDone, delay);
      }
    } catch (error) {
      // The claim's lease runs out and another poll takes the job again.
      this.logger.error({ ...log, err: error }, 'webhook retry failed unexpectedly');
    }
  }
}
