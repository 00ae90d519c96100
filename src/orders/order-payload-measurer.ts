import { type BeforeApplicationShutdown, Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { OrdersRepository } from './orders.repository.js';

/**
 * Orders measured per statement: a short transaction, so writers of those orders wait at most a
 * moment. A batch that fails (an order of tens of megabytes can take seconds, a batch of them past
 * the statement timeout) is tried again at half the size, down to one order; success doubles it back.
 */
export const PAYLOAD_MEASURE_BATCH = 500;
const PAUSE_BETWEEN_BATCHES_MS = 100;
const RETRY_AFTER_MS = 30_000;
const PROGRESS_EVERY_MS = 10_000;

/**
 * Measures, after start, the orders stored before `orders.payload_bytes` existed (migration
 * OrderPayloadBytes1763830000000), in batches, until none is left: the list and detail then skip
 * an oversized order without converting it. Every instance may run it; `SKIP LOCKED` keeps them
 * (and the service's own writers) from waiting on each other. Nothing to do is one indexed count.
 */
@Injectable()
export class OrderPayloadMeasurer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly orders: OrdersRepository,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    this.schedule(0);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** Measures every order still unmeasured; how many this call measured. */
  async measureAll(): Promise<number> {
    const log = { context: 'OrderPayloadMeasurer' };
    const unmeasured = await this.orders.unmeasuredPayloads();
    if (unmeasured === 0) return 0;
    this.logger.info({ ...log, unmeasured }, 'measuring the size of orders stored before payload_bytes');
    let measured = 0;
    let lastProgress = Date.now();
    let size = PAYLOAD_MEASURE_BATCH;
    for (;;) {
      let batch: number;
      try {
        batch = await this.orders.measurePayloads(size);
        size = Math.min(PAYLOAD_MEASURE_BATCH, size * 2);
      } catch (error) {
        if (size === 1) throw error;
        size = Math.ceil(size / 2);
        this.logger.warn({ ...log, err: error, size }, 'a batch of stored orders could not be measured; trying smaller batches');
        continue;
      }
      measured += batch;
      // An empty batch: done, or every remaining order is held by a writer (whose write measures it).
      if (batch === 0 || this.stopped) break;
      if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
        lastProgress = Date.now();
        this.logger.info({ ...log, measured, of: unmeasured }, 'measuring stored orders');
      }
      await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_BATCHES_MS));
    }
    this.logger.info({ ...log, measured, of: unmeasured }, this.stopped ? 'stopped measuring stored orders' : 'stored orders measured');
    return measured;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.measureAll()
        .then(async () => {
          // Orders a writer held during the last batch: another pass later.
          if (!this.stopped && (await this.orders.unmeasuredPayloads()) > 0) this.schedule(RETRY_AFTER_MS);
        })
        .catch((error: unknown) => {
          this.logger.warn({ context: 'OrderPayloadMeasurer', err: error }, 'could not measure stored orders; trying again later');
          this.schedule(RETRY_AFTER_MS);
        })
        .finally(() => {
          this.running = undefined;
        });
    }, delayMs);
    this.timer.unref();
  }
}
