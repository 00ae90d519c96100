import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/actor.js';
import { GroupCommit } from '../database/group-commit.js';
import type { RecordedAttempt } from '../orders/order-forwarding.repository.js';
import { type AttemptRecord, WebhookDeliveriesRepository } from './webhook-deliveries.repository.js';

interface Attempt {
  record: AttemptRecord;
  actor: Actor;
}

/**
 * Records the attempts of forwards by group commit (`GroupCommit`): one statement at a time, holding the attempts that
 * finish while it runs, which then go together in the next one, at most 64 (arrays of this length, a few kilobytes of
 * headers and answers) and one per order (a second attempt on an order waits for the next statement). Each forward
 * still answers only once its attempt is committed. See "Recording the outcome" in docs/webhook-retries.md for what a
 * crash meanwhile means.
 */
@Injectable()
export class AttemptRecorder {
  private readonly attempts: GroupCommit<Attempt, RecordedAttempt | undefined>;

  constructor(repository: WebhookDeliveriesRepository) {
    this.attempts = new GroupCommit(
      { maxBatch: 64, maxInFlight: 1, keyOf: (attempt) => attempt.record.orderDbId },
      {
        writeBatch: (attempts) =>
          repository.recordAttempts(
            attempts.map((attempt) => attempt.record),
            attempts.map((attempt) => attempt.actor),
          ),
        writeOne: (attempt) => repository.recordAttempt(attempt.record, attempt.actor),
      },
    );
  }

  record(record: AttemptRecord, actor: Actor): Promise<RecordedAttempt | undefined> {
    return this.attempts.submit({ record, actor });
  }
}
