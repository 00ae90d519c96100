import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Every TypeScript source file under `dir` (specs excluded). */
function sources(dir = 'src'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The tables named by SQL in `text` (upper-case keywords, as every statement of the project is written) among `tables`. */
export function sqlTablesIn(text: string, tables: readonly string[]): string[] {
  const named = new Set<string>();
  for (const match of text.matchAll(/\b(?:INTO|UPDATE|FROM|JOIN|TABLE)\s+(?:ONLY\s+)?"?([a-z_]+)"?/g)) {
    if (tables.includes(match[1]!)) named.add(match[1]!);
  }
  return [...named];
}

/** `src/<folder>` of a source file. */
function folderOf(file: string): string {
  return file.split(/[\\/]/).slice(0, 2).join('/');
}

/** Each table with an entity, and the folder of its entity: its owner. */
function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const file of sources().filter((path) => path.endsWith('.entity.ts'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(/@Entity\(\{\s*name:\s*'([a-z_]+)'/g)) owners.set(match[1]!, folderOf(file));
  }
  // TypeORM's own record of the migrations run: it has no entity, src/database reads it for readiness.
  owners.set('schema_migration', 'src/database');
  return owners;
}

/** The tables the migrations create. */
function migratedTables(): string[] {
  return readdirSync('migrations')
    .filter((name) => name.endsWith('.ts'))
    .flatMap((name) =>
      [...readFileSync(join('migrations', name), 'utf8').matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)].map((match) => match[1]!),
    );
}

const ORDER_TABLES = ['orders', 'order_status_history'];

describe('database access', () => {
  const owners = tableOwners();
  const tables = [...owners.keys()];

  it('finds the SQL it looks for (the check below can fail)', () => {
    expect(sqlTablesIn('UPDATE orders SET status = $2 WHERE id = $1', ORDER_TABLES)).toEqual(['orders']);
    expect(sqlTablesIn('SELECT o.status FROM orders o', ORDER_TABLES)).toEqual(['orders']);
    expect(sqlTablesIn('INSERT INTO order_tracking (order_db_id) VALUES ($1)', ORDER_TABLES)).toEqual([]);
    expect(sqlTablesIn('x JOIN order_status_history h ON h.order_db_id = o.id', ORDER_TABLES)).toEqual(['order_status_history']);
    expect(sqlTablesIn('orders from the platform', ORDER_TABLES)).toEqual([]);
    expect(owners.get('orders')).toBe('src/orders');
    expect(owners.get('fiscal_group_store')).toBe('src/fiscal-groups');
    expect(owners.get('webhook_retry_job')).toBe('src/webhooks');
  });

  it('every table the migrations create has an entity, whose folder owns it', () => {
    const migrated = migratedTables();
    expect(migrated.length).toBeGreaterThan(20);
    expect(migrated.filter((table) => !owners.has(table))).toEqual([]);
  });

  it("SQL naming a table appears only in its owner's folder (other modules call the owner's repository or service)", () => {
    const outside = sources().flatMap((file) =>
      sqlTablesIn(readFileSync(file, 'utf8'), tables)
        .filter((table) => owners.get(table) !== folderOf(file))
        .map((table) => `${file}: ${table} (owned by ${owners.get(table)})`),
    );
    expect(outside).toEqual([]);
  });

  it("an entity class is used only in its owner's folder (and by entity files, for foreign keys): others call the owner", () => {
    const entityFolders = new Map<string, string>();
    for (const file of sources().filter((path) => path.endsWith('.entity.ts'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/export class (\w+Entity)\b/g)) entityFolders.set(match[1]!, folderOf(file));
    }
    expect(entityFolders.get('FiscalGroupStoreEntity')).toBe('src/fiscal-groups');
    const outside = sources()
      .filter((file) => !file.endsWith('.entity.ts'))
      .flatMap((file) => {
        // Value imports only: `import type` and `type X` specifiers name a shape, not a way to the rows.
        const imported = [...readFileSync(file, 'utf8').matchAll(/^import (?!type )\{([^}]*)\} from/gm)].flatMap((match) =>
          match[1]!
            .split(',')
            .map((name) => name.trim())
            .filter((name) => name && !name.startsWith('type ')),
        );
        return imported
          .filter((name) => entityFolders.has(name) && entityFolders.get(name) !== folderOf(file))
          .map((name) => `${file}: ${name}`);
      });
    expect(outside).toEqual([]);
  });

  it('raw queries run only in src/database (SqlRunner); elsewhere through it, a TypeORM repository or the entity manager', () => {
    const raw = sources()
      .filter((file) => !file.startsWith(join('src', 'database')))
      .filter((file) => /\.query\s*[<(]/.test(readFileSync(file, 'utf8')));
    expect(raw).toEqual([]);
  });

  it('controllers hold no database access', () => {
    const controllers = sources().filter((file) => file.endsWith('.controller.ts'));
    expect(controllers.length).toBeGreaterThan(5);
    const touching = controllers.filter((file) => /from 'typeorm'|SqlRunner|InjectRepository|DataSource/.test(readFileSync(file, 'utf8')));
    expect(touching).toEqual([]);
  });

  it('the pg pool is never pulled out of TypeORM outside SqlRunner', () => {
    const pulling = sources()
      .filter((file) => file !== join('src', 'database', 'sql-runner.ts'))
      .filter((file) => /\.driver\b/.test(readFileSync(file, 'utf8')));
    expect(pulling).toEqual([]);
  });
});
