import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/**
 * A hand-written SQL statement. With a `name`, each pooled connection parses and plans it once
 * (a prepared statement): give one to every statement whose text never changes. Statements
 * built from a query's filters have no name.
 */
export interface SqlStatement {
  readonly name?: string;
  readonly text: string;
}

export function sql(name: string, text: string): SqlStatement {
  return { name, text };
}

/** Queries slower than this are logged (TypeORM's `maxQueryExecutionTime`, the same threshold). */
const DEFAULT_SLOW_QUERY_MS = 1000;

export interface PoolStats {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/**
 * The one way hand-written SQL reaches the database (docs/conventions.md, "Database access").
 * A statement runs on the transaction of `manager` when one is given (so it sees and is undone
 * with the transaction's other writes), else on a pooled connection; it is logged when slow and
 * fails with TypeORM's `QueryFailedError` like every other query. Rows come back as rows, also
 * for `UPDATE ... RETURNING` (where TypeORM's `query()` answers `[rows, count]`).
 */
@Injectable()
export class SqlRunner {
  constructor(private readonly dataSource: DataSource) {}

  async rows<T extends object>(statement: SqlStatement, values: readonly unknown[] = [], manager?: EntityManager): Promise<T[]> {
    const inTransaction = manager?.queryRunner;
    const runner = inTransaction ?? this.dataSource.createQueryRunner();
    try {
      // QueryRunner.connect() hands out the driver's connection: a pg client, which takes named statements.
      const client = (await runner.connect()) as pg.PoolClient;
      const started = performance.now();
      const result = await client.query<T>({ name: statement.name, text: statement.text, values: values as unknown[] });
      const elapsed = performance.now() - started;
      if (elapsed > this.slowQueryMs) this.dataSource.logger.logQuerySlow(Math.round(elapsed), statement.text);
      return result.rows;
    } catch (error) {
      if (error instanceof QueryFailedError) throw error;
      this.dataSource.logger.logQueryError(error as Error, statement.text, undefined);
      throw new QueryFailedError(statement.text, undefined, error as Error);
    } finally {
      if (!inTransaction) await runner.release();
    }
  }

  /** The first row, or undefined. */
  async row<T extends object>(statement: SqlStatement, values: readonly unknown[] = [], manager?: EntityManager): Promise<T | undefined> {
    return (await this.rows<T>(statement, values, manager))[0];
  }

  /** The connection pool's counters, for the metrics. */
  poolStats(): PoolStats | undefined {
    return (this.dataSource.driver as PostgresDriver).master as pg.Pool | undefined;
  }

  private get slowQueryMs(): number {
    return this.dataSource.options.maxQueryExecutionTime ?? DEFAULT_SLOW_QUERY_MS;
  }
}
