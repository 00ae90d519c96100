import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

const BATCH = 1000;
const EVERY_MS = 60 * 60 * 1000;
const FIRST_AFTER_MS = 60 * 1000;

/**
 * Keeps the webhook delivery log to WEBHOOK_DELIVERY_RETENTION_DAYS: every hour, rows older
 * than that are deleted in batches of 1,000 (short transactions, no long lock on the table),
 * by whichever instance takes the `webhookDeliveryPrune` lock; the others skip that round.
 */
@Injectable()
export class WebhookDeliveryRetention implements OnApplicationBootstrap {
  private readonly job: Job<number>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
    jobs: JobRunner,
  ) {
    this.job = jobs.define({
      name: 'webhook-delivery-prune',
      lock: 'webhookDeliveryPrune',
      firstDelayMs: FIRST_AFTER_MS,
      next: EVERY_MS,
      run: async (round) => {
        const days = this.config.webhookDeliveryRetentionDays;
        let deleted = 0;
        for (;;) {
          const batch = await this.deliveries.pruneBatch(days, BATCH);
          deleted += batch;
          if (batch < BATCH || round.stopping) break;
          round.progress({ deleted, olderThanDays: days }, 'pruning the webhook delivery log');
        }
        if (deleted > 0) round.log.info({ deleted, olderThanDays: days }, 'pruned the webhook delivery log');
        return deleted;
      },
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.webhookDeliveryRetentionDays > 0) this.job.start();
  }

  /** Deletes the rows past retention; the number deleted, or undefined when another instance holds the lock. */
  async prune(): Promise<number | undefined> {
    if (this.config.webhookDeliveryRetentionDays === 0) return 0;
    const outcome = await this.job.runNow();
    if (outcome.status === 'failed') throw outcome.error;
    return outcome.status === 'done' ? outcome.result : undefined;
  }
}
