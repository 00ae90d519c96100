import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import type { JobRound } from '../database/jobs/job.js';
import { type Job, JobRunner } from '../database/jobs/job-runner.js';
import { OrdersRepository } from './orders.repository.js';

/**
 * Orders measured per statement: a short transaction, so writers of those orders wait at most a
 * moment. A batch that fails (an order of tens of megabytes can take seconds, a batch of them past
 * the statement timeout) is tried again at half the size, down to one order; success doubles it back.
 */
export const PAYLOAD_MEASURE_BATCH = 500;
const PAUSE_BETWEEN_BATCHES_MS = 100;
const RETRY_AFTER_MS = 30_000;

/**
 * Measures, after start, the orders stored before `orders.payload_bytes` existed (migration
 * OrderPayloadBytes1763830000000), in batches, until none is left: the list and detail then skip
 * an oversized order without converting it. Every instance may run it (no lock); `SKIP LOCKED` keeps
 * them (and the service's own writers) from waiting on each other. Nothing to do is one indexed count.
 */
@Injectable()
export class OrderPayloadMeasurer implements OnApplicationBootstrap {
  private readonly job: Job<number>;
  private readonly log: Logger;

  constructor(
    private readonly orders: OrdersRepository,
    jobs: JobRunner,
    @Inject(ROOT_LOGGER) logger: Logger,
  ) {
    this.log = logger.child({ context: 'OrderPayloadMeasurer' });
    this.job = jobs.define({
      name: 'order-payload-measure',
      firstDelayMs: 0,
      // Orders a writer held during the last batch, or a failed round: another pass later; none left: done for good.
      next: (outcome) => (outcome.status === 'done' && outcome.result === 0 ? undefined : RETRY_AFTER_MS),
      run: async (round) => {
        await this.measureAll(round);
        return round.stopping ? 0 : this.orders.unmeasuredPayloads();
      },
    });
  }

  onApplicationBootstrap(): void {
    this.job.start();
  }

  /** Measures every order still unmeasured (until the round's job stops); how many this call measured. */
  async measureAll(round?: Pick<JobRound, 'stopping' | 'progress'>): Promise<number> {
    const unmeasured = await this.orders.unmeasuredPayloads();
    if (unmeasured === 0) return 0;
    this.log.info({ unmeasured }, 'measuring the size of orders stored before payload_bytes');
    let measured = 0;
    let size = PAYLOAD_MEASURE_BATCH;
    for (;;) {
      let batch: number;
      try {
        batch = await this.orders.measurePayloads(size);
        size = Math.min(PAYLOAD_MEASURE_BATCH, size * 2);
      } catch (error) {
        if (size === 1) throw error;
        size = Math.ceil(size / 2);
        this.log.warn({ err: error, size }, 'a batch of stored orders could not be measured; trying smaller batches');
        continue;
      }
      measured += batch;
      // An empty batch: done, or every remaining order is held by a writer (whose write measures it).
      if (batch === 0 || round?.stopping) break;
      round?.progress({ measured, of: unmeasured }, 'measuring stored orders');
      await sleep(PAUSE_BETWEEN_BATCHES_MS);
    }
    this.log.info({ measured, of: unmeasured }, round?.stopping ? 'stopped measuring stored orders' : 'stored orders measured');
    return measured;
  }
}
