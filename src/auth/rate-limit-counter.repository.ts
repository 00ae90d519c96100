import type { ThrottlerStorage } from '@nestjs/throttler';
import { sql, type SqlRunner } from '../database/sql-runner.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** A hit as counted: the key's hits in its window with this one, the seconds left in the window, and the window. */
export interface CounterHit {
  hits: number;
  secondsLeft: number;
  window: string;
}

/** How often an instance looks for expired counters, and how many it deletes at a time. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 1000;

/**
 * One hit on a key: a new window of `ttl` ms from the first hit, else one more hit in the current
 * window. One statement, so concurrent hits from any number of instances are all counted; the
 * database clock decides when a window ends, so instances with skewed clocks agree. `window_end`
 * (the window's end in microseconds since the epoch) names the window the hit was counted in.
 */
export const INCREMENT = sql<{ hits: number; ms_left: string; window_end: string }>(
  'rate-limit-counter-hit',
  `INSERT INTO rate_limit_counter AS counter (counter_key, hits, expires_at)
  VALUES ($1, 1, statement_timestamp() + make_interval(secs => $2::double precision / 1000))
  ON CONFLICT (counter_key) DO UPDATE SET
    hits = CASE WHEN counter.expires_at <= statement_timestamp() THEN 1 ELSE counter.hits + 1 END,
    expires_at = CASE WHEN counter.expires_at <= statement_timestamp() THEN excluded.expires_at ELSE counter.expires_at END
   RETURNING counter.hits, ceil(extract(epoch FROM counter.expires_at - statement_timestamp()) * 1000)::bigint AS ms_left,
     (extract(epoch FROM counter.expires_at) * 1000000)::bigint AS window_end`,
  { hits: true, ms_left: true, window_end: true },
);

/**
 * Takes one hit back, only in the window it was counted in: once that window has ended, the key's
 * count is another window's and is left alone.
 */
export const RELEASE = sql(
  'rate-limit-counter-release',
  `UPDATE rate_limit_counter SET hits = hits - 1
    WHERE counter_key = $1 AND hits > 0 AND (extract(epoch FROM expires_at) * 1000000)::bigint = $2::bigint`,
);

/**
 * Expired counters, a batch at a time. SKIP LOCKED: a sweep never waits for a row that a hit (or
 * another instance's sweep) holds, so sweeps and hits cannot deadlock.
 */
export const SWEEP = sql<{ deleted: number }>(
  'rate-limit-counter-sweep',
  `WITH deleted AS (
     DELETE FROM rate_limit_counter WHERE counter_key IN (
       SELECT counter_key FROM rate_limit_counter WHERE expires_at <= statement_timestamp()
       ORDER BY expires_at LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING 1)
   SELECT count(*)::int AS deleted FROM deleted`,
  { deleted: true },
);

/**
 * The owner of `rate_limit_counter`, and @nestjs/throttler's storage over it, shared by every instance
 * on the database: N instances allow the limit once in total, not N times. Fixed windows, as the
 * credential limit always had: once over the limit, a key is blocked until its window ends
 * (`blockDuration` is not used). Expired rows are deleted opportunistically: at most once a minute
 * per instance, before a hit, in batches (again at the next hit while a full batch was found).
 */
export class RateLimitCounterRepository implements ThrottlerStorage {
  private nextSweepAt = 0;

  constructor(private readonly db: SqlRunner) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const { hits, secondsLeft } = await this.hit(key, ttl);
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }

  /** One hit on `key` (as `increment` counts it): the key's hits now, the seconds left in its window, and the window, for `release`. */
  async hit(key: string, ttl: number): Promise<CounterHit> {
    await this.sweepWhenDue();
    const row = await this.db.row(INCREMENT, [key, ttl]);
    return {
      hits: Number(row!.hits),
      secondsLeft: Math.max(1, Math.ceil(Number(row!.ms_left) / 1000)),
      window: row!.window_end,
    };
  }

  /** Takes back a hit `hit` counted; nothing when its window has ended since. */
  async release(key: string, window: string): Promise<void> {
    await this.db.rows(RELEASE, [key, window]);
  }

  private async sweepWhenDue(): Promise<void> {
    const now = Date.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    const swept = await this.db.row(SWEEP, [SWEEP_BATCH]);
    if ((swept?.deleted ?? 0) >= SWEEP_BATCH) this.nextSweepAt = now;
  }
}
