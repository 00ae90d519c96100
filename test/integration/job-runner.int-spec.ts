import { Writable } from 'node:stream';
import { createRootLogger } from '../../src/common/logging/logger.js';
import { JobMetrics } from '../../src/database/jobs/job-metrics.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import type { JobRound } from '../../src/database/jobs/job.js';
import { ADVISORY_LOCKS } from '../../src/database/advisory-locks.js';
import { bootIntegration, eventually, type IntegrationContext } from '../support/integration.js';

/** A promise the test settles when it wants: a round that waits on it stays under way until then. */
function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/** Lets every callback already queued run (timers of 0 ms, settled promises), without waiting on the clock. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function runsOf(metrics: JobMetrics, job: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const value of (await metrics.runs.get()).values) {
    if (value.labels.job === job) counts[String(value.labels.outcome)] = value.value;
  }
  return counts;
}

/**
 * The job runner against the real database: the advisory lock of a job keeps two runners (two
 * instances: sessions of their own) from running a round at once, a round never overlaps itself
 * in one process, shutdown waits for the round under way, and a failed round is logged, counted
 * and followed by the next.
 */
describe('JobRunner (integration)', () => {
  let db: IntegrationContext;
  const lines: Array<Record<string, unknown>> = [];
  const logger = createRootLogger(
    'info',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  /** A runner of another instance: its own metrics, its own sessions for the lock. */
  const anotherRunner = (metrics = new JobMetrics()) => new JobRunner(db.dataSource, metrics, logger);

  beforeAll(async () => {
    db = await bootIntegration({ imports: [], logger });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('runs a locked round on one runner at a time: the other skips while the lock is held, and runs once it is free', async () => {
    const first = db.get(JobRunner);
    const secondMetrics = new JobMetrics();
    const second = anotherRunner(secondMetrics);
    const held = gate();
    let started = false;
    const firstJob = first.define({
      name: 'locked-first',
      lock: 'webhookDeliveryPrune',
      firstDelayMs: 0,
      next: () => undefined,
      run: async () => {
        started = true;
        await held.wait;
        return 'first';
      },
    });
    const secondJob = second.define({
      name: 'locked-second',
      lock: 'webhookDeliveryPrune',
      firstDelayMs: 0,
      next: () => undefined,
      run: async () => 'second',
    });

    const firstRound = firstJob.runNow();
    await eventually(() => started, { what: 'the first round to start' });
    expect(await secondJob.runNow()).toEqual({ status: 'skipped' });
    held.open();
    expect(await firstRound).toEqual({ status: 'done', result: 'first' });
    // The lock was given back with the round: the other runner takes it now.
    expect(await secondJob.runNow()).toEqual({ status: 'done', result: 'second' });
    expect(await runsOf(secondMetrics, 'locked-second')).toEqual({ skipped: 1, done: 1 });
    await second.stopAll();
  });

  it('never runs two rounds of two runners with the same lock at once, however their rounds cross', async () => {
    const metrics = [db.get(JobMetrics), new JobMetrics()];
    const runners = [db.get(JobRunner), anotherRunner(metrics[1])];
    let active = 0;
    let most = 0;
    let rounds = 0;
    const jobs = runners.map((runner, index) =>
      runner.define({
        name: `crossing-${index}`,
        lock: 'webhookDeliveryPrune',
        firstDelayMs: 0,
        next: 0,
        run: async () => {
          active += 1;
          most = Math.max(most, active);
          // Room for the other runner to try the lock while this round holds it.
          for (let i = 0; i < 5; i++) await settle();
          // A round trip to the database as the round's work.
          await db.dataSource.query('SELECT 1');
          active -= 1;
          rounds += 1;
        },
      }),
    );
    try {
      for (const job of jobs) job.start();
      // Each round is a few round trips to the database; on a machine loaded by the other test files they can take
      // long, hence the room. Should it still run out, the message says how each runner's rounds ended.
      await eventually(() => rounds >= 20, { timeoutMs: 60_000, what: '20 rounds' }).catch(async (error: Error) => {
        const ended = await Promise.all(
          jobs.map(async (job, index) => `${job.name}: ${JSON.stringify(await runsOf(metrics[index], job.name))}`),
        );
        const failure = lines.findLast((line) => String(line.job).startsWith('crossing-') && line.level === 40);
        throw new Error(`${error.message} (${rounds} ran; ${ended.join(', ')}; last failure: ${JSON.stringify(failure?.err ?? null)})`);
      });
    } finally {
      // Stopped even when the wait fails: a runner left going would hold the lock the next tests take.
      await Promise.all(jobs.map((job) => job.stop()));
    }
    expect(most).toBe(1);
  });

  it('never overlaps a job with itself in one process: timed rounds, wake-ups and runNow() queue up', async () => {
    const runner = db.get(JobRunner);
    let active = 0;
    let most = 0;
    let rounds = 0;
    const job = runner.define({
      name: 'no-overlap',
      firstDelayMs: 0,
      next: 0,
      run: async () => {
        active += 1;
        most = Math.max(most, active);
        // A round trip to the database as the round's work.
        await db.dataSource.query('SELECT 1');
        active -= 1;
        rounds += 1;
      },
    });
    job.start();
    const asked = Array.from({ length: 10 }, () => {
      job.wake();
      return job.runNow();
    });
    expect((await Promise.all(asked)).every((outcome) => outcome.status === 'done')).toBe(true);
    await eventually(() => rounds >= 20, { what: '20 rounds' });
    await job.stop();
    expect(most).toBe(1);
  });

  it('waits on shutdown for the round under way, then runs no more rounds', async () => {
    const runner = anotherRunner();
    const round = gate();
    const events: string[] = [];
    const job = runner.define({
      name: 'shutdown-round',
      firstDelayMs: 0,
      next: 0,
      run: async () => {
        events.push('round started');
        await round.wait;
        events.push('round ended');
      },
    });
    job.start();
    await eventually(() => events.includes('round started'), { what: 'the round to start' });

    const stopping = runner.beforeApplicationShutdown().then(() => events.push('stopped'));
    await settle();
    expect(events).toEqual(['round started']);
    round.open();
    await stopping;
    expect(events).toEqual(['round started', 'round ended', 'stopped']);
    expect(await job.runNow()).toEqual({ status: 'stopped' });
  });

  it('waits on shutdown for the work a round started and kept running', async () => {
    const runner = anotherRunner();
    const kept = gate();
    const events: string[] = [];
    const job = runner.define({
      name: 'shutdown-kept',
      firstDelayMs: 0,
      next: () => undefined,
      run: async (current: JobRound) => {
        current.keep(kept.wait.then(() => events.push('kept work ended')));
        events.push('round ended');
      },
    });
    job.start();
    await eventually(() => events.includes('round ended'), { what: 'the round to end' });

    const stopping = runner.beforeApplicationShutdown().then(() => events.push('stopped'));
    await settle();
    expect(events).toEqual(['round ended']);
    kept.open();
    await stopping;
    expect(events).toEqual(['round ended', 'kept work ended', 'stopped']);
  });

  it('logs a failed round with the job name, counts it, and runs the next round on schedule', async () => {
    const runner = db.get(JobRunner);
    let calls = 0;
    const outcomes: string[] = [];
    const job = runner.define({
      name: 'fails-once',
      firstDelayMs: 0,
      next: (outcome) => {
        outcomes.push(outcome.status);
        return outcomes.length < 2 ? 0 : undefined;
      },
      run: async () => {
        calls += 1;
        if (calls === 1) throw new Error('the first round breaks');
        return calls;
      },
    });
    job.start();
    await eventually(() => outcomes.length === 2, { what: 'two rounds' });
    expect(outcomes).toEqual(['failed', 'done']);
    expect(await runsOf(db.get(JobMetrics), 'fails-once')).toEqual({ failed: 1, done: 1 });
    const failure = lines.find((line) => line.job === 'fails-once' && line.level === 40);
    expect(failure).toMatchObject({ msg: 'a background job round failed', failuresInARow: 1, err: { message: 'the first round breaks' } });
    const [duration] = (await db.get(JobMetrics).duration.get()).values.filter(
      (value) => value.labels.job === 'fails-once' && value.metricName === 'background_job_duration_seconds_count',
    );
    expect(duration.value).toBe(2);
    await job.stop();
  });

  it('goes on when the session holding its lock ends under the round (a database restart): no crash, the next round takes the lock', async () => {
    const runner = db.get(JobRunner);
    const held = gate();
    let started = false;
    const outcomes: string[] = [];
    const job = runner.define({
      name: 'lock-session-ends',
      lock: 'webhookDeliveryPrune',
      firstDelayMs: 0,
      next: () => undefined,
      run: async () => {
        started = true;
        await held.wait;
        return 'ran';
      },
    });
    const round = job.runNow();
    await eventually(() => started, { what: 'the round to start' });
    // The session holding the job's lock is ended, as a stopping PostgreSQL ends every session.
    // A bigint key is shown split: its high half in classid, its low half in objid.
    const holding = `FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 1 AND granted AND ((classid::bigint << 32) | objid::bigint) = $1`;
    let ended: number;
    try {
      [{ ended }] = (await db.dataSource.query(`SELECT count(pg_terminate_backend(pid))::int AS ended ${holding}`, [
        ADVISORY_LOCKS.webhookDeliveryPrune,
      ])) as Array<{ ended: number }>;
    } finally {
      held.open();
    }
    expect(ended).toBe(1);
    outcomes.push((await round).status);
    // pg_terminate_backend only signals: the ended session gives its lock back as it exits, a moment later (a restarted
    // PostgreSQL has no such session at all). The next round is tried once it has.
    await eventually(
      async () => {
        const [{ holders }] = (await db.dataSource.query(`SELECT count(*)::int AS holders ${holding}`, [
          ADVISORY_LOCKS.webhookDeliveryPrune,
        ])) as Array<{ holders: number }>;
        return holders === 0;
      },
      { what: 'the ended session to give the lock back' },
    );
    outcomes.push((await job.runNow()).status);
    // Before, giving the lock back threw (a client released twice): the round rejected and the job's queue stayed rejected.
    expect(outcomes).toEqual(['done', 'done']);
    await job.stop();
  });
});
