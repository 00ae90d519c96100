import type pg from 'pg';
import type { DataSource } from 'typeorm';

/**
 * The pg pool behind TypeORM, for the few hot queries that use named (prepared)
 * statements, which TypeORM's `query()` does not offer.
 */
export function pool(dataSource: DataSource): pg.Pool {
  const master = (dataSource.driver as unknown as { master?: pg.Pool }).master;
  if (!master) throw new Error('The database pool is not initialised');
  return master;
}
