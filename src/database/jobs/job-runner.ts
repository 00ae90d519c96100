import { type BeforeApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ROOT_LOGGER } from '../../common/logging/logger.tokens.js';
import type { Logger } from '../../common/logging/logger.js';
import type { JobDefinition, JobRound, RoundOutcome } from './job.js';
import { JobMetrics } from './job-metrics.js';
import { trySessionLock } from './session-lock.js';

const PROGRESS_EVERY_MS = 10_000;

/**
 * The one way the service runs background work (docs/background-jobs.md). A job's rounds never
 * overlap in one process (a round asked for while one runs waits for it); a job with a lock runs
 * its round on one instance at a time; every round is counted and timed, a failed one logged with
 * the job's name; on shutdown the runner stops scheduling and waits for the rounds under way.
 */
@Injectable()
export class JobRunner implements BeforeApplicationShutdown {
  private readonly jobs = new Set<Job<unknown>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly metrics: JobMetrics,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
  ) {}

  /** Declares a job; its rounds are scheduled from `start()`, and `runNow()` runs one at any time. */
  define<T>(definition: JobDefinition<T>): Job<T> {
    const job = new Job(definition, this.dataSource, this.metrics, this.logger.child({ context: 'BackgroundJob', job: definition.name }));
    this.jobs.add(job as Job<unknown>);
    return job;
  }

  /** Before the HTTP server and the database pool close: no new round, and the rounds under way end. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.stopAll();
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.jobs].map((job) => job.stop()));
  }
}

export class Job<T> {
  private timer?: NodeJS.Timeout;
  private started = false;
  private stopped = false;
  /** A timed round is running; a `wake()` meanwhile asks for another right after it. */
  private ticking = false;
  private woken = false;
  private failuresInARow = 0;
  private lastProgressAt = 0;
  /** The rounds of this process, one after the other (a round never rejects). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly kept = new Set<Promise<unknown>>();
  private readonly round: JobRound;

  constructor(
    private readonly definition: JobDefinition<T>,
    private readonly dataSource: DataSource,
    private readonly metrics: JobMetrics,
    private readonly log: Logger,
  ) {
    const isStopping = () => this.stopped;
    this.round = {
      get stopping() {
        return isStopping();
      },
      log,
      progress: (fields, message) => {
        if (Date.now() - this.lastProgressAt < PROGRESS_EVERY_MS) return;
        this.lastProgressAt = Date.now();
        log.info(fields, message);
      },
      keep: (work) => {
        const tracked = work.catch((error: unknown) => log.error({ err: error }, 'work started by a background job round failed'));
        this.kept.add(tracked);
        void tracked.finally(() => this.kept.delete(tracked));
      },
    };
  }

  get name(): string {
    return this.definition.name;
  }

  /** Schedules the first round (`firstDelayMs`) and every next one. */
  start(): void {
    if (this.started || this.stopped) return;
    this.started = true;
    this.schedule(this.definition.firstDelayMs);
  }

  /** The next timed round now rather than after its delay; during a round, right after it. */
  wake(): void {
    if (!this.started || this.stopped) return;
    if (this.ticking) this.woken = true;
    else this.schedule(0);
  }

  /** Runs a round now, after the one under way if any, whether or not the job was started. */
  runNow(): Promise<RoundOutcome<T>> {
    return this.enqueue();
  }

  /** No more rounds; resolves once the round under way and the work it kept have ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.queue;
    await Promise.allSettled([...this.kept]);
  }

  private schedule(delayMs: number | undefined): void {
    clearTimeout(this.timer);
    if (this.stopped || delayMs === undefined) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    this.ticking = true;
    this.woken = false;
    const outcome = await this.enqueue();
    this.ticking = false;
    if (this.woken) this.schedule(0);
    else this.schedule(this.delayAfter(outcome));
  }

  private delayAfter(outcome: RoundOutcome<T>): number | undefined {
    const { next } = this.definition;
    return typeof next === 'number' ? next : next(outcome);
  }

  private enqueue(): Promise<RoundOutcome<T>> {
    const round = this.queue.then(() => this.execute());
    this.queue = round;
    return round;
  }

  private async execute(): Promise<RoundOutcome<T>> {
    if (this.stopped) return { status: 'stopped' };
    const { name, lock } = this.definition;
    const startedAt = performance.now();
    this.lastProgressAt = Date.now();
    const seconds = () => (performance.now() - startedAt) / 1000;
    let release: (() => Promise<void>) | undefined;
    try {
      if (lock) {
        release = await trySessionLock(this.dataSource, lock);
        if (!release) {
          this.metrics.observe(name, 'skipped');
          return { status: 'skipped' };
        }
      }
      const result = await this.definition.run(this.round);
      this.failuresInARow = 0;
      this.metrics.observe(name, 'done', seconds());
      return { status: 'done', result };
    } catch (error) {
      this.failuresInARow += 1;
      this.metrics.observe(name, 'failed', seconds());
      this.log.warn({ err: error, failuresInARow: this.failuresInARow }, 'a background job round failed');
      return { status: 'failed', error, failuresInARow: this.failuresInARow };
    } finally {
      // A round never rejects: the queue of rounds would stay rejected and stop the job.
      await release?.().catch((error: unknown) => this.log.warn({ err: error }, "a background job's lock could not be given back"));
    }
  }
}
