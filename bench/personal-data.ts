/**
 * npm run bench:personal-data [-- --orders 1000000 --people 300000 --data-dir DIR --max-minutes 40]
 *
 * The personal-data figures at 1 M orders (docs/personal-data.md, "Figures"):
 *
 * 1. Fills an embedded PostgreSQL in `--data-dir` (kept; a later run on the same directory reuses the fill) with the
 *    orders of `bench:orders` (test/support/order-fill.ts), each carrying a customer of its own from `--people`
 *    generated people (name, e-mail, phone, a CPF whose check digits hold) and that customer's lookup keys as intake
 *    stores them (`PersonalDataKeys.keyOf` with the bench's PERSONAL_DATA_KEY); one person has exactly 100 orders.
 *    The delivery log is filled as bench:orders does, the indexes built as in production, then VACUUM ANALYZE. A sample
 *    of stored orders is checked against the service's own `PersonalDataKeys.keysOf` (the keys intake would write).
 *    The database is also copied once (`bench_without_keys`) without `ix_orders_personal_data_keys`, for step 5.
 * 2. Lookups: GET /api/admin/personal-data by e-mail, phone and CPF of `--lookups` random people, one request at a
 *    time, and of the person with 100 orders; p50/p95 per key against the target (p95 < 100 ms). The statement's
 *    EXPLAIN (ANALYZE, BUFFERS) is printed, and the run fails if it does not use the index.
 * 3. Erasure: POST /api/admin/personal-data/erasure of the person with 100 orders, `--erasures` times (the orders put
 *    back as they were after each, so that the fill stays reusable); target < 1 s.
 * 4. Retention: the `personal-data-retention` job's round (in this process, on the service's own modules) with the
 *    cut-off placed so that the `--retention-orders` oldest orders are past it; orders per second against 5,000 (the
 *    orders put back after it).
 * 5. Enrichment with the hashes against without, side by side in rotating rounds: POST /api/enrich-order (the
 *    10-line order of bench:enrich, each request with a customer e-mail of its own) on the service as it runs, and on a
 *    second service that neither reads the payload for personal values nor hashes them
 *    (bench/without-personal-data-keys.ts) on the copy without the keys' index; req/s ratio against 0.95.
 *
 * Every phase logs its progress. `--max-minutes` bounds the whole run: past it the run stops (databases and services
 * stopped) with exit code 2. Results go to bench/results/personal-data-<time>.json.
 */
import autocannon from 'autocannon';
import { NestFactory } from '@nestjs/core';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { isValidCpf } from '@brazilian-utils/brazilian-utils';
import { AppModule } from '../src/app.module.js';
import { createRootLogger } from '../src/common/logging/logger.js';
import { loadConfig, type AppConfig } from '../src/config/app-config.js';
import { dataSourceOptions } from '../src/database/data-source-options.js';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { runPendingMigrations } from '../src/database/migrate.js';
import { PERSONAL_DATA_HOLDERS } from '../src/orders/orders.repository.js';
import { PersonalDataKeys } from '../src/personal-data/personal-data-keys.js';
import { PersonalDataRetention } from '../src/personal-data/personal-data-retention.js';
import { FILL_DELIVERIES_SQL, fillOrdersSql } from '../test/support/order-fill.js';
import { developmentToken, processCpuMs, processTreeCpuMs, PROJECT_ROOT, startService, type ChildServer } from './bench-support.js';
import { BENCH_CATEGORIES, benchmarkOrder } from './order-fixture.js';

const { values } = parseArgs({
  options: {
    orders: { type: 'string', default: '1000000' },
    people: { type: 'string', default: '300000' },
    batch: { type: 'string', default: '50000' },
    'data-dir': { type: 'string', default: join(tmpdir(), 'bench-personal-data') },
    lookups: { type: 'string', default: '200' },
    erasures: { type: 'string', default: '3' },
    'retention-orders': { type: 'string', default: '20000' },
    duration: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    'max-minutes': { type: 'string', default: '40' },
  },
});
const totalOrders = Number(values.orders);
const people = Number(values.people);
const batchSize = Number(values.batch);
const directory = values['data-dir'];
const lookupPeople = Number(values.lookups);
const erasures = Number(values.erasures);
const retentionOrders = Number(values['retention-orders']);
const duration = Number(values.duration);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);
const connections = Number(values.connections);
const maxMinutes = Number(values['max-minutes']);

/** The bench's PERSONAL_DATA_KEY: the fill's keys and the services' must be made with the same one. */
const PERSONAL_DATA_KEY = 'bench-personal-data-key-0123456789abcdef0123456789abcdef';
const JWT_SECRET = 'bench-secret-bench-secret-bench-secret-00';
/** Every this-many-th order belongs to person 0: 100 orders at the default size. */
const heavyStride = Math.floor(totalOrders / 100);
const WITHOUT_KEYS_DATABASE = 'bench_without_keys';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Indexes dropped for the fill and built after it, as bench:orders does (the same definitions as the migrations'). */
const BUILT_AFTER_FILL = [
  'ix_orders_enrichment_failed',
  'ix_orders_store_created',
  'ix_orders_status_created',
  'ix_orders_source_created',
  'ix_orders_attempts_created',
  'ix_orders_order_id_trgm',
  'ix_orders_personal_data_keys',
];

const out = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

const FIRST_NAMES = ['Ana', 'Bruno', 'Carla', 'Diego', 'Eduarda', 'Felipe', 'Gabriela', 'Henrique', 'Isabela', 'João', 'Larissa', 'Marcos'];
const LAST_NAMES = ['Silva', 'Souza', 'Oliveira', 'Santos', 'Pereira', 'Lima', 'Costa', 'Ferreira', 'Almeida', 'Ribeiro'];

/** A CPF with valid check digits from nine digits. */
function cpfOf(nine: string): string {
  const digits = [...nine].map(Number);
  for (const length of [9, 10]) {
    const sum = digits.slice(0, length).reduce((total, digit, index) => total + digit * (length + 1 - index), 0);
    const rest = (sum * 10) % 11;
    digits.push(rest === 10 ? 0 : rest);
  }
  const text = digits.join('');
  return `${text.slice(0, 3)}.${text.slice(3, 6)}.${text.slice(6, 9)}-${text.slice(9)}`;
}

interface Person {
  person: number;
  email: string;
  phone: string;
  document: string;
}

/** Person `n`: distinct e-mail (mixed case, as people type it), phone and CPF. */
function personOf(n: number): Person & { customer: Record<string, unknown> } {
  const first = FIRST_NAMES[n % FIRST_NAMES.length]!;
  const last = LAST_NAMES[Math.floor(n / FIRST_NAMES.length) % LAST_NAMES.length]!;
  const email = `${first}.${last}.${n}@Example.com`;
  const line = String(10_000_000 + n).slice(-8);
  const phone = `+55 11 9${line.slice(0, 4)}-${line.slice(4)}`;
  const document = cpfOf(String(100_000_000 + ((n * 7919) % 800_000_000)).padStart(9, '0'));
  return {
    person: n,
    email,
    phone,
    document,
    customer: { id: `c-${n}`, name: `${first} ${last}`, email, phone, documentNumber: document, ordersCountOnMerchant: n % 40 },
  };
}

class OutOfTime extends Error {}
const deadline = Date.now() + maxMinutes * 60_000;
function checkTime(phase: string): void {
  if (Date.now() > deadline) throw new OutOfTime(`--max-minutes ${maxMinutes} reached before ${phase}`);
}

async function fill(client: pg.Client, keys: PersonalDataKeys): Promise<void> {
  const started = performance.now();
  await client.query('DROP TABLE IF EXISTS bench_people');
  await client.query(
    'CREATE TABLE bench_people (person int PRIMARY KEY, email text, phone text, document text, customer jsonb, keys text[])',
  );
  for (let first = 0; first <= people; first += 10_000) {
    const batch = Array.from({ length: Math.min(10_000, people + 1 - first) }, (_, index) => personOf(first + index));
    for (const person of batch) if (!isValidCpf(person.document)) throw new Error(`generated CPF ${person.document} is not valid`);
    await client.query(
      `INSERT INTO bench_people SELECT p.person, p.email, p.phone, p.document, p.customer::jsonb, string_to_array(p.keys, ' ')
       FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS p(person, email, phone, document, customer, keys)`,
      [
        batch.map((p) => p.person),
        batch.map((p) => p.email),
        batch.map((p) => p.phone),
        batch.map((p) => p.document),
        batch.map((p) => JSON.stringify(p.customer)),
        // The keys of the customer as intake computes them (`keysOf` of a payload holding it): the same three.
        batch.map((p) => keys.keysOf({ customer: p.customer }).join(' ')),
      ],
    );
  }
  out(`  ${people + 1} people in ${seconds(started)} s`);
  // The definitions are kept in a table before the indexes are dropped: a fill cut short (a kill, a time limit) and
  // started again finds them there, not only in the catalogue, which no longer has them.
  await client.query(`CREATE TABLE IF NOT EXISTS ${DROPPED_INDEXES} (indexname text PRIMARY KEY, indexdef text NOT NULL)`);
  await client.query(
    `INSERT INTO ${DROPPED_INDEXES} SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'orders' AND indexname = ANY($1)
     ON CONFLICT (indexname) DO NOTHING`,
    [BUILT_AFTER_FILL],
  );
  const definitions = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM ${DROPPED_INDEXES} ORDER BY indexname`,
  );
  const missing = BUILT_AFTER_FILL.filter((name) => !definitions.rows.some((row) => row.indexname === name));
  if (missing.length > 0) throw new Error(`no definition of ${missing.join(', ')}: migrate a new data directory instead`);
  for (const { indexname } of definitions.rows) await client.query(`DROP INDEX IF EXISTS ${indexname}`);
  await client.query('SELECT setseed(0.42)');
  const statement = fillOrdersSql({ customers: { table: 'bench_people' } });
  for (let first = 1; first <= totalOrders; first += batchSize) {
    checkTime('the end of the fill');
    const last = Math.min(totalOrders, first + batchSize - 1);
    await client.query(statement, [first, last, people, heavyStride]);
    const elapsed = (performance.now() - started) / 1000;
    const rate = last / elapsed;
    out(
      `  ${String(last).padStart(9)} / ${totalOrders} orders  ${elapsed.toFixed(0).padStart(4)} s  ${rate.toFixed(0)} orders/s  eta ${((totalOrders - last) / rate).toFixed(0)} s  load ${load()}`,
    );
  }
  await client.query(`SET maintenance_work_mem = '512MB'`);
  for (const { indexname, indexdef } of definitions.rows) {
    const indexStarted = performance.now();
    await client.query(indexdef);
    out(`  built ${indexname} in ${seconds(indexStarted)} s`);
  }
  await client.query(`DROP TABLE ${DROPPED_INDEXES}`);
  await client.query('SELECT fold_order_counts() + fold_order_id_fragment_counts()');
  const deliveries = await client.query(FILL_DELIVERIES_SQL);
  out(`  delivery log: ${deliveries.rowCount} attempts`);
  const vacuumStarted = performance.now();
  for (const table of ['orders', 'order_status_history', 'order_count_day', 'webhook_delivery', 'bench_people'])
    await client.query(`VACUUM ANALYZE ${table}`);
  out(`  VACUUM ANALYZE in ${seconds(vacuumStarted)} s; filled in ${seconds(started)} s`);
  await client.query(`CREATE TABLE IF NOT EXISTS bench_personal_data_fill (orders int, people int, filled_at timestamptz)`);
  await client.query(`INSERT INTO bench_personal_data_fill VALUES ($1, $2, now())`, [totalOrders, people]);
}

/** The indexes a fill dropped and has not built again yet (see fill). */
const DROPPED_INDEXES = 'bench_dropped_indexes';

/** The orders an erasure or a retention round changes are kept here and put back after it (also after a crash). */
const SAVED = 'bench_saved_orders';

async function save(client: pg.Client, where: string, params: unknown[]): Promise<number> {
  const saved = await client.query(
    `INSERT INTO ${SAVED} SELECT id, payload, enriched_payload, webhook_last_response, personal_data_keys FROM orders WHERE ${where}
     ON CONFLICT (id) DO NOTHING`,
    params,
  );
  return saved.rowCount ?? 0;
}

async function restore(client: pg.Client): Promise<number> {
  const restored = await client.query(
    `UPDATE orders o SET payload = s.payload, enriched_payload = s.enriched_payload, webhook_last_response = s.webhook_last_response,
       personal_data_keys = s.personal_data_keys, personal_data_erased_at = NULL
     FROM ${SAVED} s WHERE o.id = s.id`,
  );
  await client.query(`TRUNCATE ${SAVED}`);
  return restored.rowCount ?? 0;
}

/** A sample of stored orders: their keys are the ones the service's own `PersonalDataKeys` makes of their payload. */
async function checkKeys(client: pg.Client, keys: PersonalDataKeys): Promise<void> {
  const { rows } = await client.query<{ payload: unknown; personal_data_keys: string[] }>(
    `SELECT payload, personal_data_keys FROM orders TABLESAMPLE SYSTEM (0.05) WHERE personal_data_erased_at IS NULL LIMIT 500`,
  );
  for (const row of rows) {
    const expected = keys.keysOf(row.payload).sort().join(' ');
    if (expected !== [...row.personal_data_keys].sort().join(' '))
      throw new Error(`a stored order's keys are not those intake writes: ${expected} against ${row.personal_data_keys.join(' ')}`);
  }
  const heavy = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM orders WHERE personal_data_keys @> ARRAY[(SELECT keys[1] FROM bench_people WHERE person = 0)]`,
  );
  out(`  keys checked on ${rows.length} sampled orders against PersonalDataKeys.keysOf; person 0 has ${heavy.rows[0]!.n} orders`);
}

interface LookupFigure {
  name: string;
  requests: number;
  /** Answered 503 (past the request's deadline). */
  failed: number;
  meanOrders: number;
  p50: number;
  p95: number;
  max: number;
}

async function measureLookups(baseUrl: string, auth: Record<string, string>, client: pg.Client): Promise<LookupFigure[]> {
  const { rows: sample } = await client.query<Person>(
    `SELECT person, email, phone, document FROM bench_people WHERE person > 0 ORDER BY md5(person::text || $1) LIMIT $2`,
    [String(Date.now()), lookupPeople],
  );
  const heavy = personOf(0);
  const kinds = ['email', 'phone', 'document'] as const;
  const call = async (kind: (typeof kinds)[number], person: Person) => {
    const url = new URL(`${baseUrl}/api/admin/personal-data`);
    url.searchParams.set(kind, person[kind]);
    const started = performance.now();
    const response = await fetch(url, { headers: auth });
    const text = await response.text();
    const elapsed = performance.now() - started;
    // A 503 (the request's deadline passed: a busy machine) counts at its time; anything else is a fault of the bench.
    if (response.status === 503) return { elapsed, orders: 0, failed: true };
    if (response.status !== 200) throw new Error(`lookup by ${kind}: ${response.status} ${text}`);
    return { elapsed, orders: (JSON.parse(text) as { orders: unknown[] }).orders.length, failed: false };
  };
  for (const person of sample.slice(0, 10)) for (const kind of kinds) await call(kind, person);
  const figures: LookupFigure[] = [];
  const latencies = new Map<string, { times: number[]; orders: number; failed: number }>();
  const record = (name: string, measured: { elapsed: number; orders: number; failed?: boolean }) => {
    const entry = latencies.get(name) ?? { times: [], orders: 0, failed: 0 };
    entry.times.push(measured.elapsed);
    entry.orders += measured.orders;
    if (measured.failed) entry.failed++;
    latencies.set(name, entry);
  };
  // The kinds take turns, so that each meets the machine's busy and quiet moments alike.
  // What any request costs on the machine at that moment (no database): the floor under the lookups' figures.
  const reference = async () => {
    const started = performance.now();
    await (await fetch(`${baseUrl}/api/health/live`)).text();
    return { elapsed: performance.now() - started, orders: 0 };
  };
  for (const person of sample) {
    for (const kind of kinds) {
      const measured = await call(kind, person);
      record(`by ${kind === 'document' ? 'CPF' : kind}`, measured);
      record('all keys', measured);
    }
    record('reference: GET /api/health/live', await reference());
  }
  for (let run = 0; run < 20; run++) for (const kind of kinds) record('person with 100 orders (all keys)', await call(kind, heavy));
  for (const [name, { times, orders, failed }] of latencies) {
    const sorted = times.sort((a, b) => a - b);
    figures.push({
      name,
      requests: sorted.length,
      failed,
      meanOrders: orders / sorted.length,
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      max: sorted[sorted.length - 1]!,
    });
  }
  return figures;
}

async function explainLookup(client: pg.Client, person: number): Promise<string> {
  const { rows: keyRows } = await client.query<{ key: string }>(`SELECT keys[1] AS key FROM bench_people WHERE person = $1`, [person]);
  const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${PERSONAL_DATA_HOLDERS.text}`, [
    keyRows[0]!.key,
    501,
  ]);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}

async function measureErasure(baseUrl: string, auth: Record<string, string>, client: pg.Client): Promise<number[]> {
  const heavy = personOf(0);
  const times: number[] = [];
  for (let run = 0; run < erasures; run++) {
    checkTime('an erasure');
    const saved = await save(client, `personal_data_keys @> ARRAY[(SELECT keys[1] FROM bench_people WHERE person = 0)]`, []);
    const started = performance.now();
    const response = await fetch(`${baseUrl}/api/admin/personal-data/erasure`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ email: heavy.email, reason: 'bench: data subject request' }),
    });
    const text = await response.text();
    const elapsed = performance.now() - started;
    if (response.status === 503) {
      // Past the request's deadline: the orders erased so far stay erased (a rerun would finish them).
      out(`  erasure ${run + 1}: 503 after ${elapsed.toFixed(0)} ms; load ${load()}`);
      times.push(elapsed);
      await restore(client);
      continue;
    }
    if (response.status !== 200 && response.status !== 201) throw new Error(`erasure: ${response.status} ${text}`);
    const counts = JSON.parse(text) as { orders: number; payloadFields: number };
    out(
      `  erasure ${run + 1}: ${elapsed.toFixed(0)} ms, ${counts.orders} orders (${saved} saved), ${counts.payloadFields} payload fields; load ${load()}`,
    );
    if (counts.orders !== 100) throw new Error(`the erasure found ${counts.orders} orders, not 100`);
    times.push(elapsed);
    await restore(client);
  }
  return times;
}

/** The retention job's round on the `--retention-orders` oldest orders still holding data; orders per second. */
async function measureRetention(client: pg.Client, config: AppConfig, retention: PersonalDataRetention) {
  const { rows } = await client.query<{ created_at: Date }>(
    `SELECT created_at FROM orders WHERE personal_data_erased_at IS NULL ORDER BY created_at OFFSET $1 LIMIT 1`,
    [retentionOrders],
  );
  const before = rows[0]!.created_at;
  // A minute's margin: the job takes its cut-off a moment later than this, and what it erases must all be put back.
  const saved = await save(client, `personal_data_erased_at IS NULL AND created_at < $1`, [new Date(before.getTime() + 60_000)]);
  // The job reads its cut-off from the configuration at each round: a fraction of a day puts it at `before`.
  (config as { personalDataRetentionDays: number }).personalDataRetentionDays = (Date.now() - before.getTime()) / DAY_MS;
  const started = performance.now();
  const erased = await retention.erasePastRetention();
  const elapsedS = (performance.now() - started) / 1000;
  (config as { personalDataRetentionDays: number }).personalDataRetentionDays = 0;
  out(`  retention: ${erased} orders in ${elapsedS.toFixed(1)} s (${saved} saved); load ${load()}`);
  const restoreStarted = performance.now();
  const restored = await restore(client);
  out(`  put back ${restored} orders in ${seconds(restoreStarted)} s`);
  return { erased: erased ?? 0, seconds: elapsedS, perSecond: (erased ?? 0) / elapsedS };
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  cpuMsPerRequest?: number;
}

const template = JSON.stringify(benchmarkOrder('__ORDER_ID__')).replace('ana.souza@example.com', 'ana.souza.__ORDER_ID__@example.com');
let sequence = 0;

async function loadEnrich(
  target: { url: string; auth: Record<string, string>; pid?: number },
  seconds: number,
  dbPid?: number,
): Promise<Round> {
  const runId = Date.now().toString(36);
  const cpuBefore = (processCpuMs(target.pid) ?? Number.NaN) + (processTreeCpuMs(dbPid) ?? Number.NaN);
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path: '/api/enrich-order',
        headers: { 'content-type': 'application/json', ...target.auth },
        // A customer of its own per order: the keys index gets new keys, as from real customers.
        setupRequest: (request) => ({ ...request, body: template.replaceAll('__ORDER_ID__', `pd-${runId}-${++sequence}`) }),
      },
    ],
  });
  const cpuAfter = (processCpuMs(target.pid) ?? Number.NaN) + (processTreeCpuMs(dbPid) ?? Number.NaN);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx + result.errors + result.timeouts,
    ...(result.requests.total > 0 ? { cpuMsPerRequest: (cpuAfter - cpuBefore) / result.requests.total } : {}),
  };
}

async function categorize(serviceUrl: string, auth: Record<string, string>): Promise<void> {
  for (const category of BENCH_CATEGORIES) {
    const created = await fetch(`${serviceUrl}/api/admin/product-fiscal-categories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify(category),
    });
    if (created.status !== 201 && created.status !== 409) throw new Error(`category ${category.productId}: ${created.status}`);
  }
}

function serviceEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    JWT_SECRET,
    PERSONAL_DATA_KEY,
    SEED_DEMO_DATA: 'true',
    WEBHOOK_RETRY_ENABLED: 'false',
    // Nothing but the measured work: the bench runs the retention round itself, and keeps the filled delivery log.
    PERSONAL_DATA_RETENTION_DAYS: '0',
    WEBHOOK_DELIVERY_RETENTION_DAYS: '0',
  };
}

async function main(): Promise<void> {
  if (!Number.isInteger(totalOrders) || totalOrders < 10_000) throw new Error('--orders must be an integer >= 10000');
  out(`bench:personal-data: ${totalOrders} orders, ${people} people, data in ${directory}; load average ${load()}`);
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), settings: { max_wal_size: '8GB' } });
  const databaseUrl = await database.start();
  const withoutUrl = databaseUrl.replace(/\/postgres$/, `/${WITHOUT_KEYS_DATABASE}`);
  const connect = () => new pg.Client({ connectionString: databaseUrl, application_name: 'bench:personal-data' });
  let client = connect();
  const services: ChildServer[] = [];
  let context: Awaited<ReturnType<typeof NestFactory.createApplicationContext>> | undefined;
  const results: Record<string, unknown> = { when: new Date().toISOString(), settings: values, loadBefore: load() };
  const timer = setTimeout(() => out(`--max-minutes ${maxMinutes} reached: stopping after the current step`), maxMinutes * 60_000);
  timer.unref();
  try {
    const migrator = await new DataSource(dataSourceOptions({ url: databaseUrl, poolSize: 2 })).initialize();
    await runPendingMigrations(migrator);
    await migrator.destroy();
    await client.connect();
    await client.query(`CREATE TABLE IF NOT EXISTS ${SAVED} (id uuid PRIMARY KEY, payload jsonb, enriched_payload jsonb,
      webhook_last_response jsonb, personal_data_keys text[])`);
    const restored = await restore(client);
    if (restored > 0) out(`  put back ${restored} orders an interrupted run had changed`);

    const config = loadConfig({
      ...serviceEnv(databaseUrl),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
    });
    const fillKeys = new PersonalDataKeys(config, { lists: [] });
    const { rows: filled } = await client
      .query<{ orders: number; people: number }>(
        // The table is made once a fill has ended: a fill cut short is started again.
        'SELECT orders, people FROM bench_personal_data_fill',
      )
      .catch(() => ({ rows: [] as Array<{ orders: number; people: number }> }));
    if (filled[0]?.orders === totalOrders && filled[0]?.people === people) {
      out(`${totalOrders} orders with ${people} people already in ${directory}; not filling again`);
    } else {
      await client.query(`DROP DATABASE IF EXISTS ${WITHOUT_KEYS_DATABASE}`);
      await client.query('DROP TABLE IF EXISTS bench_personal_data_fill');
      await client.query('TRUNCATE orders CASCADE');
      out(`filling ${totalOrders} orders in batches of ${batchSize} (the machine is shared: timings vary with its load)...`);
      await fill(client, fillKeys);
    }
    const { rows: size } = await client.query<{ size: string }>(`SELECT pg_size_pretty(pg_database_size('postgres')) AS size`);
    out(`  database size ${size[0]!.size}`);

    // The copy for "without the hashes": the same orders, without the keys' index.
    const { rows: copies } = await client.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [WITHOUT_KEYS_DATABASE]);
    if (copies.length === 0) {
      checkTime('the copy of the database');
      const copyStarted = performance.now();
      await client.end();
      const admin = new pg.Client({ connectionString: databaseUrl.replace(/\/postgres$/, '/template1') });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${WITHOUT_KEYS_DATABASE} TEMPLATE postgres STRATEGY FILE_COPY`);
      await admin.end();
      const copy = new pg.Client({ connectionString: withoutUrl });
      await copy.connect();
      await copy.query('DROP INDEX ix_orders_personal_data_keys');
      await copy.end();
      out(`  copied the database without ix_orders_personal_data_keys in ${seconds(copyStarted)} s`);
      client = connect();
      await client.connect();
    }

    context = await NestFactory.createApplicationContext(
      AppModule.forRoot({ config, databaseUrl, logger: createRootLogger('warn', process.stderr) }),
      { logger: false },
    );
    await checkKeys(client, context.get(PersonalDataKeys));

    checkTime('the lookups');
    const service = await startService(serviceEnv(databaseUrl));
    services.push(service);
    const auth = { authorization: `Bearer ${await developmentToken(service.url)}` };
    out(`\nlookups: ${lookupPeople} random people by e-mail, phone and CPF, one request at a time; load ${load()}`);
    const lookups = await measureLookups(service.url, auth, client);
    results.lookups = lookups;
    const plans = {
      randomPerson: await explainLookup(client, 1 + (Date.now() % people)),
      personWith100Orders: await explainLookup(client, 0),
    };
    results.plans = plans;
    out(`EXPLAIN (ANALYZE, BUFFERS) of the lookup, a random person:\n${plans.randomPerson}\n`);
    out(`EXPLAIN (ANALYZE, BUFFERS) of the lookup, the person with 100 orders:\n${plans.personWith100Orders}\n`);
    const indexed = Object.values(plans).every((plan) => plan.includes('ix_orders_personal_data_keys'));
    results.lookupUsesKeysIndex = indexed;
    out(`lookup plans use ix_orders_personal_data_keys: ${indexed ? 'yes' : 'NO'}`);

    checkTime('the erasures');
    out(`erasure of the person with 100 orders, ${erasures} times (put back after each); load ${load()}`);
    const erasureTimes = await measureErasure(service.url, auth, client);
    results.erasureMs = erasureTimes;

    checkTime('the retention round');
    out(`\nretention: the ${retentionOrders} oldest orders past the cut-off; load ${load()}`);
    const retention = await measureRetention(client, config, context.get(PersonalDataRetention));
    results.retention = retention;
    await context.close();
    context = undefined;

    checkTime('the enrichment rounds');
    const without = await startService(serviceEnv(withoutUrl), [
      '--import',
      join(PROJECT_ROOT, 'dist/bench/without-personal-data-keys.js'),
    ]);
    services.push(without);
    const withoutAuth = { authorization: `Bearer ${await developmentToken(without.url)}` };
    await categorize(service.url, auth);
    await categorize(without.url, withoutAuth);
    const targets = {
      with: { url: service.url, auth, pid: service.child.pid },
      without: { url: without.url, auth: withoutAuth, pid: without.child.pid },
    };
    out(
      `\nenrichment: ${rounds} rounds of ${duration} s per side after ${warmup} s of warm-up each, ${connections} connections; load ${load()}`,
    );
    await loadEnrich(targets.with, warmup);
    await loadEnrich(targets.without, warmup);
    const runs: Record<'with' | 'without', Round[]> = { with: [], without: [] };
    for (let round = 0; round < rounds; round++) {
      checkTime('an enrichment round');
      // Alternate which side goes first, so that neither always meets the same minute of the machine.
      const order = round % 2 === 0 ? (['with', 'without'] as const) : (['without', 'with'] as const);
      for (const side of order) {
        const measured = await loadEnrich(targets[side], duration, database.pid);
        runs[side].push(measured);
        out(
          `  round ${round + 1} ${side.padEnd(7)}: ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, cpu ${measured.cpuMsPerRequest?.toFixed(2)} ms/request, errors ${measured.non2xx}; load ${load()}`,
        );
        if (measured.non2xx > 0) throw new Error(`${side}: ${measured.non2xx} requests failed`);
      }
    }
    const mean = (list: Round[], pick: (round: Round) => number) => list.reduce((total, round) => total + pick(round), 0) / list.length;
    const enrichment = {
      withRps: mean(runs.with, (r) => r.rps),
      withoutRps: mean(runs.without, (r) => r.rps),
      withCpuMs: mean(runs.with, (r) => r.cpuMsPerRequest ?? Number.NaN),
      withoutCpuMs: mean(runs.without, (r) => r.cpuMsPerRequest ?? Number.NaN),
      runs,
    };
    results.enrichment = enrichment;

    const all = lookups.find((figure) => figure.name === 'all keys')!;
    const heavyLookup = lookups.find((figure) => figure.name.startsWith('person with'))!;
    const erasureMedian = [...erasureTimes].sort((a, b) => a - b)[Math.floor(erasureTimes.length / 2)]!;
    const ratio = enrichment.withRps / enrichment.withoutRps;
    const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
    out('');
    for (const figure of lookups)
      out(
        `lookup ${figure.name}: p50 ${figure.p50.toFixed(1)} ms, p95 ${figure.p95.toFixed(1)} ms, max ${figure.max.toFixed(1)} ms (${figure.requests} requests, ${figure.failed} answered 503, ${figure.meanOrders.toFixed(1)} orders each)`,
      );
    out(`FIGURE lookup p95: ${all.p95.toFixed(1)} ms (target < 100 ms) ${met(all.p95 < 100)}`);
    out(
      `FIGURE lookup p95 of the person with 100 orders: ${heavyLookup.p95.toFixed(1)} ms (target < 100 ms) ${met(heavyLookup.p95 < 100)}`,
    );
    out(
      `FIGURE erasure of one person with 100 orders: ${erasureMedian.toFixed(0)} ms median of ${erasureTimes.map((t) => t.toFixed(0)).join(', ')} (target < 1000 ms) ${met(erasureMedian < 1000)}`,
    );
    out(
      `FIGURE retention throughput: ${retention.perSecond.toFixed(0)} orders/s (${retention.erased} orders) (target >= 5000 orders/s) ${met(retention.perSecond >= 5000)}`,
    );
    out(
      `FIGURE enrichment with the hashes / without: ${ratio.toFixed(3)} (${enrichment.withRps.toFixed(0)} against ${enrichment.withoutRps.toFixed(0)} req/s; cpu ${enrichment.withCpuMs.toFixed(2)} against ${enrichment.withoutCpuMs.toFixed(2)} ms/request) (target >= 0.95) ${met(ratio >= 0.95)}`,
    );
    out(`load average after: ${load()}`);
    results.loadAfter = load();
    await mkdir(join(PROJECT_ROOT, 'bench/results'), { recursive: true });
    const file = join(PROJECT_ROOT, 'bench/results', `personal-data-${Date.now()}.json`);
    await writeFile(file, JSON.stringify(results, null, 2));
    out(`results: ${file}`);
  } catch (error) {
    if (!(error instanceof OutOfTime)) throw error;
    out(error.message);
    process.exitCode = 2;
  } finally {
    clearTimeout(timer);
    await context?.close().catch(() => undefined);
    for (const service of services) await service.stop().catch(() => undefined);
    await client.end().catch(() => undefined);
    await database.stop();
  }
}

await main();
