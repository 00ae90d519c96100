import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { EmbeddedPostgres, freePort } from '../../src/database/embedded-postgres.js';
import { eventually } from '../support/eventually.js';
import { developmentClientToken, HttpClient, type HttpResponse } from '../support/http.js';
import { fiscalMatrix, seedFiscalData } from '../support/orders.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/**
 * PostgreSQL ends the service's connections while admin writes are under way (`pg_terminate_backend`, as an
 * administrator, a failover or an out-of-memory kill does): every request answers 2xx, a client mistake, or 503 with
 * `Retry-After`, never 500. The database stays up, so the service meets lost connections mid-request, mid-transaction
 * and on a pooled connection already dead, not a refused connect.
 */
describe('connections lost during admin writes (reliability)', () => {
  let directory: string;
  let database: EmbeddedPostgres;
  let service: ServiceProcess;
  let http: HttpClient;
  let token: string;
  let groupId: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'db-lost-'));
    database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), port: await freePort() });
    const url = await database.start();
    service = await startServiceProcess({
      DATABASE_URL: url,
      JWT_SECRET: 'db-lost-secret-db-lost-secret-00000000',
      LOG_LEVEL: 'error',
    });
    http = new HttpClient(service.baseUrl);
    token = await developmentClientToken(http);
    await seedFiscalData(http, token, 'db-lost-store');
    const groups = await http.get<{ items: Array<{ id: string }> }>('/admin/fiscal-groups', { token });
    groupId = groups.body.items[0]!.id;
  });
  afterAll(async () => {
    await service?.stop();
    await database?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('answers admin writes 2xx, 4xx or 503 with Retry-After while their connections are terminated, never 500', async () => {
    const WORKERS = 6;
    const WANTED_ANSWERS = 400;
    const WANTED_TERMINATIONS = 40;
    const statuses = new Map<number, number>();
    const serverErrors: string[] = [];
    const withoutRetryAfter: string[] = [];
    let answers = 0;
    let terminated = 0;
    let sequence = 0;
    let running = true;

    const writes: Array<(n: number) => Promise<HttpResponse>> = [
      (n) => http.put(`/admin/fiscal-groups/${groupId}`, { name: `Group ${n}`, taxMatrix: fiscalMatrix(10 + (n % 8)) }, { token }),
      (n) => http.post('/admin/product-fiscal-categories', { productId: `lost-${n}`, productName: `P ${n}`, ncm: '21069090' }, { token }),
      (n) => http.put(`/admin/product-fiscal-categories/lost-${n - 1}`, { productName: `Q ${n}`, ncm: '22021000' }, { token }),
      (n) => http.put('/admin/status-aliases', { aliases: [{ label: `lost ${n % 5}`, status: 'READY' }] }, { token }),
      (n) => http.post('/admin/clients', { name: `Client ${n}`, scopes: ['orders'] }, { token }),
    ];
    const worker = async () => {
      while (running) {
        const n = ++sequence;
        const response = await writes[n % writes.length]!(n);
        answers += 1;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        const label = `${n % writes.length}: ${response.status} ${response.text.slice(0, 200)}`;
        if (response.status >= 500 && response.status !== 503) serverErrors.push(label);
        if (response.status === 503 && response.headers.get('retry-after') === null) withoutRetryAfter.push(label);
      }
    };

    // Raw SQL: the test is about the database ending the service's connections.
    const killer = new pg.Client({ connectionString: database.connectionUrl });
    await killer.connect();
    const terminate = async () => {
      while (running) {
        const rows = await killer.query<{ ended: boolean }>(
          `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
           WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'
           ORDER BY random() LIMIT 1`,
        );
        terminated += rows.rows.filter((row) => row.ended).length;
        // Pacing, so that connections live long enough to be used between terminations: not a wait for anything.
        await new Promise((done) => setTimeout(done, 60));
      }
    };

    const workers = Array.from({ length: WORKERS }, () => worker());
    const killing = terminate();
    try {
      await eventually(() => answers >= WANTED_ANSWERS && terminated >= WANTED_TERMINATIONS, {
        what: `${WANTED_ANSWERS} admin writes answered and ${WANTED_TERMINATIONS} connections terminated`,
        timeoutMs: 120_000,
      });
    } finally {
      running = false;
      await Promise.all([...workers, killing]);
      await killer.end();
    }
    process.stdout.write(
      `[connections lost] ${answers} answers by status ${JSON.stringify(Object.fromEntries(statuses))}; ${terminated} terminated\n`,
    );
    if (serverErrors.length > 0) {
      // The errors the service logged as unexpected, each kind once: what the classification missed.
      const kinds = new Set(
        service.logs.flatMap((line) => /"err":\{"type":"([^"]*)","message":"([^"]*)"/.exec(line)?.slice(1, 3).join(': ') ?? []),
      );
      process.stdout.write(`[connections lost] unexpected errors: ${[...kinds].join(' | ')}\n`);
    }

    expect(serverErrors).toEqual([]);
    expect(withoutRetryAfter).toEqual([]);
    expect(statuses.get(503) ?? 0).toBeGreaterThan(0);

    // The service recovers by itself: a write succeeds again once nothing terminates its connections.
    await eventually(async () => (await http.put('/admin/status-aliases', { aliases: [] }, { token })).status === 200, {
      what: 'an admin write to succeed after the terminations',
      timeoutMs: 30_000,
    });
  });
});
