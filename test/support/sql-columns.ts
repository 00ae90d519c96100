import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { SqlStatement } from '../../src/database/sql-runner.js';

/** A pg query that keeps the result columns PostgreSQL describes, also when the statement then fails. */
class DescribedQuery extends pg.Query {
  columns?: string[];

  handleRowDescription(message: { fields: Array<{ name: string }> }): void {
    this.columns = message.fields.map((field) => field.name);
    (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, message);
  }
}

export interface DescribedColumns {
  /** The result columns as PostgreSQL describes them (none for a write without RETURNING). */
  columns: string[];
  /** The error the statement ended with, if any (a constraint the null values break, say): the columns came before it. */
  error?: string;
}

/** The highest `$n` of a statement's text: how many values it takes. */
export function parameterCount(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
}

/**
 * Runs `statement` in a transaction that is rolled back, with `values` (all null by default: the
 * columns are described before the statement runs, so a failure of the run changes nothing), and
 * answers the columns PostgreSQL described. A statement that does not parse fails here.
 */
export async function describeColumns(
  dataSource: DataSource,
  statement: SqlStatement<object>,
  values?: unknown[],
): Promise<DescribedColumns> {
  const runner = dataSource.createQueryRunner();
  const client = (await runner.connect()) as pg.PoolClient;
  try {
    await client.query('BEGIN');
    const query = new DescribedQuery({
      text: statement.text,
      values: values ?? new Array<null>(parameterCount(statement.text)).fill(null),
    });
    let error: string | undefined;
    try {
      // A submitted query object answers through its events, not a promise.
      await new Promise<void>((resolve, reject) => {
        query.on('end', () => resolve());
        query.on('error', reject);
        void client.query(query);
      });
    } catch (failure) {
      // SQLSTATE class 42 (syntax, unknown table or column...): the statement itself is wrong, whatever the values.
      if ((failure as { code?: string }).code?.startsWith('42'))
        throw new Error(`${statement.name ?? 'statement'}: ${(failure as Error).message}`, { cause: failure });
      error = (failure as Error).message;
    } finally {
      await client.query('ROLLBACK');
    }
    return { columns: query.columns ?? [], error };
  } finally {
    await runner.release();
  }
}

/** Every TypeScript source file under `dir` (specs excluded). */
export function sourceFiles(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** How many `sql(...)` / `sql<Row>(...)` calls a source file makes. */
export function sqlCallsIn(file: string): number {
  return [...readFileSync(file, 'utf8').matchAll(/(?<![\w.])sql(?:<|\()/g)].length;
}

/** The statements a module exports, by export name. */
export async function exportedStatements(file: string): Promise<Map<string, SqlStatement<object>>> {
  const exports = (await import(join(process.cwd(), file))) as Record<string, unknown>;
  return new Map(Object.entries(exports).filter((entry): entry is [string, SqlStatement<object>] => entry[1] instanceof SqlStatement));
}
