import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, QueryFailedError, type EntityManager } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

/**
 * The result columns of a statement, each named once: `{ id: true, order_id: true }`. The compiler
 * holds it to exactly the keys of the row type (a missing or extra key does not compile), and
 * test/integration/sql-statements.int-spec.ts holds the statement's actual columns to it.
 */
export type ColumnsOf<Row> = { readonly [K in keyof Row]-?: true };

/** The row type of a statement that returns no columns (a write without RETURNING). */
export type NoColumns = Record<never, never>;

/**
 * A hand-written SQL statement and the row type it answers. With a `name`, each pooled connection
 * parses and plans it once (a prepared statement): give one to every statement whose text never
 * changes. Statements built from a query's filters have no name.
 */
export class SqlStatement<Row extends object = NoColumns> {
  /** Type only: what `SqlRunner.rows` answers. */
  declare readonly row?: Row;

  constructor(
    readonly name: string | undefined,
    readonly text: string,
    /** The result columns, in no particular order. */
    readonly columns: readonly string[],
  ) {}
}

// NoInfer: the row type is always written out, never guessed from the columns (it would type every column `unknown`).
type ColumnsArgument<Row> = keyof Row extends never ? [] : [columns: ColumnsOf<NoInfer<Row>>];

/** A named statement: `sql<{ id: string }>('order-lock', 'SELECT id FROM ...', { id: true })`. */
export function sql<Row extends object = NoColumns>(name: string, text: string, ...columns: ColumnsArgument<Row>): SqlStatement<Row> {
  return new SqlStatement<Row>(name, text, Object.keys(columns[0] ?? {}));
}

/** A statement built from a query's filters: not prepared (its text changes with them). */
export function sqlUnnamed<Row extends object = NoColumns>(text: string, ...columns: ColumnsArgument<Row>): SqlStatement<Row> {
  return new SqlStatement<Row>(undefined, text, Object.keys(columns[0] ?? {}));
}

/** A statement built for one call (from a query's filters, or composed by two modules) and its values. */
export interface BuiltStatement<Row extends object> {
  statement: SqlStatement<Row>;
  values: unknown[];
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

  async rows<Row extends object>(statement: SqlStatement<Row>, values: readonly unknown[] = [], manager?: EntityManager): Promise<Row[]> {
    const inTransaction = manager?.queryRunner;
    // Outside a transaction, a connection straight from the pool: a TypeORM query runner (and the entity manager it
    // builds) per statement was a few percent of the order path's CPU. The pool drops a connection that failed.
    const pool = inTransaction ? undefined : ((this.dataSource.driver as PostgresDriver).master as pg.Pool | undefined);
    const runner = inTransaction ?? (pool ? undefined : this.dataSource.createQueryRunner());
    let pooled: pg.PoolClient | undefined;
    try {
      // QueryRunner.connect() hands out the driver's connection: a pg client, which takes named statements.
      const client = runner ? ((await runner.connect()) as pg.PoolClient) : (pooled = await pool!.connect());
      const started = performance.now();
      const result = await client.query<Row>({ name: statement.name, text: statement.text, values: values as unknown[] });
      const elapsed = performance.now() - started;
      if (elapsed > this.slowQueryMs) this.dataSource.logger.logQuerySlow(Math.round(elapsed), statement.text);
      return result.rows;
    } catch (error) {
      if (error instanceof QueryFailedError) throw error;
      this.dataSource.logger.logQueryError(error as Error, statement.text, undefined);
      throw new QueryFailedError(statement.text, undefined, error as Error);
    } finally {
      pooled?.release();
      if (runner && !inTransaction) await runner.release();
    }
  }

  /** The first row, or undefined. */
  async row<Row extends object>(
    statement: SqlStatement<Row>,
    values: readonly unknown[] = [],
    manager?: EntityManager,
  ): Promise<Row | undefined> {
    return (await this.rows(statement, values, manager))[0];
  }

  /** The connection pool's counters, for the metrics. */
  poolStats(): PoolStats | undefined {
    return (this.dataSource.driver as PostgresDriver).master as pg.Pool | undefined;
  }

  private get slowQueryMs(): number {
    return this.dataSource.options.maxQueryExecutionTime ?? DEFAULT_SLOW_QUERY_MS;
  }
}
