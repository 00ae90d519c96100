import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { AuditEventsRepository } from './audit-events.repository.js';

const BATCH = 1000;
const EVERY_MS = 60 * 60 * 1000;
const FIRST_AFTER_MS = 2 * 60 * 1000;

/**
 * Keeps the audit log to AUDIT_RETENTION_DAYS: every hour, events older than that are deleted in
 * batches of 1,000, each in a short transaction that lets the append-only trigger through for itself
 * alone, by whichever instance takes the `auditRetention` lock; the others skip that round.
 */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap {
  private readonly job: Job<number>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly events: AuditEventsRepository,
    private readonly transactions: TransactionRunner,
    jobs: JobRunner,
  ) {
    this.job = jobs.define({
      name: 'audit-retention',
      lock: 'auditRetention',
      firstDelayMs: FIRST_AFTER_MS,
      next: EVERY_MS,
      run: async (round) => {
        const days = this.config.auditRetentionDays;
        let deleted = 0;
        for (;;) {
          const batch = await this.transactions.run((manager) => this.events.pruneBatch(manager, days, BATCH));
          deleted += batch;
          if (batch < BATCH || round.stopping) break;
          round.progress({ deleted, olderThanDays: days }, 'pruning the audit log');
        }
        if (deleted > 0) round.log.info({ deleted, olderThanDays: days }, 'pruned the audit log');
        return deleted;
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** Deletes the events past retention; the number deleted, or undefined when another instance holds the lock. */
  async prune(): Promise<number | undefined> {
    const outcome = await this.job.runNow();
    if (outcome.status === 'failed') throw outcome.error;
    return outcome.status === 'done' ? outcome.result : undefined;
  }
}
