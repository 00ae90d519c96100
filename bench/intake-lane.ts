/**
 * npm run bench:intake-lane [-- --duration 15 --rounds 2 --warmup 3 --orders 10000 --preview-clients 2]
 *
 * Order intake with impact previews in flight, against order intake alone, side by side in one run.
 * Starts an embedded PostgreSQL and the service (demo fiscal group and categories), stores `--orders`
 * realistic orders of the demo store over the last 23 hours (what a preview compares), then loads
 * POST /api/enrich-order with 32 connections (a realistic 10-line order, a unique orderId per request) in
 * rounds of `--duration` seconds: one round alone, one with `--preview-clients` clients each sending
 * POST /api/admin/fiscal-groups/{id}/impact again as soon as its previous one answered (so the instance's
 * 2 places stay taken; a client beyond them gets 429 and tries again after a moment). The order of the
 * two kinds of round alternates. It prints intake's req/s and p99 per round, the ratio of intake with
 * previews to intake alone (target: at least 0.80), and what the previews answered.
 */
import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEMO_STORE_ID, DEMO_TAX_MATRIX } from '../src/demo/demo-data.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { developmentToken, startService } from './bench-support.js';
import { fillImpactOrders } from './impact-fill.js';
import { benchmarkOrder } from './order-fixture.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '3' },
    orders: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '32' },
    'preview-clients': { type: 'string', default: '2' },
  },
});
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const totalOrders = Number(values.orders);
const connections = Number(values.connections);
const previewClients = Number(values['preview-clients']);
const TARGET_RATIO = 0.8;
/** How long a client refused with 429 waits before it asks again (it does not wait the whole Retry-After: the bench keeps the places taken). */
const REFUSED_PAUSE_MS = 200;

const out = (line: string) => process.stdout.write(`${line}\n`);

interface IntakeRound {
  rps: number;
  p99: number;
  non2xx: number;
  errors: number;
}

interface PreviewTally {
  answered: Map<number, number>;
  durationsMs: number[];
}

const template = JSON.stringify(benchmarkOrder('__ORDER_ID__'));
let sequence = 0;

async function intake(url: string, headers: Record<string, string>, seconds: number): Promise<IntakeRound> {
  const runId = Date.now().toString(36);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/enrich-order',
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => ({ ...request, body: template.replace('__ORDER_ID__', `intake-${runId}-${++sequence}`) }),
      },
    ],
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors + result.timeouts };
}

/** `previewClients` loops sending previews back to back until `stop` is aborted. */
function previewsInFlight(url: string, headers: Record<string, string>, body: string, stop: AbortSignal): Promise<PreviewTally> {
  const tally: PreviewTally = { answered: new Map(), durationsMs: [] };
  const client = async () => {
    while (!stop.aborted) {
      const started = performance.now();
      const response = await fetch(url, { method: 'POST', headers, body });
      await response.arrayBuffer();
      tally.answered.set(response.status, (tally.answered.get(response.status) ?? 0) + 1);
      if (response.status === 200) tally.durationsMs.push(performance.now() - started);
      if (response.status === 429) await sleep(REFUSED_PAUSE_MS);
    }
  };
  return Promise.all(Array.from({ length: previewClients }, client)).then(() => tally);
}

function median(numbers: number[]): number {
  if (numbers.length === 0) return Number.NaN;
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.ceil(sorted.length / 2) - 1]!;
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-intake-lane-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  const databaseUrl = await database.start();
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench:intake-lane' });
  try {
    service = await startService({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      WEBHOOK_RETRY_ENABLED: 'false',
    });
    const token = await developmentToken(service.url);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const groups = (await (await fetch(`${service.url}/api/admin/fiscal-groups?storeId=${DEMO_STORE_ID}`, { headers })).json()) as {
      items: { id: string }[];
    };
    const groupId = groups.items[0]!.id;
    await client.connect();
    out(`storing ${totalOrders} orders of the demo store...`);
    await fillImpactOrders(client, groupId, totalOrders);

    const { '1905': _bakery, ...withoutBakery } = DEMO_TAX_MATRIX;
    const proposal = JSON.stringify({ taxMatrix: { ...withoutBakery, '21069090': { ...DEMO_TAX_MATRIX['21069090']!, ICMS_rate: 20 } } });
    const previewUrl = `${service.url}/api/admin/fiscal-groups/${groupId}/impact`;

    out(`warm-up: ${warmup} s of intake, one preview`);
    await intake(service.url, headers, warmup);
    await fetch(previewUrl, { method: 'POST', headers, body: proposal }).then((response) => response.arrayBuffer());

    const alone: IntakeRound[] = [];
    const withPreviews: IntakeRound[] = [];
    const previews: PreviewTally = { answered: new Map(), durationsMs: [] };
    for (let round = 0; round < rounds; round++) {
      const kinds = round % 2 === 0 ? (['alone', 'with previews'] as const) : (['with previews', 'alone'] as const);
      for (const kind of kinds) {
        if (kind === 'alone') {
          const measured = await intake(service.url, headers, duration);
          alone.push(measured);
          out(`  round ${round + 1}, intake alone:         ${measured.rps.toFixed(0)} req/s, p99 ${measured.p99} ms`);
          continue;
        }
        const stop = new AbortController();
        const inFlight = previewsInFlight(previewUrl, headers, proposal, stop.signal);
        const measured = await intake(service.url, headers, duration);
        stop.abort();
        const tally = await inFlight;
        for (const [status, count] of tally.answered) previews.answered.set(status, (previews.answered.get(status) ?? 0) + count);
        previews.durationsMs.push(...tally.durationsMs);
        withPreviews.push(measured);
        out(
          `  round ${round + 1}, intake with previews: ${measured.rps.toFixed(0)} req/s, p99 ${measured.p99} ms; previews ${JSON.stringify(Object.fromEntries(tally.answered))}`,
        );
      }
    }
    const mean = (list: IntakeRound[]) => list.reduce((sum, each) => sum + each.rps, 0) / list.length;
    const ratio = mean(withPreviews) / mean(alone);
    const failures = [...alone, ...withPreviews].reduce((sum, each) => sum + each.non2xx + each.errors, 0);
    out(
      [
        '',
        `| order intake (POST /api/enrich-order, ${connections} connections) | req/s |`,
        '|---|---:|',
        `| alone | ${mean(alone).toFixed(0)} |`,
        `| with ${previewClients} clients sending impact previews of ${totalOrders} orders | ${mean(withPreviews).toFixed(0)} |`,
        '',
        `ratio ${ratio.toFixed(2)} (target: at least ${TARGET_RATIO.toFixed(2)}, ${ratio >= TARGET_RATIO ? 'met' : '**missed**'}); intake non-2xx or errors: ${failures}`,
        `previews answered ${JSON.stringify(Object.fromEntries(previews.answered))}; a 200 took ${median(previews.durationsMs).toFixed(0)} ms (median)`,
        '',
      ].join('\n'),
    );
  } finally {
    await client.end().catch(() => undefined);
    await service?.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
