import type { DataSource } from 'typeorm';

/** Arbitrary constant: the advisory lock that serializes migrations across instances starting together. */
const MIGRATION_LOCK_KEY = 7_310_001;

export async function runPendingMigrations(dataSource: DataSource, log: (message: string) => void = () => undefined): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) log(`applied migration ${migration.name}`);
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
