/**
 * npm run bench:receiver-faults [-- --seconds 3 --forwarders 6]
 *
 * How fast the service's other routes answer while the order webhook misbehaves. Starts an
 * embedded PostgreSQL, a faulty receiver (the one of the receiver-faults reliability test) and the
 * service (ORDER_WEBHOOK_TIMEOUT_MS 800, retries on); then, for `--seconds` per fault (the receiver
 * hangs, resets connections, answers after 600 ms, refuses connections), `--forwarders` clients post
 * to /api/enrich-order-forward in a loop while a probe lists orders and enriches one, in turn. Prints,
 * per fault, the forwards' answers and longest time, and the probe's latency (p50, p99, worst); then
 * how long the retries take to deliver every order once the receiver is back.
 * Targets: the probe's p99 under 500 ms in every fault (the other routes do not queue behind a hung
 * receiver); no forward longer than 2.5 s (the 800 ms timeout, and a 600 ms answer within it).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { FaultyReceiver, type ReceiverMode } from '../test/support/faulty-receiver.js';
import { HttpClient } from '../test/support/http.js';
import { orderFor, seedFiscalData } from '../test/support/orders.js';
import { developmentToken, formatMs, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '3' },
    forwarders: { type: 'string', default: '6' },
  },
});
const seconds = Number(values.seconds);
const forwarders = Number(values.forwarders);
const STORE = 'bench-faults-store';

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-receiver-faults-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  const databaseUrl = await database.start();
  const receiver = new FaultyReceiver();
  await receiver.listen();
  const service = await startService({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    ORDER_WEBHOOK_URL: `http://127.0.0.1:${receiver.port}/orders`,
    ORDER_WEBHOOK_TIMEOUT_MS: '800',
    WEBHOOK_RETRY_ENABLED: 'true',
    WEBHOOK_RETRY_SCHEDULE: '500ms,1s,1s,1s,1s,1s,1s,1s',
    DATABASE_POOL_SIZE: '20',
  });
  try {
    const http = new HttpClient(`${service.url}/api`);
    const token = await developmentToken(service.url);
    await seedFiscalData(http, token, STORE);

    const forwarded: string[] = [];
    let sequence = 0;
    for (const mode of ['hang', 'reset', 'slow', 'refuse'] as ReceiverMode[]) {
      if (mode === 'refuse') await receiver.refuse();
      else receiver.mode = mode;
      const deadline = Date.now() + seconds * 1000;
      const statuses = new Map<number, number>();
      let longestForward = 0;
      const probes: number[] = [];
      const forwarder = async () => {
        while (Date.now() < deadline) {
          const orderId = `bench-fault-${++sequence}`;
          const started = performance.now();
          const response = await http.post('/enrich-order-forward', orderFor(orderId, STORE), { token });
          longestForward = Math.max(longestForward, performance.now() - started);
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          if (response.status === 200 || response.status === 502) forwarded.push(orderId);
        }
      };
      const probe = async () => {
        while (Date.now() < deadline) {
          const started = performance.now();
          await http.get('/admin/orders', { token, query: { storeId: STORE, pageSize: 5 } });
          await http.post('/enrich-order', orderFor(`bench-probe-${++sequence}`, STORE), { token });
          probes.push((performance.now() - started) / 2);
        }
      };
      await Promise.all([...Array.from({ length: forwarders }, forwarder), probe()]);
      probes.sort((a, b) => a - b);
      process.stdout.write(
        `${mode.padEnd(6)}: forwards ${JSON.stringify(Object.fromEntries(statuses))}, longest ${formatMs(longestForward)}; ` +
          `other routes: ${probes.length} probes, p50 ${formatMs(percentile(probes, 0.5))}, p99 ${formatMs(percentile(probes, 0.99))}, ` +
          `worst ${formatMs(probes.at(-1) ?? 0)}\n`,
      );
    }

    receiver.mode = 'healthy';
    await receiver.listen();
    const recovered = performance.now();
    while (!forwarded.every((orderId) => receiver.delivered.has(orderId))) {
      if (performance.now() - recovered > 120_000) throw new Error('the retries did not deliver every order within 2 min');
      await new Promise((done) => setTimeout(done, 50));
    }
    process.stdout.write(
      `recovery: all ${forwarded.length} orders delivered ${formatMs(performance.now() - recovered)} after the receiver came back\n`,
    );
  } finally {
    await service.stop();
    await receiver.close();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
