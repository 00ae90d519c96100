/**
 * npm run bench:reports [-- --orders 1000000 --runs 10 --batch 50000 --max-fill-seconds 1800 --data-dir DIR]
 *
 * The tax report's speed (target: under 2 s for a month of 1 M orders). Starts an embedded PostgreSQL, migrates it,
 * fills it with the orders of `bench:orders` (test/support/order-fill.ts: 200 stores, 90 days, 3 to 5 taxed lines
 * each; the trigger of migration OrderTaxLines writes their tax lines as intake would), VACUUM ANALYZE, then starts
 * the service and calls GET /api/admin/reports/tax `--runs` times per shape, one request at a time, over HTTP:
 *
 * - every order filled (90 days: the whole fill in one period, more than a month of the same number of orders holds);
 * - the last 30 days; one store over the 90 days.
 *
 * The fill stops at `--max-fill-seconds` (the machine may be too slow for a million in the time there is): the
 * report then says how many orders were measured. EXPLAIN (ANALYZE, BUFFERS) of the report's statement over every
 * order is printed. Results go to bench/results/reports-<time>.json; with `--data-dir`, the filled database is kept
 * there and a later run on it skips the fill.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { runPendingMigrations } from '../src/database/migrate.js';
import { TAX_REPORT } from '../src/reports/reports.repository.js';
import { FILL_ORDERS_SQL } from '../test/support/order-fill.js';
import { developmentToken, PROJECT_ROOT, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '10' },
    batch: { type: 'string', default: '50000' },
    'max-fill-seconds': { type: 'string', default: '1800' },
    'data-dir': { type: 'string' },
  },
});
const totalOrders = Number(values.orders);
const runs = Number(values.runs);
const batchSize = Number(values.batch);
const maxFillSeconds = Number(values['max-fill-seconds']);
const TARGET_MS = 2000;

const out = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const percentile = (sorted: number[], fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;

/** Fills up to `totalOrders`, stopping early at the time bound; answers the orders there are. */
async function fill(client: pg.Client, already: number): Promise<number> {
  await client.query('SELECT setseed(0.42)');
  const started = performance.now();
  let last = already;
  for (let first = already + 1; first <= totalOrders; first += batchSize) {
    if ((performance.now() - started) / 1000 > maxFillSeconds) {
      out(`  time bound of ${maxFillSeconds} s reached: measuring at ${last} orders`);
      break;
    }
    last = Math.min(totalOrders, first + batchSize - 1);
    await client.query(FILL_ORDERS_SQL, [first, last]);
    const elapsed = (performance.now() - started) / 1000;
    const rate = (last - already) / elapsed;
    out(`  ${String(last).padStart(9)} / ${totalOrders} orders  ${elapsed.toFixed(0).padStart(5)} s  ${rate.toFixed(0)} orders/s`);
  }
  const vacuumStarted = performance.now();
  await client.query('VACUUM ANALYZE orders');
  await client.query('VACUUM ANALYZE order_tax_line');
  out(`  VACUUM ANALYZE in ${seconds(vacuumStarted)} s; filled in ${seconds(started)} s`);
  return last;
}

interface Shape {
  name: string;
  query: Record<string, string>;
}

async function main(): Promise<void> {
  if (!Number.isInteger(totalOrders) || totalOrders < 1000) throw new Error('--orders must be an integer >= 1000');
  const keep = values['data-dir'];
  const directory = keep ?? (await mkdtemp(join(tmpdir(), 'bench-reports-')));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), settings: { max_wal_size: '8GB' } });
  const databaseUrl = await database.start();
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench:reports' });
  try {
    const migrator = await new DataSource(dataSourceOptions({ url: databaseUrl, poolSize: 2 })).initialize();
    await runPendingMigrations(migrator);
    await migrator.destroy();
    await client.connect();
    let orders = Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM orders')).rows[0]!.n);
    if (orders < totalOrders) {
      out(`filling ${totalOrders - orders} orders in batches of ${batchSize} (machine: shared; timings vary with its load)...`);
      orders = await fill(client, orders);
    } else out(`${orders} orders already in ${directory}; not filling again`);
    const { rows: data } = await client.query(`
      SELECT (SELECT count(*) FROM order_tax_line)::int AS "tax lines",
             pg_size_pretty(pg_total_relation_size('order_tax_line')) AS "order_tax_line size",
             pg_size_pretty(pg_relation_size('ix_order_tax_line_created')) AS "report index size",
             (SELECT to_char(min(created_at) AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') FROM orders) AS first_day,
             (SELECT to_char(max(created_at) AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') FROM orders) AS last_day,
             to_char((now() - interval '29 days') AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') AS month_start`);
    const described = data[0] as Record<string, string>;
    out(`data: ${JSON.stringify({ orders, ...described })}`);
    const whole = { from: described.first_day!, to: described.last_day! };
    const shapes: Shape[] = [
      { name: `every order (${whole.from} to ${whole.to})`, query: whole },
      { name: 'last 30 days', query: { from: described.month_start!, to: whole.to } },
      { name: 'one store, every day', query: { ...whole, storeId: 'store-0042' } },
    ];

    service = await startService({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      WEBHOOK_RETRY_ENABLED: 'false',
    });
    const headers = { authorization: `Bearer ${await developmentToken(service.url)}` };
    const results = [];
    for (const shape of shapes) {
      const url = new URL(`${service.url}/api/admin/reports/tax`);
      for (const [name, value] of Object.entries(shape.query)) url.searchParams.set(name, value);
      const latencies: number[] = [];
      let covered = 0;
      // One warm-up call, then the runs.
      for (let run = 0; run <= runs; run++) {
        const started = performance.now();
        const response = await fetch(url, { headers });
        const text = await response.text();
        const elapsed = performance.now() - started;
        if (response.status !== 200) throw new Error(`${shape.name}: ${response.status} ${text}`);
        covered = (JSON.parse(text) as { totals: { orders: number } }).totals.orders;
        if (run > 0) latencies.push(elapsed);
      }
      latencies.sort((a, b) => a - b);
      results.push({
        shape: shape.name,
        query: shape.query,
        orders: covered,
        p50: percentile(latencies, 0.5),
        p95: percentile(latencies, 0.95),
      });
    }
    out(
      [
        '',
        `| report shape (${orders.toLocaleString('en')} orders stored) | orders reported | p50 | p95 | target | |`,
        '|---|---:|---:|---:|---:|---|',
        ...results.map(
          (r) =>
            `| ${r.shape} | ${r.orders.toLocaleString('en')} | ${r.p50.toFixed(0)} ms | ${r.p95.toFixed(0)} ms | ${TARGET_MS} ms | ${r.p95 <= TARGET_MS ? 'met' : '**missed**'} |`,
        ),
        '',
      ].join('\n'),
    );
    const { rows: plan } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${TAX_REPORT.text}`, [
      whole.from,
      whole.to,
      'America/Sao_Paulo',
      null,
      null,
      null,
    ]);
    const explained = plan.map((row) => row['QUERY PLAN']).join('\n');
    out(`EXPLAIN (ANALYZE, BUFFERS) of the report over every order:\n${explained}\n`);
    await mkdir(join(PROJECT_ROOT, 'bench/results'), { recursive: true });
    const file = join(PROJECT_ROOT, 'bench/results', `reports-${Date.now()}.json`);
    await writeFile(
      file,
      JSON.stringify(
        { when: new Date().toISOString(), settings: { totalOrders, runs }, orders, data: described, results, plan: explained },
        null,
        2,
      ),
    );
    out(`results: ${file}`);
  } finally {
    await client.end().catch(() => undefined);
    await service?.stop();
    await database.stop();
    if (!keep) await rm(directory, { recursive: true, force: true });
  }
}

await main();
