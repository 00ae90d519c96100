import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

/** Arbitrary, fixed: the advisory lock that makes one instance at a time prune. */
const PRUNE_LOCK_KEY = 7_318_004_211;
const BATCH = 1000;
const EVERY_MS = 60 * 60 * 1000;
const FIRST_AFTER_MS = 60 * 1000;

/**
 * Keeps the webhook delivery log to WEBHOOK_DELIVERY_RETENTION_DAYS: every hour, rows older
 * than that are deleted in batches of 1,000 (short transactions, no long lock on the table),
 * by whichever instance takes the advisory lock; the others skip that round.
 */
@Injectable()
export class WebhookDeliveryRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private readonly logger: Logger;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveriesRepository,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ context: 'WebhookDeliveryRetention' });
  }

  onApplicationBootstrap(): void {
    if (this.config.webhookDeliveryRetentionDays === 0) return;
    const run = (delay: number) => {
      this.timer = setTimeout(() => {
        void this.prune()
          .catch((error: unknown) => this.logger.warn({ err: error }, 'could not prune the webhook delivery log'))
          .finally(() => run(EVERY_MS));
      }, delay);
      this.timer.unref();
    };
    run(FIRST_AFTER_MS);
  }

  onModuleDestroy(): void {
    clearTimeout(this.timer);
  }

  /** Deletes the rows past retention; the number deleted, or undefined when another instance holds the lock. */
  async prune(): Promise<number | undefined> {
    const days = this.config.webhookDeliveryRetentionDays;
    if (days === 0) return 0;
    let deleted = 0;
    for (;;) {
      const batch = await this.deliveries.pruneBatch(PRUNE_LOCK_KEY, days, BATCH);
      if (batch === undefined) return deleted === 0 ? undefined : deleted;
      deleted += batch;
      if (batch < BATCH) break;
    }
    if (deleted > 0) this.logger.info({ deleted, olderThanDays: days }, 'pruned the webhook delivery log');
    return deleted;
  }
}
