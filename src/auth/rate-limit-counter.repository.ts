import type { ThrottlerStorage } from '@nestjs/throttler';
import { sql, type SqlRunner } from '../database/sql-runner.js';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** How often an instance looks for expired counters, and how many it deletes at a time. */
const SWEEP_INTERVAL_MS = 60_000;
const SWEEP_BATCH = 1000;

/**
 * One hit on a key: a new window of `ttl` ms from the first hit, else one more hit in the current
 * window. One statement, so concurrent hits from any number of instances are all counted; the
 * database clock decides when a window ends, so instances with skewed clocks agree.
 */
export const INCREMENT = sql<{ hits: number; ms_left: string }>(
  'rate-limit-counter-hit',
  `INSERT INTO rate_limit_counter AS counter (counter_key, hits, expires_at)
  VALUES ($1, 1, statement_timestamp() + make_interval(secs => $2::double precision / 1000))
  ON CONFLICT (counter_key) DO UPDATE SET
    hits = CASE WHEN counter.expires_at <= statement_timestamp() THEN 1 ELSE counter.hits + 1 END,
    expires_at = CASE WHEN counter.expires_at <= statement_timestamp() THEN excluded.expires_at ELSE counter.expires_at END
   RETURNING counter.hits, ceil(extract(epoch FROM counter.expires_at - statement_timestamp()) * 1000)::bigint AS ms_left`,
  { hits: true, ms_left: true },
);

/** A key's hits in its current window, without counting one (sign-in failures are counted only when they happen). */
export const PEEK = sql<{ hits: number; ms_left: string }>(
  'rate-limit-counter-peek',
  `SELECT hits, ceil(extract(epoch FROM expires_at - statement_timestamp()) * 1000)::bigint AS ms_left
     FROM rate_limit_counter WHERE counter_key = $1 AND expires_at > statement_timestamp()`,
  { hits: true, ms_left: true },
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
    await this.sweepWhenDue();
    const row = await this.db.row(INCREMENT, [key, ttl]);
    const hits = Number(row!.hits);
    const secondsLeft = Math.max(1, Math.ceil(Number(row!.ms_left) / 1000));
    const isBlocked = hits > limit;
    return { totalHits: hits, timeToExpire: secondsLeft, isBlocked, timeToBlockExpire: isBlocked ? secondsLeft : 0 };
  }

  /** The hits of a key's current window and the seconds left in it; zero hits when it has none. */
  async peek(key: string): Promise<{ hits: number; secondsLeft: number }> {
    const row = await this.db.row(PEEK, [key]);
    return row ? { hits: Number(row.hits), secondsLeft: Math.max(1, Math.ceil(Number(row.ms_left) / 1000)) } : { hits: 0, secondsLeft: 0 };
  }

  private async sweepWhenDue(): Promise<void> {
    const now = Date.now();
    if (now < this.nextSweepAt) return;
    this.nextSweepAt = now + SWEEP_INTERVAL_MS;
    const swept = await this.db.row(SWEEP, [SWEEP_BATCH]);
    if ((swept?.deleted ?? 0) >= SWEEP_BATCH) this.nextSweepAt = now;
  }
}
