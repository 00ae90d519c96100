import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres, freePort } from '../../src/database/embedded-postgres.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/**
 * Every readiness probe once wrote 9 log lines (TypeORM's migration list), about
 * 78,000 a day per instance. A healthy probe logs nothing; a change of state logs one line.
 */
describe('readiness probes and the log (e2e)', () => {
  let directory: string;
  let database: EmbeddedPostgres;
  let service: ServiceProcess;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'readiness-logs-'));
    database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), port: await freePort() });
    const url = await database.start();
    service = await startServiceProcess({ DATABASE_URL: url, JWT_SECRET: 'readiness-logs-secret-readiness-logs-0000', LOG_LEVEL: 'info' });
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await database?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  const probe = () =>
    fetch(`${service.baseUrl}/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
  const settle = () => new Promise((done) => setTimeout(done, 300));

  it('writes nothing for healthy probes, and one line per change of state', async () => {
    await settle();
    const before = service.logs.length;
    for (let index = 0; index < 20; index++) expect(await probe()).toBe(200);
    await settle();
    expect(service.logs.slice(before)).toEqual([]);

    await database.stop();
    for (let index = 0; index < 5; index++) expect(await probe()).toBe(503);
    await database.start();
    let status = 0;
    for (let tries = 0; status !== 200 && tries < 100; tries++) {
      status = await probe();
      if (status !== 200) await settle();
    }
    expect(status).toBe(200);
    for (let index = 0; index < 5; index++) expect(await probe()).toBe(200);
    await settle();
    const readinessLines = service.logs
      .slice(before)
      .map((line) => JSON.parse(line) as { context?: string; msg: string })
      .filter((line) => line.context === 'Readiness')
      .map((line) => line.msg);
    expect(readinessLines).toEqual(['not ready', 'ready again']);
  }, 90_000);
});
