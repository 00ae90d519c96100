import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
import { OrderTaxReportRepository } from './order-tax-report.repository.js';

/** How often the tax report's summaries catch up with the orders; what is newer is summed live by the report. */
export const ORDER_TAX_FOLD_INTERVAL_MS = 60_000;
/** New hours summed per round (a day: about 33,000 orders at a million a month); a backlog goes on at once. */
export const ORDER_TAX_FOLD_HOURS_PER_ROUND = 24;
/**
 * The watermark stays this far behind the clock as well as before the oldest transaction under way: a transaction
 * has its start time (its rows' `updated_at`) a moment before PostgreSQL lists it as under way.
 */
export const ORDER_TAX_FOLD_SETTLE_MS = 30_000;

/**
 * Keeps `order_tax_hour`, the tax report's hourly sums, up to date off the orders' write path: every minute
 * `fold_order_tax_hours()` (migration OrderTaxHours) sums again the hours whose orders changed since its watermark
 * and the hours completed since the last round, in one transaction, so a crash or a stop folds nothing twice. With
 * several instances, one folds and the others skip: the function takes the `orderTaxFold` advisory lock itself.
 * The report reads the summaries and sums live what they do not hold yet (docs/reports.md).
 */
@Injectable()
export class OrderTaxFolder implements OnApplicationBootstrap {
  private readonly job: Job<{ hours: number; caughtUp: boolean }>;

  constructor(
    private readonly taxes: OrderTaxReportRepository,
    jobs: JobRunner,
  ) {
    this.job = jobs.define({
      name: 'order-tax-fold',
      firstDelayMs: ORDER_TAX_FOLD_INTERVAL_MS,
      next: (outcome) => (outcome.status === 'done' && !outcome.result.caughtUp ? 0 : ORDER_TAX_FOLD_INTERVAL_MS),
      run: () => this.taxes.fold(ORDER_TAX_FOLD_HOURS_PER_ROUND, ORDER_TAX_FOLD_SETTLE_MS),
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** One round, after the one under way if any; the hours it summed (0 when another instance was folding). */
  async fold(): Promise<{ hours: number; caughtUp: boolean }> {
    const outcome = await this.job.runNow();
    if (outcome.status === 'failed') throw outcome.error as Error;
    return outcome.status === 'done' ? outcome.result : { hours: 0, caughtUp: false };
  }
}
