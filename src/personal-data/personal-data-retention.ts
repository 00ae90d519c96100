import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Counter } from 'prom-client';
import type { AuditContext } from '../audit/audit-event.types.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { OrdersRepository } from '../orders/orders.repository.js';
import { PersonalDataEraser } from './personal-data-eraser.js';

const BATCH = 500;
/**
 * Orders erased in one transaction: one commit and a few statements for all of them, instead of a commit and a few
 * statements per order, which bounded the job to a few hundred orders a second (docs/personal-data.md, "Retention").
 */
const ORDERS_PER_TRANSACTION = 100;
const EVERY_MS = 60 * 60 * 1000;
const FIRST_AFTER_MS = 3 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The job's audit actor: no person or client asked, the retention rule did. */
const RETENTION: AuditContext = {
  actor: { type: 'client', id: 'personal-data-retention', name: 'personal-data retention job' },
  requestId: null,
  address: null,
};

/**
 * Keeps customers' data to PERSONAL_DATA_RETENTION_DAYS (0 keeps it): every hour, the orders stored before that still
 * holding personal data are erased in batches of 500, oldest first, 100 orders per transaction, each order in every
 * copy and audited as an erasure request does (the fiscal record stays), by whichever instance takes the `personalDataRetention` lock; the others
 * skip that round. Counted in `personal_data_retention_erased_orders_total`. See docs/personal-data.md, "Retention".
 */
@Injectable()
export class PersonalDataRetention implements OnApplicationBootstrap {
  private readonly job: Job<number>;
  private readonly erased: Counter;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly orders: OrdersRepository,
    private readonly eraser: PersonalDataEraser,
    metrics: MetricsService,
    jobs: JobRunner,
  ) {
    this.erased = new Counter({
      name: 'personal_data_retention_erased_orders_total',
      help: 'Orders whose personal data the retention job erased (PERSONAL_DATA_RETENTION_DAYS)',
      registers: [metrics.registry],
    });
    this.job = jobs.define({
      name: 'personal-data-retention',
      lock: 'personalDataRetention',
      firstDelayMs: FIRST_AFTER_MS,
      next: EVERY_MS,
      run: async (round) => {
        const days = this.config.personalDataRetentionDays;
        const before = new Date(Date.now() - days * DAY_MS);
        let erased = 0;
        for (;;) {
          const ids = await this.orders.personalDataPastRetention(before, BATCH);
          for (let first = 0; first < ids.length && !round.stopping; first += ORDERS_PER_TRANSACTION) {
            const count = await this.eraser.eraseOrders(
              ids.slice(first, first + ORDERS_PER_TRANSACTION),
              `older than PERSONAL_DATA_RETENTION_DAYS (${days})`,
              RETENTION,
            );
            erased += count;
            this.erased.inc(count);
          }
          if (ids.length < BATCH || round.stopping) break;
          round.progress({ erased, olderThanDays: days }, 'erasing personal data past retention');
        }
        if (erased > 0) round.log.info({ erased, olderThanDays: days }, 'erased personal data past retention');
        return erased;
      },
    });
  }

  onApplicationBootstrap(): void {
    if (this.config.personalDataRetentionDays > 0) this.job.start();
  }

  /** Erases the orders past retention; how many, or undefined when another instance holds the lock. */
  async erasePastRetention(): Promise<number | undefined> {
    const outcome = await this.job.runNow();
    if (outcome.status === 'failed') throw outcome.error;
    return outcome.status === 'done' ? outcome.result : undefined;
  }
}
