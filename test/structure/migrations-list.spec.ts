import { readdirSync } from 'node:fs';
import { ALL_MIGRATIONS } from '../../migrations/index.js';

const timestampOf = (name: string) => Number(/(\d{13})$/.exec(name)?.[1]);

describe('migrations/index.ts', () => {
  it('lists the migrations in the order TypeORM runs them (by the timestamp ending the class name)', () => {
    const timestamps = ALL_MIGRATIONS.map((migration) => timestampOf(migration.name));
    expect(timestamps.every((timestamp) => Number.isFinite(timestamp))).toBe(true);
    expect(timestamps).toEqual([...timestamps].sort((a, b) => a - b));
  });

  it('lists every migration file', () => {
    const files = readdirSync('migrations')
      .filter((file) => /^\d{13}-.+\.ts$/.test(file))
      .map((file) => Number(file.slice(0, 13)));
    expect(ALL_MIGRATIONS.map((migration) => timestampOf(migration.name)).sort()).toEqual(files.sort());
  });
});
