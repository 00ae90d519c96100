/**
 * npm run bench:database-outage [-- --seconds 3 --workers 8]
 *
 * How fast the service fails while its database is down, and how soon it is ready again. Starts an
 * embedded PostgreSQL and the service, then `--workers` clients post to /api/enrich-order in a loop
 * (backing off 20 ms after a 503) while a probe calls /api/health/ready; the database is stopped for
 * `--seconds` and started again. Prints the answers by status, the latency of the requests sent while
 * the database was down (p50, p99, worst), the slowest readiness answer while it was down, and the
 * time from the database's restart to /api/health/ready answering 200.
 * Targets: no request waits more than 5 s while the database is down (it fails fast with 503); no
 * readiness answer takes more than 2 s (the readiness check's own timeout: a load balancer's probe
 * gets its 503 in time).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedPostgres, freePort } from '../src/database/embedded-postgres.js';
import { HttpClient } from '../test/support/http.js';
import { orderFor, seedFiscalData } from '../test/support/orders.js';
import { developmentToken, formatMs, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    workers: { type: 'string', default: '8' },
  },
});
const STORE = 'bench-outage-store';

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-database-outage-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), port: await freePort() });
  const databaseUrl = await database.start();
  const service = await startService({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'error',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
  });
  try {
    const http = new HttpClient(`${service.url}/api`);
    const token = await developmentToken(service.url);
    await seedFiscalData(http, token, STORE);

    const statuses = new Map<number, number>();
    const duringOutage: number[] = [];
    let outage = false;
    let running = true;
    let sequence = 0;
    const worker = async () => {
      while (running) {
        const sentDuringOutage = outage;
        const started = performance.now();
        const response = await http
          .post('/enrich-order', orderFor(`bench-outage-${++sequence}`, STORE), { token })
          .catch(() => ({ status: 0 }));
        if (sentDuringOutage && outage) duringOutage.push(performance.now() - started);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 503) await sleep(20);
      }
    };
    const workers = Array.from({ length: Number(values.workers) }, worker);
    const readinessDuringOutage: number[] = [];
    const readinessProbe = async () => {
      while (running) {
        const sentDuringOutage = outage;
        const started = performance.now();
        await http.get('/health/ready').catch(() => undefined);
        if (sentDuringOutage && outage) readinessDuringOutage.push(performance.now() - started);
        await sleep(50);
      }
    };
    const prober = readinessProbe();

    await sleep(1000);
    outage = true;
    await database.stop();
    await sleep(Number(values.seconds) * 1000);
    outage = false;
    const restarted = performance.now();
    await database.start();
    while ((await http.get('/health/ready')).status !== 200) {
      if (performance.now() - restarted > 60_000) throw new Error('the service was not ready within 60 s of the restart');
      await sleep(20);
    }
    const readyAfter = performance.now() - restarted;
    await sleep(1000);
    running = false;
    await Promise.all([...workers, prober]);

    duringOutage.sort((a, b) => a - b);
    process.stdout.write(
      `answers ${JSON.stringify(Object.fromEntries(statuses))}; while the database was down: ${duringOutage.length} requests, ` +
        `p50 ${formatMs(percentile(duringOutage, 0.5))}, p99 ${formatMs(percentile(duringOutage, 0.99))}, worst ${formatMs(duringOutage.at(-1) ?? 0)}; ` +
        `readiness: ${readinessDuringOutage.length} probes while down, slowest ${formatMs(Math.max(0, ...readinessDuringOutage))}; ` +
        `ready ${formatMs(readyAfter)} after the database restarted\n`,
    );
  } finally {
    await service.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
