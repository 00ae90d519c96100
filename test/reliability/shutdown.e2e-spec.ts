import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { In } from 'typeorm';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { eventually } from '../support/eventually.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { orderFor, seedFiscalData } from '../support/orders.js';
import { rowReader } from '../support/rows.js';
import { isProcessAlive, startServiceProcess } from '../support/service-process.js';

/**
 * SIGTERM under load, with the embedded PostgreSQL: in-flight requests complete, new
 * ones are refused cleanly (503 or a closed connection, never a 500), no acknowledged
 * order is lost, and the embedded database stops with the service.
 */
describe('shutdown under load (reliability)', () => {
  let directory: string;
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'shutdown-'));
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('drains in-flight requests, refuses new ones cleanly and keeps every acknowledged order', async () => {
    const dataDir = join(directory, 'postgres');
    const service = await startServiceProcess({
      DATABASE_URL: '',
      EMBEDDED_DB_DIR: dataDir,
      JWT_SECRET: 'shutdown-secret-shutdown-secret-000000',
      LOG_LEVEL: 'warn',
    });
    const http = new HttpClient(service.baseUrl);
    const token = await developmentClientToken(http);
    await seedFiscalData(http, token, 'shutdown-store');
    const postgresPid = Number((await readFile(join(dataDir, 'postmaster.pid'), 'utf8')).split('\n')[0]);

    const WORKERS = 8;
    const acknowledged = new Set<string>();
    const outcomes = new Map<string, number>();
    const beforeSignal: Array<string | number> = [];
    /** Per worker: requests sent after the signal that got their outcome. */
    const afterSignal = Array.from({ length: WORKERS }, () => 0);
    let signalled = false;
    let sequence = 0;
    let running = true;
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);

    const worker = async (index: number) => {
      while (running) {
        const orderId = `sd-${process.pid}-${++sequence}`;
        const startedBeforeSignal = !signalled;
        try {
          const response = await http.post('/enrich-order', orderFor(orderId, 'shutdown-store'), { token });
          count(String(response.status));
          if (response.status === 200) acknowledged.add(orderId);
          if (startedBeforeSignal) beforeSignal.push(response.status);
        } catch (error) {
          const code = (error as { cause?: { code?: string } }).cause?.code ?? 'network';
          count(code);
          if (startedBeforeSignal) beforeSignal.push(code);
          // Pacing, as a client backs off from a closed service: not a wait for anything.
          if (signalled) await new Promise((done) => setTimeout(done, 20));
        }
        if (!startedBeforeSignal) afterSignal[index]! += 1;
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, index) => worker(index));
    await eventually(() => acknowledged.size >= WORKERS, { what: 'orders acknowledged under load', timeoutMs: 30_000 });

    signalled = true;
    const exit = service.stop('SIGTERM');
    // Every worker has sent a request after the signal and got its outcome (refused, or answered while draining).
    await eventually(() => afterSignal.every((requests) => requests >= 1), { what: 'requests sent after the signal', timeoutMs: 30_000 });
    expect(await exit).toBe(0);
    running = false;
    await Promise.all(workers);

    process.stdout.write(
      `[shutdown] requests by outcome ${JSON.stringify(Object.fromEntries(outcomes))}; acknowledged ${acknowledged.size}\n`,
    );
    // Requests sent before the signal all completed with an answer (no reset, no 500).
    expect(beforeSignal.every((outcome) => outcome === 200 || outcome === 503)).toBe(true);
    expect(outcomes.get('500') ?? 0).toBe(0);
    expect(acknowledged.size).toBeGreaterThan(0);
    expect(isProcessAlive(postgresPid)).toBe(false);

    // Every acknowledged order is in the database (started again, on the same data directory).
    const database = new EmbeddedPostgres({ dataDir });
    const url = await database.start();
    const reader = await rowReader(url, [OrderEntity]);
    try {
      expect(await reader.getRepository(OrderEntity).countBy({ orderId: In([...acknowledged]) })).toBe(acknowledged.size);
    } finally {
      await reader.destroy();
      await database.stop();
    }
  });
});
