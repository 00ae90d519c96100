/**
 * npm run bench:orders [-- --orders 1000000 --runs 50 --batch 50000 --data-dir DIR]
 *
 * Starts an embedded PostgreSQL, migrates it, fills it with realistic orders generated in
 * SQL (test/support/order-fill.ts, shared with the query-plan test) with progress output,
 * builds the list indexes, VACUUM ANALYZE, then starts the service and calls
 * GET /api/admin/orders `--runs` times per query shape
 * (one request at a time, over HTTP, count included) and prints p50/p95 per shape against
 * its target, with the orderId index's pending list as full as intake leaves it (`fillPendingList`).
 * Shapes over target get their EXPLAIN (ANALYZE, BUFFERS) printed. Results go to
 * bench/results/orders-<time>.json. With `--data-dir`, the database is kept there and a later
 * run on the same directory skips the fill (to measure again after a code change).
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
import { toOrderListFilter } from '../src/orders/orders-query.service.js';
import { orderCountQuery, orderPageQuery } from '../src/orders/order-list.sql.js';
import type { OrderListQuery } from '../src/orders/dto/order-list.query.js';
import { FILL_DELIVERIES_SQL, FILL_ORDERS_SQL } from '../test/support/order-fill.js';
import { developmentToken, PROJECT_ROOT, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000000' },
    runs: { type: 'string', default: '50' },
    batch: { type: 'string', default: '50000' },
    warmup: { type: 'string', default: '5' },
    'data-dir': { type: 'string' },
  },
});
const totalOrders = Number(values.orders);
const runs = Number(values.runs);
const batchSize = Number(values.batch);
const warmup = Number(values.warmup);

/** The indexes of migrations OrderListIndexes1763760000000 and DashboardStats1763820000000: built after the fill, as on an existing table. */
const LIST_INDEXES = [
  'ix_orders_enrichment_failed',
  'ix_orders_store_created',
  'ix_orders_status_created',
  'ix_orders_source_created',
  'ix_orders_attempts_created',
  'ix_orders_order_id_trgm',
];

interface Shape {
  name: string;
  /** Default: the order list. */
  path?: string;
  query: Record<string, string>;
  /** None for the reference rows. */
  targetMs?: number;
}

interface Measured {
  shape: string;
  query: Record<string, string>;
  targetMs?: number;
  total: number;
  items: number;
  p50: number;
  p95: number;
  max: number;
  met: boolean;
}

const out = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function fill(client: pg.Client): Promise<void> {
  const definitions = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'orders' AND indexname = ANY($1)`,
    [LIST_INDEXES],
  );
  for (const { indexname } of definitions.rows) await client.query(`DROP INDEX ${indexname}`);
  await client.query('SELECT setseed(0.42)');
  const started = performance.now();
  for (let first = 1; first <= totalOrders; first += batchSize) {
    const last = Math.min(totalOrders, first + batchSize - 1);
    await client.query(FILL_ORDERS_SQL, [first, last]);
    const elapsed = (performance.now() - started) / 1000;
    const rate = last / elapsed;
    out(
      `  ${String(last).padStart(9)} / ${totalOrders} orders  ${elapsed.toFixed(0).padStart(4)} s  ${rate.toFixed(0)} orders/s  eta ${((totalOrders - last) / rate).toFixed(0)} s`,
    );
  }
  await client.query(`SET maintenance_work_mem = '512MB'`);
  for (const { indexname, indexdef } of definitions.rows) {
    const indexStarted = performance.now();
    await client.query(indexdef);
    out(`  built ${indexname} in ${seconds(indexStarted)} s`);
  }
  const folded = await client.query<{ n: string }>('SELECT fold_order_counts() + fold_order_id_fragment_counts() AS n');
  out(`  folded ${folded.rows[0]!.n} counter rows`);
  const vacuumStarted = performance.now();
  await client.query('VACUUM ANALYZE orders');
  await client.query('VACUUM ANALYZE order_status_history');
  await client.query('VACUUM ANALYZE order_count_day');
  out(`  VACUUM ANALYZE in ${seconds(vacuumStarted)} s; filled in ${seconds(started)} s`);
}

/**
 * The delivery log of the filled orders, one row per counted attempt (2xx mostly, some 503 and
 * timeouts), so the dashboard's forward outcomes read a log the size of the orders'.
 */
async function fillDeliveries(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ present: boolean }>('SELECT EXISTS (SELECT 1 FROM webhook_delivery) AS present');
  if (rows[0]!.present) return;
  const started = performance.now();
  await client.query('SELECT setseed(0.17)');
  const inserted = await client.query(FILL_DELIVERIES_SQL);
  await client.query('VACUUM ANALYZE webhook_delivery');
  out(`  delivery log: ${inserted.rowCount} attempts in ${seconds(started)} s`);
}

async function describeData(client: pg.Client): Promise<Record<string, unknown>> {
  const { rows } = await client.query(`
    SELECT count(*)::int AS orders,
      count(DISTINCT store_id)::int AS stores,
      count(DISTINCT source)::int AS sources,
      count(DISTINCT status)::int AS statuses,
      min(created_at) AS first, max(created_at) AS last,
      round(100.0 * count(*) FILTER (WHERE webhook_attempts >= 3) / count(*), 1) AS "attempts>=3 %",
      round(avg(length(payload::text))) AS "payload bytes", round(avg(length(enriched_payload::text))) AS "enriched bytes",
      pg_size_pretty(pg_total_relation_size('orders')) AS "orders total size",
      pg_size_pretty(pg_indexes_size('orders')) AS "orders index size"
    FROM orders`);
  return rows[0] as Record<string, unknown>;
}

/**
 * The orderId index takes new entries into a pending list (64 kB) that every substring search reads whole, and that
 * the list's searches therefore are measured with as full as intake leaves it just before a merge. Orders inserted
 * in a transaction that is then rolled back fill it (their entries stay, pointing at dead rows) without changing
 * any total. pgstattuple (a contrib module of PostgreSQL) reads the list's size.
 */
async function fillPendingList(client: pg.Client): Promise<Record<string, unknown>> {
  const { rows: options } = await client.query<{ fastupdate: boolean; limit_kb: number }>(
    `SELECT coalesce(option_value, 'on') = 'on' AS fastupdate,
       coalesce((SELECT option_value::int FROM pg_options_to_table(c.reloptions) WHERE option_name = 'gin_pending_list_limit'),
                current_setting('gin_pending_list_limit')::int) AS limit_kb
     FROM pg_class c LEFT JOIN pg_options_to_table(c.reloptions) o ON o.option_name = 'fastupdate'
     WHERE c.relname = 'ix_orders_order_id_trgm'`,
  );
  const { fastupdate, limit_kb: limitKb } = options[0]!;
  if (!fastupdate) return { pendingList: 'off' };
  await client.query('CREATE EXTENSION IF NOT EXISTS pgstattuple');
  const pending = async () =>
    (
      await client.query<{ pages: number; tuples: string }>(
        `SELECT pending_pages AS pages, pending_tuples AS tuples FROM pgstatginindex('ix_orders_order_id_trgm')`,
      )
    ).rows[0]!;
  // The list is merged once it passes the limit: stop one page short of it.
  const fullPages = Math.floor(limitKb / 8) - 1;
  await client.query('BEGIN');
  let inserted = 0;
  for (let state = await pending(); state.pages < fullPages && inserted < 10_000; state = await pending()) {
    await client.query(
      `INSERT INTO orders (order_id, status, payload, source, store_id)
       SELECT 'PND-' || upper(substr(md5(random()::text), 1, 16)), 'RECEIVED', '{}'::jsonb, 'bench', 'bench' FROM generate_series(1, 5)`,
    );
    inserted += 5;
  }
  await client.query('ROLLBACK');
  const state = await pending();
  return { pendingList: `${state.pages} of ${Math.floor(limitKb / 8)} pages, ${state.tuples} entries (${inserted} orders rolled back)` };
}

/** What any request costs on this machine: no database (health), and an admin list on an empty table. */
const REFERENCE_SHAPES: Shape[] = [
  { name: 'reference: GET /api/health/live', path: '/api/health/live', query: {} },
  { name: 'reference: GET /api/admin/fiscal-groups (empty)', path: '/api/admin/fiscal-groups', query: {} },
];

async function pickShapes(client: pg.Client): Promise<Shape[]> {
  const { rows: ids } = await client.query<{ order_id: string }>(`SELECT order_id FROM orders ORDER BY id LIMIT 1 OFFSET $1`, [
    Math.floor(totalOrders * 0.37),
  ]);
  const orderId = ids[0]!.order_id;
  // 8 characters from the middle of a real id, lower-cased (the search is case-insensitive).
  const fragment = orderId.slice(6, 14).toLowerCase();
  const { rows: days } = await client.query<{ yesterday: string; week_ago: string; month_ago: string }>(`
    SELECT to_char((now() - interval '1 day') AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS yesterday,
           to_char((now() - interval '7 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS week_ago,
           to_char((now() - interval '30 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS month_ago`);
  const { yesterday, week_ago: weekAgo, month_ago: monthAgo } = days[0]!;
  const dayAgo = new Date(Date.now() - 86_400_000).toISOString();
  const now = new Date().toISOString();
  const store = 'store-0042';
  return [
    { name: 'no filter, page 1', query: {}, targetMs: 50 },
    { name: 'no filter, page 500', query: { page: '500' }, targetMs: 50 },
    { name: 'storeId', query: { storeId: store }, targetMs: 10 },
    { name: 'storeId, page 100', query: { storeId: store, page: '100' }, targetMs: 10 },
    { name: 'storeId + status', query: { storeId: store, status: 'CANCELLED' }, targetMs: 10 },
    { name: 'storeId + date range (7 days)', query: { storeId: store, createdFrom: weekAgo, createdTo: now }, targetMs: 10 },
    { name: `orderId fragment (8 chars "${fragment}")`, query: { orderId: fragment }, targetMs: 10 },
    { name: `orderId fragment (4 chars "${fragment.slice(0, 4)}")`, query: { orderId: fragment.slice(0, 4) }, targetMs: 10 },
    {
      name: `storeId + orderId fragment (2 chars "${fragment.slice(0, 2)}")`,
      query: { storeId: store, orderId: fragment.slice(0, 2) },
      targetMs: 10,
    },
    // Too short for trigrams and not narrowed by anything else: the page filters the creation index (which carries
    // order_id), the count sums the per-fragment counters.
    { name: `orderId fragment (2 chars "${fragment.slice(0, 2)}") alone`, query: { orderId: fragment.slice(0, 2) }, targetMs: 50 },
    // A short fragment no orderId holds (a typo in the console's search box): the counters say so, and no page is read.
    { name: 'orderId fragment (2 chars "zz", no match) alone', query: { orderId: 'zz' }, targetMs: 10 },
    { name: 'source', query: { source: 'rappi' }, targetMs: 50 },
    { name: 'status', query: { status: 'CANCELLED' }, targetMs: 50 },
    { name: 'status, page 500', query: { status: 'DELIVERED', page: '500' }, targetMs: 50 },
    {
      name: 'createdFrom + createdTo (one UTC day)',
      query: { createdFrom: `${yesterday}T00:00:00Z`, createdTo: `${yesterday}T23:59:59.999999Z` },
      targetMs: 50,
    },
    { name: 'createdFrom (last 24 h)', query: { createdFrom: dayAgo }, targetMs: 50 },
    { name: 'createdTo (older than 30 days)', query: { createdTo: monthAgo }, targetMs: 50 },
    {
      name: 'createdFrom + createdTo (30 days) + source + status',
      query: { createdFrom: monthAgo, createdTo: now, source: 'ifood', status: 'DELIVERED' },
      targetMs: 50,
    },
    { name: 'minWebhookAttempts 3', query: { minWebhookAttempts: '3' }, targetMs: 50 },
    { name: 'maxWebhookAttempts 0', query: { maxWebhookAttempts: '0' }, targetMs: 50 },
    { name: 'minWebhookAttempts 3 + source', query: { minWebhookAttempts: '3', source: 'ifood' }, targetMs: 50 },
    // The console's dashboard (target: p95 <= 50 ms at 1 M orders).
    ...(['24h', '7d'] as const).flatMap((range) => [
      { name: `stats: orders per hour (${range})`, path: '/api/admin/stats/orders-per-hour', query: { range }, targetMs: 50 },
      { name: `stats: forwarding (${range})`, path: '/api/admin/stats/forwarding', query: { range }, targetMs: 50 },
      {
        name: `stats: stores missing a group (${range})`,
        path: '/api/admin/stats/stores-missing-fiscal-group',
        query: { range },
        targetMs: 50,
      },
    ]),
  ];
}

/**
 * Every shape once per round, `runs` rounds after `warmup` rounds: the shapes share the machine's
 * ups and downs (it is shared) instead of one shape meeting a busy minute alone.
 */
async function measureAll(baseUrl: string, token: string, shapes: Shape[]): Promise<Measured[]> {
  const headers = { authorization: `Bearer ${token}` };
  const urls = shapes.map((shape) => {
    const url = new URL(`${baseUrl}${shape.path ?? '/api/admin/orders'}`);
    for (const [name, value] of Object.entries(shape.query)) url.searchParams.set(name, value);
    return url;
  });
  const latencies = shapes.map(() => [] as number[]);
  const lastBodies = shapes.map(() => '');
  // The latency of one request: from sending it to having the whole response body (parsing it is the client's business).
  const call = async (index: number) => {
    const started = performance.now();
    const response = await fetch(urls[index]!, { headers });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status !== 200) throw new Error(`${shapes[index]!.name}: ${response.status} ${text}`);
    lastBodies[index] = text;
    return elapsed;
  };
  for (let round = 0; round < warmup + runs; round++) {
    for (let index = 0; index < shapes.length; index++) {
      const elapsed = await call(index);
      if (round >= warmup) latencies[index]!.push(elapsed);
    }
  }
  return shapes.map((shape, index) => {
    const sorted = latencies[index]!.sort((a, b) => a - b);
    const body = JSON.parse(lastBodies[index]!) as { total?: number; items?: unknown[] };
    const p95 = percentile(sorted, 0.95);
    return {
      shape: shape.name,
      query: shape.query,
      targetMs: shape.targetMs,
      total: body.total ?? -1,
      items: body.items?.length ?? 0,
      p50: percentile(sorted, 0.5),
      p95,
      max: sorted[sorted.length - 1]!,
      met: shape.targetMs === undefined || p95 <= shape.targetMs,
    };
  });
}

async function explain(client: pg.Client, query: Record<string, string>): Promise<string> {
  const filter = toOrderListFilter({
    ...query,
    page: undefined,
    minWebhookAttempts: query.minWebhookAttempts === undefined ? undefined : Number(query.minWebhookAttempts),
    maxWebhookAttempts: query.maxWebhookAttempts === undefined ? undefined : Number(query.maxWebhookAttempts),
  } as OrderListQuery);
  const parts: string[] = [];
  for (const [label, sql] of [
    ['page', orderPageQuery(filter, Number(query.page ?? 1), 20)],
    ['count', orderCountQuery(filter)],
  ] as const) {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${sql.sql}`, sql.params);
    parts.push(`-- ${label}\n${rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
  return parts.join('\n');
}

async function main(): Promise<void> {
  if (!Number.isInteger(totalOrders) || totalOrders < 1000) throw new Error('--orders must be an integer >= 1000');
  const keep = values['data-dir'];
  const directory = keep ?? (await mkdtemp(join(tmpdir(), 'bench-orders-')));
  // A bigger WAL between checkpoints only speeds the fill up; the queries run from memory either way.
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), settings: { max_wal_size: '8GB' } });
  const databaseUrl = await database.start();
  let service: Awaited<ReturnType<typeof startService>> | undefined;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'bench:orders' });
  try {
    const migrator = await new DataSource(dataSourceOptions({ url: databaseUrl, poolSize: 2 })).initialize();
    await runPendingMigrations(migrator);
    await migrator.destroy();
    await client.connect();
    const { rows: existing } = await client.query<{ n: string }>('SELECT count(*) AS n FROM orders');
    if (Number(existing[0]!.n) === totalOrders) {
      out(`${totalOrders} orders already in ${directory}; not filling again`);
    } else {
      if (Number(existing[0]!.n) > 0) await client.query('TRUNCATE orders CASCADE');
      out(`filling ${totalOrders} orders in batches of ${batchSize} (machine: shared; timings vary with its load)...`);
      await fill(client);
    }
    await fillDeliveries(client);
    const data = { ...(await describeData(client)), ...(await fillPendingList(client)) };
    out(`data: ${JSON.stringify(data)}`);

    service = await startService({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      WEBHOOK_RETRY_ENABLED: 'false',
    });
    const accessToken = await developmentToken(service.url);

    const shapes = [...REFERENCE_SHAPES, ...(await pickShapes(client))];
    out(`\n${runs} rounds over the ${shapes.length} shapes after ${warmup} warm-up rounds, one request at a time, pageSize 20...`);
    const results = await measureAll(service.url, accessToken, shapes);

    out(
      [
        '',
        `| query shape (${totalOrders.toLocaleString('en')} orders) | total | p50 | p95 | target p95 | |`,
        '|---|---:|---:|---:|---:|---|',
        ...results.map(
          (r) =>
            `| ${r.shape} | ${r.total < 0 ? '' : r.total} | ${r.p50.toFixed(1)} ms | ${r.p95.toFixed(1)} ms | ${r.targetMs === undefined ? 'reference' : `${r.targetMs} ms`} | ${r.targetMs === undefined ? '' : r.met ? 'met' : '**missed**'} |`,
        ),
        '',
      ].join('\n'),
    );
    const plans: Record<string, string> = {};
    // Plans are printed for the order list's shapes (the stats routes' plans: EXPLAIN their statements by hand).
    for (const missed of results.filter((r) => !r.met && !r.shape.startsWith('stats:'))) {
      plans[missed.shape] = await explain(client, missed.query);
      out(`EXPLAIN (ANALYZE, BUFFERS) of "${missed.shape}" (over target):\n${plans[missed.shape]}\n`);
    }
    await mkdir(join(PROJECT_ROOT, 'bench/results'), { recursive: true });
    const file = join(PROJECT_ROOT, 'bench/results', `orders-${Date.now()}.json`);
    await writeFile(
      file,
      JSON.stringify({ when: new Date().toISOString(), settings: { totalOrders, runs, warmup }, data, results, plans }, null, 2),
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
