import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DataSource } from 'typeorm';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/** Every `*.entity.ts` under src/, relative to the project root. */
function entityFiles(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entityFiles(path);
    return entry.name.endsWith('.entity.ts') ? [relative('.', path)] : [];
  });
}

describe('entities and migrations agree', () => {
  let app: TestApp;
  let dataSource: DataSource;

  beforeAll(async () => {
    app = await bootTestApp();
    dataSource = app.app.get(DataSource);
  });
  afterAll(() => app?.close());

  it("TypeORM's schema diff between the entities and the migrated database is empty", async () => {
    const diff = await dataSource.driver.createSchemaBuilder().log();
    // Each statement is one place where an entity says something the migrations did not make (or the reverse).
    expect(diff.upQueries.map((query) => query.query)).toEqual([]);
  });

  it('every table of the migrated database has an entity (else the diff above cannot see it)', async () => {
    const tables = (
      await dataSource.query<Array<{ name: string }>>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      )
    ).map((row) => row.name);
    const described = new Set(dataSource.entityMetadatas.map((metadata) => metadata.tableName));
    // TypeORM's own record of the migrations run.
    const withoutEntity = tables.filter((table) => !described.has(table) && table !== 'schema_migration');
    expect(tables.length).toBeGreaterThan(20);
    expect(withoutEntity).toEqual([]);
  });

  it('every entity file of src/ is registered in the application (none is left behind)', async () => {
    const registered = new Set(dataSource.entityMetadatas.map((metadata) => metadata.tableName));
    const declared: string[] = [];
    for (const file of entityFiles()) {
      const exports = (await import(join(process.cwd(), file))) as Record<string, unknown>;
      for (const value of Object.values(exports)) {
        if (typeof value !== 'function') continue;
        const metadata = dataSource.entityMetadatas.find((entity) => entity.target === value);
        if (metadata) declared.push(metadata.tableName);
        else if (/Entity$/.test(value.name)) declared.push(`${file}: ${value.name} (not registered)`);
      }
    }
    expect(declared.filter((name) => !registered.has(name))).toEqual([]);
    expect(new Set(declared)).toEqual(registered);
  });
});
