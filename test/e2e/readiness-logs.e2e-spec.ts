import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedPostgres, freePort } from '../../src/database/embedded-postgres.js';
import { eventually } from '../support/eventually.js';
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
  /**
   * The service's log arrives through a pipe, behind its answers: a request logged after the ones before it
   * marks the point by which their lines have all been read. Returns the lines read so far, without the marks.
   */
  let marks = 0;
  const linesSoFar = async (): Promise<string[]> => {
    const mark = `/log-mark-${++marks}`;
    expect((await fetch(`${service.baseUrl}${mark}`)).status).toBe(404);
    await eventually(() => service.logs.some((line) => line.includes(mark)), { what: `the log line of ${mark}` });
    return service.logs.filter((line) => !line.includes('/log-mark-'));
  };

  it('writes nothing for healthy probes, and one line per change of state', async () => {
    const before = (await linesSoFar()).length;
    for (let index = 0; index < 20; index++) expect(await probe()).toBe(200);
    expect((await linesSoFar()).slice(before)).toEqual([]);

    await database.stop();
    for (let index = 0; index < 5; index++) expect(await probe()).toBe(503);
    await database.start();
    await eventually(async () => (await probe()) === 200, { what: 'readiness after the restart', timeoutMs: 30_000, intervalMs: 100 });
    for (let index = 0; index < 5; index++) expect(await probe()).toBe(200);
    const readinessLines = (await linesSoFar())
      .slice(before)
      .map((line) => JSON.parse(line) as { context?: string; msg: string })
      .filter((line) => line.context === 'Readiness')
      .map((line) => line.msg);
    expect(readinessLines).toEqual(['not ready', 'ready again']);
  }, 90_000);
});
