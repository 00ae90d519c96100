/**
 * npm run bench:stall [-- --seconds 10 --lines 2000]
 *
 * How long the largest legal order holds the event loop. Starts an embedded PostgreSQL and
 * the service (demo fiscal data), then for 1 and for 4 concurrent senders posts orders of
 * `--lines` taxed lines (ORDER_MAX_LINES, about 1 MiB of JSON) to /api/enrich-order in a loop,
 * while another connection polls GET /api/health/live every 5 ms. Prints, per phase, the
 * orders sent, the liveness delay (p50, p99, worst) and the service's peak RSS. Target: the
 * worst liveness delay under 100 ms. `--profile` writes a CPU profile to bench/results/.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { DEMO_STORE_ID } from '../src/demo/demo-data.js';
import { developmentToken, processPeakRssMiB, PROJECT_ROOT, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    lines: { type: 'string', default: '2000' },
    profile: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const lineCount = Number(values.lines);

const PRODUCTS = ['demo-burger', 'demo-fries', 'demo-cola', 'demo-water', 'demo-brownie'];

/** An order of `lines` taxed lines, padded to about 500 bytes each (2000 lines: about 1 MiB, the default body limit). */
function largestOrder(orderId: string, lines: number): string {
  const products = Array.from({ length: lines }, (_, index) => ({
    id: `${orderId}-${index}`,
    productId: PRODUCTS[index % PRODUCTS.length],
    name: `Item ${index}`,
    quantity: 1 + (index % 3),
    observations: 'Sem cebola, bem passado, molho à parte, guardanapos extras; '.repeat(5),
    price: { unitPrice: { total: 12.9 }, totalPrice: { total: 12.9 * (1 + (index % 3)) } },
  }));
  return JSON.stringify({ orderId, source: 'bench', store: { id: DEMO_STORE_ID }, order: { type: 'DELIVERY', products } });
}

function post(url: string, path: string, body: string, headers: Record<string, string>, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const call = request(
      `${url}${path}`,
      { method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      },
    );
    call.once('error', reject);
    call.end(body);
  });
}

function get(url: string, agent: Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { agent }, (response) => {
      response.resume();
      response.once('end', () => resolve(response.statusCode ?? 0));
    })
      .once('error', reject)
      .end();
  });
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

async function phase(url: string, token: string, senders: number, pid: number): Promise<void> {
  const delays: number[] = [];
  let sent = 0;
  const statuses = new Map<number, number>();
  const deadline = Date.now() + seconds * 1000;
  const pollAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const poller = (async () => {
    while (Date.now() < deadline) {
      const started = performance.now();
      await get(`${url}/api/health/live`, pollAgent);
      delays.push(performance.now() - started);
      await new Promise((done) => setTimeout(done, 5));
    }
  })();
  const senderAgent = new Agent({ keepAlive: true, maxSockets: senders });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  await Promise.all(
    Array.from({ length: senders }, async (_, sender) => {
      while (Date.now() < deadline) {
        const status = await post(
          url,
          '/api/enrich-order',
          largestOrder(`stall-${senders}-${sender}-${sent}`, lineCount),
          headers,
          senderAgent,
        );
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        sent += 1;
      }
    }),
  );
  await poller;
  pollAgent.destroy();
  senderAgent.destroy();
  delays.sort((a, b) => a - b);
  const format = (ms: number) => `${ms.toFixed(1)} ms`;
  process.stdout.write(
    `${senders} sender(s): ${sent} orders of ${lineCount} lines (${JSON.stringify(Object.fromEntries(statuses))}); ` +
      `liveness delay p50 ${format(percentile(delays, 0.5))}, p99 ${format(percentile(delays, 0.99))}, worst ${format(delays.at(-1) ?? 0)} ` +
      `over ${delays.length} polls; peak RSS ${processPeakRssMiB(pid) ?? 0} MiB\n`,
  );
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-stall-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  const databaseUrl = await database.start();
  const service = await startService(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      WEBHOOK_RETRY_ENABLED: 'false',
      BODY_LIMIT_BYTES: String(2 * 1024 * 1024),
    },
    values.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(PROJECT_ROOT, 'bench/results')}`] : [],
  );
  try {
    const accessToken = await developmentToken(service.url);
    const size = Buffer.byteLength(largestOrder('size-check', lineCount));
    process.stdout.write(`order body: ${(size / 1024).toFixed(0)} KiB, ${lineCount} lines; ${seconds} s per phase\n`);
    for (const senders of [1, 4]) await phase(service.url, accessToken, senders, service.child.pid!);
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
