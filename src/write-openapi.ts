import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createApp } from './app.factory.js';
import { loadConfig } from './config/app-config.js';
import { createRootLogger } from './common/logging/logger.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';

/** Writes the OpenAPI document of the current code to `openapi.json` (a test fails when the two differ). */
async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'openapi-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  try {
    const databaseUrl = await database.start();
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl });
    const app = await createApp({ config, databaseUrl, logger: createRootLogger('silent') });
    const target = resolve(process.argv[2] ?? 'openapi.json');
    // The document the app serves, which a test compares with the committed file.
    const served = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/docs-json' });
    if (served.statusCode !== 200) throw new Error(`GET /api/docs-json answered ${served.statusCode}`);
    await writeFile(target, `${JSON.stringify(served.json(), null, 2)}\n`);
    await app.close();
    process.stdout.write(`wrote ${target}\n`);
  } finally {
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

void main();
