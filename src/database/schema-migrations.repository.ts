import { Injectable } from '@nestjs/common';
import { sql, SqlRunner } from './sql-runner.js';

export const APPLIED = sql<{ applied: number }>(
  'schema-migrations-applied',
  `SELECT count(*)::int AS applied FROM schema_migration WHERE name = ANY($1)`,
  { applied: true },
);

/** TypeORM's record of the migrations run (`schema_migration`), for readiness. */
@Injectable()
export class SchemaMigrationsRepository {
  constructor(private readonly db: SqlRunner) {}

  /** How many of these migrations are recorded as run. */
  async appliedCount(names: readonly string[]): Promise<number> {
    return (await this.db.row(APPLIED, [names]))?.applied ?? 0;
  }
}
