import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';

/** Intake counts as busy this long after its last order ended: the gap between two requests of one busy client. */
const QUIET_AFTER_MS = 50;

/**
 * Whether order intake is busy in this instance, so that background-like requests (the impact
 * preview) give it the CPU and the database first. Intake marks each order it takes; the preview,
 * between its batches, pauses for a multiple of the time its batch took while intake is busy, so
 * that it uses a bounded share of the machine then and runs at full speed otherwise.
 * See "Expensive requests have a lane" in docs/api-decisions.md.
 */
@Injectable()
export class IntakeActivity {
  private inFlight = 0;
  private lastEndedAt = Number.NEGATIVE_INFINITY;

  /** Marks one order taken until `work` settles. */
  async during<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
      this.lastEndedAt = performance.now();
    }
  }

  busy(now = performance.now()): boolean {
    return this.inFlight > 0 || now - this.lastEndedAt < QUIET_AFTER_MS;
  }

  /**
   * After a step of `stepMs` of other work: while intake is busy, waits `share` times that step (at most
   * `limitMs`), so that the other work takes about 1 / (1 + share) of the time intake is busy.
   * Answers the milliseconds waited.
   */
  async yieldTo(stepMs: number, share: number, limitMs: number): Promise<number> {
    if (!this.busy()) return 0;
    const waitMs = Math.min(Math.max(0, stepMs * share), Math.max(0, limitMs));
    if (waitMs > 0) await sleep(waitMs);
    return waitMs;
  }
}
