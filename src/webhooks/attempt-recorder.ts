import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/actor.js';
import type { RecordedAttempt } from '../orders/order-forwarding.repository.js';
import { type AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

/** At most this many attempts per statement (arrays of this length, a few kilobytes of headers and answers). */
const MAX_BATCH = 64;

interface Waiting {
  record: AttemptRecord;
  actor: Actor;
  resolve: (recorded: RecordedAttempt | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Records the attempts of forwards the way PostgreSQL commits (group commit): one statement at a time, holding the
 * attempts that finish while it runs, which then go together in the next one. An attempt that finds no statement
 * under way is written at the end of the current turn of the event loop, so a quiet service waits no longer than
 * before; under load, one statement and one commit serve many forwards. Each forward still answers only once its
 * attempt is committed. See "Recording the outcome" in docs/webhook-retries.md for what a crash meanwhile means.
 */
@Injectable()
export class AttemptRecorder {
  private waiting: Waiting[] = [];
  private writing = false;

  constructor(private readonly repository: WebhookDeliveriesRepository) {}

  record(record: AttemptRecord, actor: Actor): Promise<RecordedAttempt | undefined> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ record, actor, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        setImmediate(() => void this.writeAll());
      }
    });
  }

  private async writeAll(): Promise<void> {
    try {
      while (this.waiting.length > 0) await this.write(this.nextBatch());
    } finally {
      this.writing = false;
    }
  }

  /** Up to MAX_BATCH waiting attempts, one per order (a second attempt on an order waits for the next statement). */
  private nextBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const orders = new Set<string>();
    const later: Waiting[] = [];
    for (const waiting of this.waiting) {
      if (batch.length < MAX_BATCH && !orders.has(waiting.record.orderDbId)) {
        orders.add(waiting.record.orderDbId);
        batch.push(waiting);
      } else {
        later.push(waiting);
      }
    }
    this.waiting = later;
    return batch;
  }

  private async write(batch: Waiting[]): Promise<void> {
    try {
      const recorded = await this.repository.recordAttempts(
        batch.map((waiting) => waiting.record),
        batch.map((waiting) => waiting.actor),
      );
      batch.forEach((waiting, index) => waiting.resolve(recorded[index]));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // A batch fails as a whole (a deadlock with another instance's batch, a bad row): each attempt then goes alone,
      // so that one attempt's failure is its forward's only.
      await Promise.all(
        batch.map((waiting) => this.repository.recordAttempt(waiting.record, waiting.actor).then(waiting.resolve, waiting.reject)),
      );
    }
  }
}
