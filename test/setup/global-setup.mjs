// Jest loads global setup outside its ESM transform, so this file is plain JavaScript over the
// built sources (`npm test` builds first).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { EmbeddedPostgres } from '../../dist/src/database/embedded-postgres.js';
import { dataSourceOptions } from '../../dist/src/database/data-source-options.js';
import { runPendingMigrations } from '../../dist/src/database/migrate.js';

const TEMPLATE_DATABASE = 'app_template';

/**
 * One real PostgreSQL for the whole run: the embedded one (default) or the server of
 * TEST_DATABASE_URL. Migrations run once, into a template database that every test
 * file clones.
 */
export default async function globalSetup() {
  const started = Date.now();
  if (process.env.TEST_DATABASE_URL) {
    process.env.TEST_PG_ADMIN_URL = process.env.TEST_DATABASE_URL;
  } else {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'order-tax-test-')), 'postgres');
    // Durability is pointless for a throw-away test cluster; speed is not.
    const server = new EmbeddedPostgres({ dataDir, settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' } });
    process.env.TEST_PG_ADMIN_URL = await server.start();
    globalThis.__embeddedPostgres = server;
    globalThis.__embeddedPostgresDir = dataDir;
  }

  const admin = new pg.Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  await admin.end();

  const url = new URL(process.env.TEST_PG_ADMIN_URL);
  url.pathname = `/${TEMPLATE_DATABASE}`;
  const dataSource = await new DataSource(dataSourceOptions({ url: url.toString(), poolSize: 2 })).initialize();
  await runPendingMigrations(dataSource);
  await dataSource.destroy();
  process.stdout.write(`\n[test setup] PostgreSQL ready and migrated in ${Date.now() - started} ms\n`);
}
