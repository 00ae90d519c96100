/**
 * nice -n 10 npm run bench:reports [-- --orders 1000000 --runs 10 --batch 50000 --max-fill-seconds 1800 --max-fold-seconds 1800 --changed 10 --data-dir DIR]
 *
 * The tax report's speed (target: under 2 s for a month of 1 M orders). Starts an embedded PostgreSQL, migrates it,
 * fills it with the orders of `bench:orders` (test/support/order-fill.ts: 200 stores, 3 to 5 taxed lines each), here
 * over the last 30 days and in the order of their creation, as intake appends them; VACUUM ANALYZE; then folds the
 * hourly summaries as the `order-tax-fold` job does (`fold_order_tax_hours`, 24 hours a round, timed: the job's
 * catch-up after a deploy), starts the service (its own job off) and calls GET /api/admin/reports/tax `--runs` times
 * per shape, one request at a time, over HTTP:
 *
 * - the whole month, summaries up to date (the current hour summed live);
 * - the whole month after `--changed` orders of random hours were changed since the fold (re-taxed, cancelled): their
 *   hours are summed live;
 * - one store over the month.
 *
 * The fill and the fold stop at their time bounds (the machine may be too slow for a million in the time there is): the
 * report then says how many orders were measured, and hours not folded are summed live. EXPLAIN (ANALYZE, BUFFERS)
 * of the report's statement is printed. Results go to bench/results/reports-<time>.json; with `--data-dir`, the filled
 * database is kept there and a later run on it skips the fill.
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
import { TAX_REPORT } from '../src/orders/order-tax-report.repository.js';
import { fillOrdersSql } from '../test/support/order-fill.js';
import { developmentToken, PROJECT_ROOT, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '10' },
    batch: { type: 'string', default: '50000' },
    'max-fill-seconds': { type: 'string', default: '1800' },
    'max-fold-seconds': { type: 'string', default: '1800' },
    changed: { type: 'string', default: '10' },
    'data-dir': { type: 'string' },
  },
});
const totalOrders = Number(values.orders);
const runs = Number(values.runs);
const batchSize = Number(values.batch);
const maxFillSeconds = Number(values['max-fill-seconds']);
const maxFoldSeconds = Number(values['max-fold-seconds']);
const changedOrders = Number(values.changed);
/** A month of orders, one after the other in time as their numbers grow. */
const FILL_SQL = fillOrdersSql({ createdAt: `now() - interval '30 days' * (1 - g.n::double precision / ${totalOrders})` });
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
    await client.query(FILL_SQL, [first, last]);
    const elapsed = (performance.now() - started) / 1000;
    const rate = (last - already) / elapsed;
    out(`  ${String(last).padStart(9)} / ${totalOrders} orders  ${elapsed.toFixed(0).padStart(5)} s  ${rate.toFixed(0)} orders/s`);
  }
  const vacuumStarted = performance.now();
  await client.query('VACUUM ANALYZE orders');
  out(`  VACUUM ANALYZE in ${seconds(vacuumStarted)} s; filled in ${seconds(started)} s`);
  return last;
}

/** The job's rounds until the summaries reach the current hour or the time bound; what it took. */
async function fold(client: pg.Client): Promise<{ seconds: number; rounds: number; caughtUp: boolean }> {
  const started = performance.now();
  let rounds = 0;
  for (;;) {
    const { rows } = await client.query<{ hours: number; caught_up: boolean }>(`SELECT * FROM fold_order_tax_hours(24, interval '0 s')`);
    rounds += 1;
    if (rows[0]!.caught_up) break;
    if ((performance.now() - started) / 1000 > maxFoldSeconds) {
      out(`  fold time bound of ${maxFoldSeconds} s reached after ${rounds} rounds: the hours left are summed live`);
      break;
    }
  }
  await client.query('VACUUM ANALYZE order_tax_hour');
  const elapsed = (performance.now() - started) / 1000;
  const { rows } = await client.query<{ caught_up: boolean }>(
    `SELECT summarized_until >= date_trunc('hour', now() - interval '30 seconds', 'UTC') AS caught_up FROM order_tax_fold`,
  );
  out(`  folded in ${elapsed.toFixed(1)} s (${rounds} rounds)`);
  return { seconds: elapsed, rounds, caughtUp: rows[0]!.caught_up };
}

interface Shape {
  name: string;
  query: Record<string, string>;
  /** Orders of random hours to change (as a re-tax or a cancellation would) before this shape's runs. */
  changeFirst?: number;
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
    out('folding the hourly summaries as the order-tax-fold job does...');
    const folding = await fold(client);
    const { rows: data } = await client.query(`
      SELECT (SELECT count(*) FROM order_tax_hour)::int AS "summary rows",
             pg_size_pretty(pg_total_relation_size('order_tax_hour')) AS "order_tax_hour size",
             pg_size_pretty(pg_relation_size('ix_orders_updated_brin')) AS "BRIN index size",
             (SELECT to_char(min(created_at) AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') FROM orders) AS first_day,
             (SELECT to_char(max(created_at) AT TIME ZONE 'America/Sao_Paulo', 'YYYY-MM-DD') FROM orders) AS last_day`);
    const described = data[0] as Record<string, string>;
    out(`data: ${JSON.stringify({ orders, ...described, fold: folding })}`);
    const whole = { from: described.first_day!, to: described.last_day! };
    const shapes: Shape[] = [
      { name: `the month (${whole.from} to ${whole.to}), summaries up to date`, query: whole },
      { name: `the month, ${changedOrders} orders of random hours changed since the fold`, query: whole, changeFirst: changedOrders },
      { name: 'one store, the month', query: { ...whole, storeId: 'store-0042' } },
    ];

    service = await startService({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      WEBHOOK_RETRY_ENABLED: 'false',
    });
    // The service's own fold job starts a minute after boot. A transaction held open from here keeps its watermark
    // before the changes below (as any transaction under way would), so their hours stay summed live for every run.
    const holder = new pg.Client({ connectionString: databaseUrl, application_name: 'bench:reports holder' });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT 1');
    const headers = { authorization: `Bearer ${await developmentToken(service.url)}` };
    const results = [];
    for (const shape of shapes) {
      if (shape.changeFirst)
        await client.query(`UPDATE orders SET updated_at = now() WHERE id IN (SELECT id FROM orders TABLESAMPLE SYSTEM (1) LIMIT $1)`, [
          shape.changeFirst,
        ]);
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
    await holder.query('COMMIT');
    await holder.end();
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
        {
          when: new Date().toISOString(),
          settings: { totalOrders, runs, changedOrders },
          orders,
          data: described,
          fold: folding,
          results,
          plan: explained,
        },
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
