import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { OrdersRepository } from './orders.repository.js';

export const ORDER_COUNT_FOLD_INTERVAL_MS = 5_000;

/**
 * Every few seconds, moves the ±1 rows that the order trigger appends to
 * `order_count_delta` into the per-day totals of `order_count_day` and the per-hour totals of
 * `order_count_hour` (`fold_order_counts()`, migrations OrderListIndexes1763760000000 and
 * DashboardStats1763820000000). Counts read both tables, so they are exact
 * whether or not a fold has run; folding only keeps the delta table short. With several
 * instances, one folds and the others skip (advisory lock in the function).
 */
@Injectable()
export class OrderCountFolder implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly orders: OrdersRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.fold(), ORDER_COUNT_FOLD_INTERVAL_MS);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One fold; returns how many delta rows were moved (0 when another instance is folding). */
  async fold(): Promise<number> {
    if (this.running) return 0;
    let moved = 0;
    this.running = this.orders
      .foldCounts()
      .then((folded) => {
        moved = folded;
      })
      .catch((error: unknown) => this.logger.warn({ context: 'OrderCountFolder', err: error }, 'could not fold the order counters'))
      .finally(() => {
        this.running = undefined;
      });
    await this.running;
    return moved;
  }
}
