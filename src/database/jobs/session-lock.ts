import type pg from 'pg';
import type { DataSource } from 'typeorm';
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
  const connection = dataSource.createQueryRunner();
  let locked = false;
  try {
    const [row] = (await connection.query('SELECT pg_try_advisory_lock($1) AS locked', [key])) as Array<{ locked: boolean }>;
    locked = row?.locked === true;
  } finally {
    if (!locked) await connection.release();
  }
  if (!locked) return undefined;
  return async () => {
    try {
      await connection.query('SELECT pg_advisory_unlock($1)', [key]);
    } catch (error) {
      // The session ended under the lock (the database restarted): TypeORM already gave its
      // client back with the error, the pool closed it, and the lock ended with the session.
      if (connection.isReleased) return;
      // The pool closes a client released with an error, and the session's locks end with it.
      // (QueryRunner.connect() hands out that pg client; TypeORM's own release would keep it.)
      ((await connection.connect()) as pg.PoolClient).release(error as Error);
      return;
    }
    await connection.release();
  };
}
