import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { createTestDatabase } from '../setup/test-database.js';
import { PROJECT_ROOT, startServiceProcess } from '../support/service-process.js';

/**
 * Production once had no working way to make its first API client. The CLI
 * needed JWT_SECRET (it signs nothing) and rebuilt from sources the image does not have, and
 * a production start with no client said nothing.
 */
describe('the first API client in production (e2e)', () => {
  let database: { url: string; drop(): Promise<void> };

  beforeAll(async () => {
    database = await createTestDatabase();
    // A plain client: the service under test runs in its own process, and no app (nor its DataSource) is booted here.
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    await client.query('DELETE FROM api_client');
    await client.end();
  });
  afterAll(() => database.drop());

  it('says at start how to create the first client, and the built CLI creates it without JWT_SECRET', async () => {
    const production = {
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      JWT_SECRET: '4b1f0e9a7c2d58e3f6a90b1c2d3e4f5a6b7c8d9e0f1a2b3c',
      PERSONAL_DATA_KEY: '6f1e9d2c8b7a4e3f5a0c1d2e3f4a5b6c7d8e9f0a',
      LOG_LEVEL: 'info',
    };
    const service = await startServiceProcess(production);
    await service.stop();
    const hint = service.logs.filter((line) => line.includes('no API client exists yet'));
    expect(hint).toHaveLength(1);
    expect(hint[0]).toContain('order-tax-cli clients:create');

    const { JWT_SECRET: _unused, ...withoutSecret } = production;
    const created = spawnSync(process.execPath, ['dist/src/cli/main.js', 'clients:create', '--name', 'ops', '--scopes', 'admin,orders'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, NODE_OPTIONS: '', ...withoutSecret },
      encoding: 'utf8',
    });
    expect(created.stderr).not.toMatch(/JWT_SECRET/);
    expect(created.status).toBe(0);
    expect(created.stdout).toMatch(/client_id:\s+\d+/);
    expect(created.stdout).toMatch(/client_secret:\s+\S{20,}/);
  }, 90_000);
});
