import type { DataSource } from 'typeorm';
import { ADVISORY_LOCKS } from './advisory-locks.js';

export async function runPendingMigrations(dataSource: DataSource, log: (message: string) => void = () => undefined): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    for (const migration of applied) log(`applied migration ${migration.name}`);
    return applied.map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations]).catch(() => undefined);
    await runner.release();
  }
}
