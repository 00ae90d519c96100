import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/** The one way several writes are made to hold together. */
@Injectable()
export class TransactionRunner {
  constructor(private readonly dataSource: DataSource) {}

  run<T>(work: (manager: EntityManager) => Promise<T>, isolation: IsolationLevel = 'READ COMMITTED'): Promise<T> {
    return this.dataSource.transaction(isolation, work);
  }

  /** Runs `work` in a transaction holding a transaction-scoped advisory lock, so callers with the same key serialize. */
  runLocked<T>(lockKey: number, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query('SELECT pg_advisory_xact_lock($1)', [lockKey]);
      return work(manager);
    });
  }
}
