import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { INTAKE_STATUSES } from '../orders/order-status.js';
import type { Actor } from '../common/actor.js';
import type { JobRound } from '../database/jobs/job.js';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
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
export class WebhookRetryWorker implements OnApplicationBootstrap {
  private readonly logger: Logger;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  /** Sends under way, for the free slots of the next claim (the job runner waits for them on shutdown). */
  private readonly inFlight = new Set<Promise<void>>();
  /** The last claim took as many jobs as it could: more are due, claim again as slots free up. */
  private backlog = false;
  private readonly poll: Job<void>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WebhookDeliveriesRepository,
    private readonly delivery: WebhookDeliveryService,
    jobs: JobRunner,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ context: 'WebhookRetryWorker' });
    this.pollMs = pollIntervalFor(config.webhookRetrySchedule);
    this.leaseMs = config.orderWebhookTimeoutMs + LEASE_MARGIN_MS;
    this.concurrency = config.webhookRetryConcurrency;
    // No lock: every instance claims, and `FOR UPDATE SKIP LOCKED` hands each job to one of them.
    this.poll = jobs.define({
      name: 'webhook-retry-poll',
      firstDelayMs: 0,
      next: (outcome) =>
        outcome.status === 'failed'
          ? Math.min(this.pollMs * 2 ** outcome.failuresInARow, MAX_ERROR_BACKOFF_MS)
          : // With a backlog, a finishing send wakes the next claim (see `track`).
            this.backlog
            ? undefined
            : this.pollMs,
      run: (round) => this.claim(round),
    });
  }

  onApplicationBootstrap(): void {
    if (!this.config.webhookRetryEnabled || !this.config.orderWebhookUrl) return;
    this.logger.info(
      { pollMs: this.pollMs, concurrency: this.concurrency, schedule: this.config.webhookRetrySchedule },
      'webhook retry worker started',
    );
    this.poll.start();
  }

  /**
   * Claims as many due jobs as there are free slots (WEBHOOK_RETRY_CONCURRENCY) and starts sending
   * them. A full claim means more are due: the next claim comes as soon as half the slots are free
   * again, not after the poll interval, so a backlog drains as fast as the receiver answers.
   */
  private async claim(round: JobRound): Promise<void> {
    this.backlog = false;
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return;
    const jobs = await this.repository.claimDueJobs(free, this.leaseMs);
    this.backlog = jobs.length === free;
    for (const job of jobs) this.track(round, this.run(job));
  }

  private track(round: JobRound, work: Promise<void>): void {
    this.inFlight.add(work);
    round.keep(work);
    void work.finally(() => {
      this.inFlight.delete(work);
      if (this.backlog && this.inFlight.size <= this.concurrency / 2) {
        this.backlog = false;
        this.poll.wake();
      }
    });
  }

  private async run(job: ClaimedJob): Promise<void> {
    const log = { orderDbId: job.orderDbId, webhookId: job.webhookId, retry: job.retriesDone + 1 };
    try {
      const skip = !job.current
        ? 'the order has a newer payload'
        : job.body === null
          ? 'the order has no enriched payload'
          : job.delivered
            ? 'this payload was already delivered'
            : !job.orderStatus || !INTAKE_STATUSES.includes(job.orderStatus)
              ? `the order is ${job.orderStatus ?? 'gone'}`
              : undefined;
      if (skip || job.body === null) {
        await this.repository.finishJob(job);
        this.logger.info({ ...log, reason: skip }, 'webhook retry dropped');
        return;
      }

      const message = { ...job, body: job.body };
      const result = await this.delivery.deliver(message, 'retry', RETRY_ACTOR, { cancelPendingRetry: false, onlyIfPayload: job.body });
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
