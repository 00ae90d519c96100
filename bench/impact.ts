/**
 * npm run bench:impact [-- --orders 10000 --runs 5 --profile]
 *
 * The impact preview at its largest: starts an embedded PostgreSQL and the service (with the demo
 * fiscal group and categories), stores `--orders` realistic orders (bench/order-fixture.ts: 10 lines
 * and 6 selected modifiers each, ~4 KB, stored ENRICHED with their enriched payload) on the demo
 * group's store over the last 23 hours, then calls POST /api/admin/fiscal-groups/{id}/impact with a
 * proposal that raises the ICMS rate of prepared food (18 % → 20 %) and takes bakery products out of
 * the matrix, `--runs` times after one warm-up call, one at a time, and prints each time, p50 and
 * the worst against the 5 s target. `--profile` writes a CPU profile of the service to bench/results/.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DEMO_STORE_ID, DEMO_TAX_MATRIX } from '../src/demo/demo-data.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { developmentToken, PROJECT_ROOT, startService } from './bench-support.js';
import { fillImpactOrders } from './impact-fill.js';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
    profile: { type: 'boolean', default: false },
  },
});
const totalOrders = Number(values.orders);
const runs = Number(values.runs);
const TARGET_MS = 5000;

const out = (line: string) => process.stdout.write(`${line}\n`);

interface Impact {
  compared: { orders: number; lines: number };
  changed: { orders: number; lines: number };
  linesLosingTaxes: { lines: number };
  totals: Record<string, { before: number; after: number; change: number }>;
}

async function main(): Promise<void> {
  if (!Number.isInteger(totalOrders) || totalOrders < 1) throw new Error('--orders must be a positive integer');
  const directory = await mkdtemp(join(tmpdir(), 'bench-impact-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  const databaseUrl = await database.start();
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench:impact' });
  try {
    const resultsDir = join(PROJECT_ROOT, 'bench/results');
    await mkdir(resultsDir, { recursive: true });
    service = await startService(
      {
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        SEED_DEMO_DATA: 'true',
        JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
        WEBHOOK_RETRY_ENABLED: 'false',
      },
      values.profile ? ['--cpu-prof', `--cpu-prof-dir=${resultsDir}`] : [],
    );
    const token = await developmentToken(service.url);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const group = (
      (await (await fetch(`${service.url}/api/admin/fiscal-groups?storeId=${DEMO_STORE_ID}`, { headers })).json()) as {
        items: { id: string }[];
      }
    ).items[0]!;
    await client.connect();
    const started = performance.now();
    out(`storing ${totalOrders} orders of the demo store...`);
    await fillImpactOrders(client, group.id, totalOrders);
    const { rows } = await client.query<{ bytes: string }>(
      `SELECT round(avg(length(payload::text))) AS bytes FROM orders WHERE store_id = $1`,
      [DEMO_STORE_ID],
    );
    out(`  stored in ${((performance.now() - started) / 1000).toFixed(1)} s; payload ${rows[0]!.bytes} bytes on average`);

    const { '1905': _bakery, ...withoutBakery } = DEMO_TAX_MATRIX;
    const proposal = { taxMatrix: { ...withoutBakery, '21069090': { ...DEMO_TAX_MATRIX['21069090']!, ICMS_rate: 20 } } };
    const call = async (): Promise<{ ms: number; body: Impact }> => {
      const callStarted = performance.now();
      const response = await fetch(`${service!.url}/api/admin/fiscal-groups/${group.id}/impact`, {
        method: 'POST',
        headers,
        body: JSON.stringify(proposal),
      });
      const body = (await response.json()) as Impact;
      if (response.status !== 200) throw new Error(`the preview answered ${response.status}: ${JSON.stringify(body)}`);
      return { ms: performance.now() - callStarted, body };
    };

    await call(); // warm-up (JIT, the categories' cache, the prepared statements)
    const times: number[] = [];
    let last: Impact | undefined;
    for (let run = 0; run < runs; run++) {
      const { ms, body } = await call();
      times.push(ms);
      last = body;
      out(`  run ${run + 1}: ${ms.toFixed(0)} ms`);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const p50 = sorted[Math.ceil(sorted.length / 2) - 1]!;
    const worst = sorted[sorted.length - 1]!;
    out(
      [
        '',
        `compared ${last!.compared.orders} orders, ${last!.compared.lines} lines; changed ${last!.changed.orders} orders, ${last!.changed.lines} lines; ${last!.linesLosingTaxes.lines} lines lose their taxes`,
        `total_tax ${JSON.stringify(last!.totals.total_tax)}`,
        `| impact preview (${totalOrders} orders) | p50 | worst | target |`,
        '|---|---:|---:|---:|',
        `| POST /api/admin/fiscal-groups/{id}/impact | ${p50.toFixed(0)} ms | ${worst.toFixed(0)} ms | ${TARGET_MS} ms ${worst <= TARGET_MS ? 'met' : '**missed**'} |`,
        '',
      ].join('\n'),
    );
    const file = join(resultsDir, `impact-${Date.now()}.json`);
    await writeFile(
      file,
      JSON.stringify({ when: new Date().toISOString(), settings: { totalOrders, runs }, times, p50, worst, last }, null, 2),
    );
    out(`results: ${file}`);
  } finally {
    await client.end().catch(() => undefined);
    await service?.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
