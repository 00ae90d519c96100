import type pg from 'pg';
import type { DataSource } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { ADVISORY_LOCKS, type AdvisoryLockName } from '../advisory-locks.js';

/** Gives a held session lock back. */
export type ReleaseLock = () => Promise<void>;

/**
 * Tries to take the session-level advisory lock `name` on a connection of its own, kept for as
 * long as the lock is held (the work itself runs on other connections): the release function, or
 * undefined when another session holds it. A connection whose unlock fails is closed, not put back
 * in the pool, so no pooled connection keeps a lock.
 */
export async function trySessionLock(dataSource: DataSource, name: AdvisoryLockName): Promise<ReleaseLock | undefined> {
  const key = ADVISORY_LOCKS[name];
  const pool = (dataSource.driver as PostgresDriver).master as pg.Pool;
  const client = await pool.connect();
  let locked: boolean;
  try {
    const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [key]);
    locked = result.rows[0]?.locked === true;
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  if (!locked) {
    client.release();
    return undefined;
  }
  return async () => {
    try {
      await client.query('SELECT pg_advisory_unlock($1)', [key]);
      client.release();
    } catch (error) {
      client.release(error as Error);
    }
  };
}
