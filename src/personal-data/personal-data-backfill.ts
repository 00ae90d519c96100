import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { OrdersRepository } from '../orders/orders.repository.js';
import { PersonalDataKeys } from './personal-data-keys.js';

const BATCH = 500;
const FIRST_AFTER_MS = 30 * 1000;
const RETRY_AFTER_MS = 10 * 1000;

/**
 * Fills the personal-data lookup keys of the orders stored before they were kept (`personal_data_keys` null), 500 per
 * transaction, with progress in the log, by whichever instance takes the `personalDataBackfill` lock. Resumable: a
 * stopped or crashed round leaves the rest null, and the next start goes on from there. Once none is left it waits
 * (nothing stores an order without keys). See docs/personal-data.md, "Find and copy".
 */
@Injectable()
export class PersonalDataBackfill implements OnApplicationBootstrap {
  private readonly job: Job<number>;

  constructor(
    private readonly orders: OrdersRepository,
    private readonly keys: PersonalDataKeys,
    private readonly transactions: TransactionRunner,
    jobs: JobRunner,
  ) {
    this.job = jobs.define({
      name: 'personal-data-backfill',
      lock: 'personalDataBackfill',
      firstDelayMs: FIRST_AFTER_MS,
      // Once a round finds nothing left it waits for good; after a failure or a skipped round it tries again.
      next: (outcome) => (outcome.status === 'done' && outcome.result === 0 ? undefined : RETRY_AFTER_MS),
      run: async (round) => {
        let filled = 0;
        for (;;) {
          const batch = await this.transactions.run((manager) =>
            this.orders.fillPersonalDataKeys(manager, BATCH, (payload) => this.keys.keysTextOf(payload)),
          );
          filled += batch;
          if (batch < BATCH || round.stopping) break;
          round.progress({ filled, left: await this.orders.unkeyedCount() }, 'filling personal-data lookup keys');
        }
        if (filled > 0) round.log.info({ filled }, 'filled personal-data lookup keys');
        return filled;
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** Fills what is left; how many, or undefined when another instance holds the lock. */
  async fill(): Promise<number | undefined> {
    const outcome = await this.job.runNow();
    if (outcome.status === 'failed') throw outcome.error;
    return outcome.status === 'done' ? outcome.result : undefined;
  }
}
