import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';

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
    private readonly dataSource: DataSource,
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
      const batch = await this.dataSource.transaction(async (manager) => {
        const [{ locked }] = (await manager.query('SELECT pg_try_advisory_xact_lock($1) AS locked', [PRUNE_LOCK_KEY])) as Array<{
          locked: boolean;
        }>;
        if (!locked) return undefined;
        const rows = (await manager.query(
          `DELETE FROM webhook_delivery WHERE id IN (
             SELECT id FROM webhook_delivery WHERE attempted_at < now() - $1 * interval '1 day' ORDER BY attempted_at LIMIT $2
           ) RETURNING id`,
          [days, BATCH],
        )) as [unknown[], number];
        return rows[1];
      });
      if (batch === undefined) return deleted === 0 ? undefined : deleted;
      deleted += batch;
      if (batch < BATCH) break;
    }
    if (deleted > 0) this.logger.info({ deleted, olderThanDays: days }, 'pruned the webhook delivery log');
    return deleted;
  }
}
