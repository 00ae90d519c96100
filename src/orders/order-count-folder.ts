import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
import { OrdersRepository } from './orders.repository.js';

export const ORDER_COUNT_FOLD_INTERVAL_MS = 5_000;

/**
 * Every few seconds, moves the ±1 rows that the order trigger appends to
 * `order_count_delta` into the per-day totals of `order_count_day` and the per-hour totals of
 * `order_count_hour` (`fold_order_counts()`, migrations OrderListIndexes1763760000000 and
 * DashboardStats1763820000000). Counts read both tables, so they are exact
 * whether or not a fold has run; folding only keeps the delta table short. With several
 * instances, one folds and the others skip: the function takes the `orderCountFold` advisory
 * lock itself (a transaction try-lock), so the job declares none.
 */
@Injectable()
export class OrderCountFolder implements OnApplicationBootstrap {
  private readonly job: Job<number>;

  constructor(
    private readonly orders: OrdersRepository,
    jobs: JobRunner,
  ) {
    this.job = jobs.define({
      name: 'order-count-fold',
      firstDelayMs: ORDER_COUNT_FOLD_INTERVAL_MS,
      next: ORDER_COUNT_FOLD_INTERVAL_MS,
      run: () => this.orders.foldCounts(),
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** One fold, after the one under way if any; how many delta rows were moved (0 when another instance was folding). */
  async fold(): Promise<number> {
    const outcome = await this.job.runNow();
    return outcome.status === 'done' ? outcome.result : 0;
  }
}
