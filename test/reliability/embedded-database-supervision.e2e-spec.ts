import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Schemas } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { isProcessAlive, startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/**
 * After `kill -9` of the embedded PostgreSQL's postmaster, every database
 * route answered 503 forever while liveness stayed 200 and nothing was logged at error level.
 * The service must notice, log it, restart its database and recover by itself.
 */
describe('the embedded PostgreSQL is supervised', () => {
  let directory: string;
  let service: ServiceProcess;
  let http: HttpClient;
  let token: string;
  const storeId = unique('supervised');

  const postmasterPid = async () => Number((await readFile(join(directory, 'postgres', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const readiness = async () =>
    fetch(`${service.baseUrl}/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
  const levelOf = (line: string) => {
    try {
      return (JSON.parse(line) as { level?: number; msg?: string }).level ?? 0;
    } catch {
      return 0;
    }
  };

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'db-supervision-'));
    service = await startServiceProcess({
      EMBEDDED_DB_DIR: join(directory, 'postgres'),
      JWT_SECRET: 'supervision-secret-supervision-secret-00',
      LOG_LEVEL: 'info',
    });
    http = new HttpClient(service.baseUrl);
    token = await developmentClientToken(http);
    await seedFiscalData(http, token, storeId);
  }, 90_000);
  afterAll(async () => {
    await service?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('restarts its database after kill -9 of the postmaster, red readiness meanwhile, and serves orders again', async () => {
    const before = await postmasterPid();
    process.kill(before, 'SIGKILL');

    // Readiness goes red, then green again, without a restart of the service.
    const seen: number[] = [];
    await eventually(
      async () => {
        const status = await readiness();
        if (seen.at(-1) !== status) seen.push(status);
        return status === 200 && seen.includes(503);
      },
      { what: 'readiness red, then green again', timeoutMs: 60_000, intervalMs: 50 },
    );
    expect(seen).toContain(503);
    expect(seen.at(-1)).toBe(200);
    expect(service.child.exitCode).toBeNull();
    expect(await postmasterPid()).not.toBe(before);

    const errors = service.logs.filter((line) => levelOf(line) >= 50 && line.includes('stopped unexpectedly'));
    expect(errors).toHaveLength(1);

    const orderId = unique('after-restart');
    const enriched = await http.post('/enrich-order', orderFor(orderId, storeId), { token });
    expect(enriched.status).toBe(200);
    const stored = await http.get<Schemas['OrderDetailDto']>(`/admin/orders/${orderId}`, { token });
    expect(stored.body.status).toBe('ENRICHED');
  }, 90_000);

  it('does not restart the database on a clean shutdown', async () => {
    const pid = await postmasterPid();
    expect(await service.stop('SIGTERM')).toBe(0);
    // The service stops its database before it exits: the postmaster is gone by then, and no restart follows.
    expect(isProcessAlive(pid)).toBe(false);
    expect(service.logs.filter((line) => line.includes('was restarted'))).toHaveLength(1);
  }, 60_000);
});
