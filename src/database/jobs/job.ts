import type { Logger } from '../../common/logging/logger.js';
import type { AdvisoryLockName } from '../advisory-locks.js';

/**
 * How a round ended: `done` with the round's result, `failed` (logged and counted by the runner),
 * `skipped` when another instance held the job's lock, `stopped` when the job was already stopping.
 */
export type RoundOutcome<T> =
  | { status: 'done'; result: T }
  | { status: 'failed'; error: unknown; failuresInARow: number }
  | { status: 'skipped' }
  | { status: 'stopped' };

/** What a round's work gets from the runner. */
export interface JobRound {
  /** True once the job is stopping (shutdown): long work ends at its next step. */
  readonly stopping: boolean;
  /** A logger naming the job. */
  readonly log: Logger;
  /** Logs the progress of long work; at most one line every few seconds, so call it as often as convenient. */
  progress(fields: Record<string, unknown>, message: string): void;
  /**
   * Work the round starts and leaves running when it ends (the retry worker's sends): it does not
   * hold the job's lock, and the job's `stop()` (so shutdown) waits for it too.
   */
  keep(work: Promise<unknown>): void;
}

export interface JobDefinition<T> {
  /** Names the job in logs and metrics: kebab-case, unique in the service. */
  name: string;
  /**
   * With a lock, a round runs only on the instance that takes it (a session-level try-lock held
   * for the round); the others skip that round. Without, every instance runs its rounds.
   */
  lock?: AdvisoryLockName;
  /** Delay from `start()` to the first round. */
  firstDelayMs: number;
  /**
   * Delay after a round to the next: a fixed interval, or computed from the round's outcome
   * (backoff after a failure, 0 when there is more to do). `undefined`: no timed round; the next
   * comes on `wake()`.
   */
  next: number | ((outcome: RoundOutcome<T>) => number | undefined);
  /** One round of the work. A thrown error fails the round; the schedule goes on. */
  run(round: JobRound): Promise<T>;
}
