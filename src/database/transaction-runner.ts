import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, type EntityManager } from 'typeorm';
import { ADVISORY_LOCKS, type AdvisoryLockName } from './advisory-locks.js';

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/** PostgreSQL gave up one of the transactions that crossed: running it again is the documented remedy. */
const RETRYABLE_SQLSTATES = new Set(['40P01', '40001']);
const MAX_ATTEMPTS = 5;

export function isRetryableTransactionError(error: unknown): boolean {
  const code =
    (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.code ??
    (error as { driverError?: { code?: unknown } })?.driverError?.code;
  return typeof code === 'string' && RETRYABLE_SQLSTATES.has(code);
}

/**
 * The one way several writes are made to hold together. A transaction that PostgreSQL aborts
 * as a deadlock victim or for a serialization failure is run again (a few times, after a short
 * random pause), so two crossing writes both end as if run one after the other: `work` must
 * only touch the database through `manager`.
 */
@Injectable()
export class TransactionRunner {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>, isolation: IsolationLevel = 'READ COMMITTED'): Promise<T> {
    return retrying(() => this.dataSource.transaction(isolation, work));
  }

  /** Runs `work` in a transaction holding the transaction-scoped advisory lock `lock`, so callers with the same lock serialize. */
  runLocked<T>(lock: AdvisoryLockName, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return retrying(() =>
      this.dataSource.transaction(async (manager) => {
        await manager.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS[lock]]);
        return work(manager);
      }),
    );
  }
}

async function retrying<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      if (tries >= MAX_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
      await sleep(Math.floor(Math.random() * 20 * tries));
    }
  }
}
