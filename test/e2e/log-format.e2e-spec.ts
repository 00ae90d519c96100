import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../setup/test-database.js';
import { startServiceProcess } from '../support/service-process.js';

/**
 * The log was JSON only, and a start wrote some eighty lines of Nest's module-by-module chatter. On a terminal
 * (or with LOG_FORMAT=pretty) it is readable lines now, without that chatter; production writes JSON and never
 * loads pino-pretty.
 */
describe('the log format (e2e)', () => {
  let database: { url: string; drop(): Promise<void> };
  let directory: string;
  /** Preloaded into the service: says on stderr when anything loads pino-pretty. */
  let preload: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    directory = await mkdtemp(join(tmpdir(), 'log-format-'));
    preload = join(directory, 'report-pino-pretty.cjs');
    await writeFile(
      preload,
      `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'pino-pretty') process.stderr.write('pino-pretty was loaded\\n');
  return load.call(this, request, ...rest);
};
`,
    );
  });
  afterAll(async () => {
    await database?.drop();
    await rm(directory, { recursive: true, force: true });
  });

  it('writes readable lines with LOG_FORMAT=pretty, without the start-up chatter of every module and route', async () => {
    const service = await startServiceProcess(
      { DATABASE_URL: database.url, LOG_FORMAT: 'pretty', NODE_OPTIONS: `--require ${preload}` },
      150_000,
    );
    await service.stop();
    const lines = service.logs.filter((line) => line.trim() !== '');
    expect(lines).toContain('pino-pretty was loaded');
    expect(lines.find((line) => line.includes('service is listening'))).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO.*: service is listening/);
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines.filter((line) => /InstanceLoader|RoutesResolver|RouterExplorer|dependencies initialized|Mapped \{/.test(line))).toEqual(
      [],
    );
  }, 180_000);

  it('writes JSON in production and never loads pino-pretty', async () => {
    const service = await startServiceProcess(
      {
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        JWT_SECRET: '4b1f0e9a7c2d58e3f6a90b1c2d3e4f5a6b7c8d9e0f1a2b3c',
        PERSONAL_DATA_KEY: '6f1e9d2c8b7a4e3f5a0c1d2e3f4a5b6c7d8e9f0a',
        NODE_OPTIONS: `--require ${preload}`,
      },
      150_000,
    );
    await service.stop();
    const lines = service.logs.filter((line) => line.trim() !== '');
    expect(lines).not.toContain('pino-pretty was loaded');
    expect(lines.find((line) => line.includes('service is listening'))).toMatch(/^\{.*"msg":"service is listening"/);
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  }, 180_000);
});
