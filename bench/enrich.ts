/**
 * npm run bench:enrich [-- --duration 15 --connections 32 --rounds 2]
 *
 * Starts an embedded PostgreSQL, the service (with the demo fiscal data) and a bare
 * Fastify + pg baseline on it, then loads POST /api/enrich-order and the baseline in
 * turn with a realistic 10-line order (unique orderId per request), and prints
 * req/s, p50 and p99 of both and their ratio. `--profile` writes a CPU profile of the
 * service to bench/results/ (open it in Chrome DevTools).
 *
 * Every run also loads POST /api/enrich-order?nfe=65 (the invoice's items answered beside the payload) in the same
 * rounds and prints `ratio enrich-order nfe / enrich-order: X.XX` (target >= 0.90). The bench gives the order's products
 * that the demo data leaves without a category one of the demo matrix's NCMs (`BENCH_CATEGORIES`), so that every line is
 * taxed and the NFC-e is issuable: the target measures a whole document, and the run stops if the answer is not one.
 * It also loads the same order as Rappi sends it, POST /api/enrich-order?profile=rappi, and prints
 * `ratio enrich-order profile / enrich-order: X.XX` (target >= 0.90). For both, `cpu per request enrich-order nfe: …`
 * (and `… profile: …`) gives the CPU per request of the service and its PostgreSQL together over the measured rounds,
 * beside enrich-order's, and their ratio: the throughput ratio a machine with nothing else to do would show, which
 * the neighbours' load moves much less than req/s.
 *
 * `--forward` (npm run bench:forward) also starts a local order webhook that answers 200 at
 * once and loads POST /api/enrich-order-forward in the same rounds, and prints the ratio of
 * forward req/s to enrich-order req/s, and the CPU per request of each route: the service's process and its
 * PostgreSQL's (the postmaster and its children) together, read from /proc over the measured rounds and divided by the
 * requests completed (`cpu per request enrich-order: X.XX ms`, `... enrich-order-forward: Y.YY ms`,
 * `ratio cpu forward / enrich: Z.ZZ`). The load generator (this process) and the receiver (a process of its own) are
 * not counted. CPU time moves much less with the neighbours' load than req/s does.
 *
 * `--against <checkout>` also starts another built checkout's service (e.g. a worktree of the commit
 * before a change, after `npm ci && npm run build` there) on its own embedded database, loads it in
 * the same rotating rounds, and prints the ratio of the two services' req/s and each one's CPU
 * milliseconds per request: the before-and-after of one change measured side by side in one run.
 * With `--forward` too, the other checkout also forwards (to a receiver of its own) and its forward route is
 * loaded in the same rounds: both checkouts' forward / enrich-order ratios are printed.
 *
 * Forwarding runs as deployed: with retries on (the retry job stored before each send), unless
 * `--no-retries` turns WEBHOOK_RETRY_ENABLED off in both services.
 *
 * `--server-url postgres://user@127.0.0.1:5432` runs on that PostgreSQL instead of the embedded one: a database
 * of its own per checkout, created for the run and dropped after it. The server must run on this machine (its
 * processes' CPU is read from /proc; with `--against`, each round's database CPU then also counts the other
 * database's background work). Use it to measure what depends on how the server was built, such as lz4.
 *
 * `--setup-sql "<statements>"` runs once on this checkout's database after its migrations, before the warm-up (the
 * baseline shares that database; an `--against` checkout's is left alone): an experiment such as an index dropped or
 * a trigger disabled, to bound what removing it would gain before building the change.
 *
 * `--settle` vacuums and checkpoints the databases before each measured round (see `settle`).
 */
import autocannon from 'autocannon';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import {
  developmentToken,
  parentPid,
  processCpuMs,
  processTreeCpuMs,
  PROJECT_ROOT,
  startChild,
  startService,
  type ChildServer,
} from './bench-support.js';
import { BENCH_CATEGORIES, benchmarkOrder, benchmarkRappiOrder } from './order-fixture.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '5' },
    profile: { type: 'boolean', default: false },
    forward: { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
    against: { type: 'string' },
    'no-retries': { type: 'boolean', default: false },
    'server-url': { type: 'string' },
    'setup-sql': { type: 'string' },
    settle: { type: 'boolean', default: false },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const rounds = Number(values.rounds);
const warmup = Number(values.warmup);

interface Measured {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Requests completed in the round. */
  requests: number;
  /** CPU milliseconds the loaded server (the service or the baseline) spent in the round, and per request. */
  cpuMs?: number;
  cpuMsPerRequest?: number;
  /** CPU milliseconds its PostgreSQL (postmaster and backends) spent in the round, and per request. */
  dbCpuMs?: number;
  dbCpuMsPerRequest?: number;
}

/**
 * CPU milliseconds per completed request of the loaded process and its PostgreSQL together, over every measured round
 * of a target: what a request costs the service's side of the machine, without the load generator (this process)
 * and the receiver (a process of its own).
 */
function cpuPerRequest(runs: readonly Measured[]): { total: number; service: number; database: number } {
  let service = 0;
  let database = 0;
  let requests = 0;
  for (const run of runs) {
    service += run.cpuMs ?? Number.NaN;
    database += run.dbCpuMs ?? Number.NaN;
    requests += run.requests;
  }
  return { total: (service + database) / requests, service: service / requests, database: database / requests };
}

/** The lines of `cpuPerRequest` for enrich-order and the forward, and the ratio of the two. */
function cpuLines(prefix: string, enrich: readonly Measured[], forward: readonly Measured[]): string[] {
  const [e, f] = [cpuPerRequest(enrich), cpuPerRequest(forward)];
  const parts = (cpu: { service: number; database: number }) =>
    `(service ${cpu.service.toFixed(3)} ms, PostgreSQL ${cpu.database.toFixed(3)} ms)`;
  return [
    `${prefix}cpu per request enrich-order: ${e.total.toFixed(2)} ms`,
    `${prefix}cpu per request enrich-order-forward: ${f.total.toFixed(2)} ms`,
    `${prefix}ratio cpu forward / enrich: ${(f.total / e.total).toFixed(2)}`,
    `${prefix}  enrich-order ${parts(e)}, forward ${parts(f)}; target ratio <= 1.20`,
  ];
}

const template = JSON.stringify(benchmarkOrder('__ORDER_ID__'));
/** The same order as Rappi sends it, for `?profile=rappi`: what a marketplace's mapping costs. */
const rappiTemplate = JSON.stringify(benchmarkRappiOrder('__ORDER_ID__'));
let sequence = 0;

async function load(
  url: string,
  path: string,
  headers: Record<string, string>,
  seconds: number,
  pid?: number,
  dbPid?: number,
  body = template,
): Promise<Measured> {
  const runId = `${Date.now().toString(36)}`;
  const cpuBefore = processCpuMs(pid);
  const dbCpuBefore = processTreeCpuMs(dbPid);
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => ({ ...request, body: body.replace('__ORDER_ID__', `bench-${runId}-${++sequence}`) }),
      },
    ],
  });
  const cpuAfter = processCpuMs(pid);
  const dbCpuAfter = processTreeCpuMs(dbPid);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    requests: result.requests.total,
    ...(cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0
      ? { cpuMs: cpuAfter - cpuBefore, cpuMsPerRequest: (cpuAfter - cpuBefore) / result.requests.total }
      : {}),
    ...(dbCpuBefore !== undefined && dbCpuAfter !== undefined && result.requests.total > 0
      ? { dbCpuMs: dbCpuAfter - dbCpuBefore, dbCpuMsPerRequest: (dbCpuAfter - dbCpuBefore) / result.requests.total }
      : {}),
  };
}

interface Target {
  name: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  pid?: number;
  /** Its PostgreSQL's postmaster. */
  dbPid?: number;
  /** The body sent (the service's own order unless said). */
  body?: string;
  runs: Measured[];
}

interface BenchDatabase {
  url: string;
  /** Its server's postmaster. */
  pid?: number;
  stop(): Promise<void>;
}

/** `work` on a connection of its own to `url`, closed after it. */
async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** An embedded PostgreSQL in `dataDir`, or with `--server-url` a new database on that server. */
async function openDatabase(dataDir: string, label: string): Promise<BenchDatabase> {
  const serverUrl = values['server-url'];
  if (!serverUrl) {
    const embedded = new EmbeddedPostgres({ dataDir });
    const url = await embedded.start();
    return { url, pid: embedded.pid, stop: () => embedded.stop() };
  }
  const name = `bench_${label}_${Date.now()}`;
  const postmaster = await withClient(serverUrl, async (client) => {
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    const backendPid = Number((await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid);
    // The backend's parent is the postmaster, under which the CPU of the server's processes is read.
    return parentPid(backendPid);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    pid: postmaster,
    stop: () =>
      withClient(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/** `--setup-sql`: an experiment on this checkout's database once migrated, such as an index dropped to bound what it costs. */
async function runSetupSql(databaseUrl: string, setupSql: string): Promise<void> {
  await withClient(databaseUrl, (client) => client.query(setupSql));
  process.stdout.write(`setup SQL run on this checkout's database: ${setupSql}\n`);
}

/**
 * `--settle`: before each measured round, `VACUUM` and `CHECKPOINT` every database of the run, so that no round pays for
 * the dead rows or the WAL of the one before; what that took is printed (work the rounds no longer include).
 */
async function settle(databases: BenchDatabase[]): Promise<void> {
  const started = Date.now();
  let cpuMs = 0;
  for (const { url, pid } of databases) {
    const cpuBefore = processTreeCpuMs(pid);
    await withClient(url, async (client) => {
      await client.query('VACUUM');
      await client.query('CHECKPOINT');
    });
    cpuMs += (processTreeCpuMs(pid) ?? 0) - (cpuBefore ?? 0);
  }
  process.stdout.write(`  settled: VACUUM and CHECKPOINT in ${Date.now() - started} ms, database CPU ${cpuMs.toFixed(0)} ms\n`);
}

/**
 * Gives the bench order's products that the demo data leaves without a category their category (through the admin API,
 * as an integrator would), so that every line of the order is taxed; a category already there (a re-run) is kept.
 */
async function categorizeBenchProducts(serviceUrl: string, headers: Record<string, string>): Promise<void> {
  for (const category of BENCH_CATEGORIES) {
    const created = await fetch(`${serviceUrl}/api/admin/product-fiscal-categories`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(category),
    });
    if (created.status !== 201 && created.status !== 409)
      throw new Error(`the category of ${category.productId} answered ${created.status}: ${await created.text()}`);
  }
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-enrich-'));
  const database = await openDatabase(join(directory, 'postgres'), 'service');
  const databaseUrl = database.url;
  const receiver = values.forward ? await startChild('dist/bench/webhook-receiver-server.js', {}) : undefined;
  const retries = values['no-retries'] ? 'false' : 'true';
  const service = await startService(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      WEBHOOK_RETRY_ENABLED: retries,
      ...(receiver ? { ORDER_WEBHOOK_URL: receiver.url, ORDER_WEBHOOK_SECRET: 'bench-webhook-secret' } : {}),
    },
    [
      ...(values['node-args'] ? values['node-args'].split(' ') : []),
      ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(PROJECT_ROOT, 'bench/results')}`] : []),
    ],
  );
  const baseline = await startChild('dist/bench/enrich-baseline-server.js', { DATABASE_URL: databaseUrl });
  if (values['setup-sql']) await runSetupSql(databaseUrl, values['setup-sql']);
  let otherDatabase: BenchDatabase | undefined;
  let other: ChildServer | undefined;
  let otherReceiver: ChildServer | undefined;
  try {
    const accessToken = await developmentToken(service.url);
    const auth = { authorization: `Bearer ${accessToken}` };
    await categorizeBenchProducts(service.url, auth);
    let otherAuth: Record<string, string> = {};
    if (values.against) {
      // Its own database: the other checkout's migrations may differ.
      otherDatabase = await openDatabase(join(directory, 'postgres-against'), 'against');
      const otherUrl = otherDatabase.url;
      otherReceiver = receiver ? await startChild('dist/bench/webhook-receiver-server.js', {}) : undefined;
      other = await startService(
        {
          DATABASE_URL: otherUrl,
          LOG_LEVEL: 'warn',
          SEED_DEMO_DATA: 'true',
          JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
          WEBHOOK_RETRY_ENABLED: retries,
          ...(otherReceiver ? { ORDER_WEBHOOK_URL: otherReceiver.url, ORDER_WEBHOOK_SECRET: 'bench-webhook-secret' } : {}),
        },
        [],
        values.against,
      );
      otherAuth = { authorization: `Bearer ${await developmentToken(other.url)}` };
      await categorizeBenchProducts(other.url, otherAuth);
    }

    const check = await fetch(`${service.url}/api/enrich-order`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: template.replace('__ORDER_ID__', 'bench-check'),
    });
    const checked = (await check.json()) as { payload: { taxSummary: { warnings: unknown[]; totals: unknown } } };
    if (check.status !== 200) throw new Error(`enrich-order answered ${check.status}`);
    process.stdout.write(
      `order: ${template.length} bytes; warnings ${checked.payload.taxSummary.warnings.length}; totals ${JSON.stringify(checked.payload.taxSummary.totals)}\n`,
    );

    // The target measures a whole NFC-e: an answer without the document (or with nfeProblems) stops the run.
    const withItems = await fetch(`${service.url}/api/enrich-order?nfe=65`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: template.replace('__ORDER_ID__', 'bench-nfe-check'),
    });
    const itemsText = await withItems.text();
    const itemsAnswer = JSON.parse(itemsText) as { nfe?: { det: unknown[] }; nfeProblems?: unknown[] };
    if (withItems.status !== 200 || !itemsAnswer.nfe || itemsAnswer.nfeProblems !== undefined)
      throw new Error(`enrich-order?nfe=65 did not answer an issuable NFC-e: ${withItems.status} ${itemsText}`);
    process.stdout.write(`nfe: ${itemsAnswer.nfe.det.length} items, no nfeProblems\n`);

    const checkForward = async (url: string, headers: Record<string, string>) => {
      const forwarded = await fetch(`${url}/api/enrich-order-forward`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: template.replace('__ORDER_ID__', 'bench-forward-check'),
      });
      if (forwarded.status !== 200) throw new Error(`enrich-order-forward answered ${forwarded.status}: ${await forwarded.text()}`);
    };
    if (receiver) await checkForward(service.url, auth);
    if (other && otherReceiver) await checkForward(other.url, otherAuth);

    const servicePid = service.child.pid;
    const serviceTarget: Target = {
      name: 'service',
      url: service.url,
      path: '/api/enrich-order',
      headers: auth,
      pid: servicePid,
      dbPid: database.pid,
      runs: [],
    };
    const baselineTarget: Target = {
      name: 'baseline',
      url: baseline.url,
      path: '/baseline',
      headers: {},
      pid: baseline.child.pid,
      dbPid: database.pid,
      runs: [],
    };
    const nfeTarget: Target = {
      name: 'nfe',
      url: service.url,
      path: '/api/enrich-order?nfe=65',
      headers: auth,
      pid: servicePid,
      dbPid: database.pid,
      runs: [],
    };
    const forwardTarget: Target | undefined = receiver
      ? {
          name: 'forward',
          url: service.url,
          path: '/api/enrich-order-forward',
          headers: auth,
          pid: servicePid,
          dbPid: database.pid,
          runs: [],
        }
      : undefined;
    const againstTarget: Target | undefined = other
      ? {
          name: 'against',
          url: other.url,
          path: '/api/enrich-order',
          headers: otherAuth,
          pid: other.child.pid,
          dbPid: otherDatabase?.pid,
          runs: [],
        }
      : undefined;
    const againstForwardTarget: Target | undefined =
      other && otherReceiver
        ? {
            name: 'against-forward',
            url: other.url,
            path: '/api/enrich-order-forward',
            headers: otherAuth,
            pid: other.child.pid,
            dbPid: otherDatabase?.pid,
            runs: [],
          }
        : undefined;
    const profileTarget: Target = {
      name: 'profile rappi',
      url: service.url,
      path: '/api/enrich-order?profile=rappi',
      headers: auth,
      pid: servicePid,
      dbPid: database.pid,
      body: rappiTemplate,
      runs: [],
    };
    const checkedProfile = await fetch(`${service.url}${profileTarget.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: rappiTemplate.replace('__ORDER_ID__', 'bench-profile-check'),
    });
    if (checkedProfile.status !== 200)
      throw new Error(`enrich-order?profile=rappi answered ${checkedProfile.status}: ${await checkedProfile.text()}`);
    const targets = [
      serviceTarget,
      baselineTarget,
      profileTarget,
      nfeTarget,
      ...(forwardTarget ? [forwardTarget] : []),
      ...(againstTarget ? [againstTarget] : []),
      ...(againstForwardTarget ? [againstForwardTarget] : []),
    ];
    // Every process of the run (services, baseline, receivers) runs on this node: say which, since the ratios differ by runtime.
    process.stdout.write(`node ${process.version}; warm-up ${warmup} s each...\n`);
    for (const target of targets) await load(target.url, target.path, target.headers, warmup, undefined, undefined, target.body);

    const serviceRuns = serviceTarget.runs;
    const baselineRuns = baselineTarget.runs;
    for (let round = 1; round <= rounds; round++) {
      // Rotate which goes first so that none always runs on a warmer machine, and go the other way every other round so
      // that no target always runs right after the same one (and pays for what it left to the database).
      const direction = round % 2 === 1 ? targets : [...targets].reverse();
      const order = direction.map((_, index) => direction[(index + round - 1) % direction.length]!);
      for (const { name, url, path, headers, pid, dbPid, body, runs } of order) {
        if (values.settle) await settle([database, ...(otherDatabase ? [otherDatabase] : [])]);
        const measured = await load(url, path, headers, duration, pid, dbPid, body);
        runs.push(measured);
        const cpu =
          (measured.cpuMsPerRequest === undefined ? '' : `  cpu ${measured.cpuMsPerRequest.toFixed(2)} ms/request`) +
          (measured.dbCpuMsPerRequest === undefined ? '' : `  database cpu ${measured.dbCpuMsPerRequest.toFixed(2)} ms/request`);
        process.stdout.write(
          `round ${round} ${name.padEnd(15)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms  errors ${measured.errors} non-2xx ${measured.non2xx}${cpu}\n`,
        );
      }
    }
    const mean = (runs: Measured[], pick: (m: Measured) => number) => runs.reduce((sum, run) => sum + pick(run), 0) / runs.length;
    const summary = {
      when: new Date().toISOString(),
      settings: { duration, connections, rounds, orderBytes: template.length },
      service: { rps: mean(serviceRuns, (m) => m.rps), p50: mean(serviceRuns, (m) => m.p50), p99: mean(serviceRuns, (m) => m.p99) },
      baseline: { rps: mean(baselineRuns, (m) => m.rps), p50: mean(baselineRuns, (m) => m.p50), p99: mean(baselineRuns, (m) => m.p99) },
      ratio: 0,
      p99OverP50: 0,
      profile: {
        rps: mean(profileTarget.runs, (m) => m.rps),
        p50: mean(profileTarget.runs, (m) => m.p50),
        p99: mean(profileTarget.runs, (m) => m.p99),
      },
      profileOverEnrich: 0,
      forward: forwardTarget
        ? {
            rps: mean(forwardTarget.runs, (m) => m.rps),
            p50: mean(forwardTarget.runs, (m) => m.p50),
            p99: mean(forwardTarget.runs, (m) => m.p99),
          }
        : undefined,
      forwardOverEnrich: undefined as number | undefined,
      nfe: { rps: mean(nfeTarget.runs, (m) => m.rps), p50: mean(nfeTarget.runs, (m) => m.p50), p99: mean(nfeTarget.runs, (m) => m.p99) },
      nfeOverEnrich: 0,
      against: againstTarget
        ? {
            checkout: values.against,
            rps: mean(againstTarget.runs, (m) => m.rps),
            p50: mean(againstTarget.runs, (m) => m.p50),
            p99: mean(againstTarget.runs, (m) => m.p99),
            cpuMsPerRequest: mean(againstTarget.runs, (m) => m.cpuMsPerRequest ?? Number.NaN),
          }
        : undefined,
      againstForward: againstForwardTarget
        ? {
            rps: mean(againstForwardTarget.runs, (m) => m.rps),
            p50: mean(againstForwardTarget.runs, (m) => m.p50),
            p99: mean(againstForwardTarget.runs, (m) => m.p99),
            cpuMsPerRequest: mean(againstForwardTarget.runs, (m) => m.cpuMsPerRequest ?? Number.NaN),
            dbCpuMsPerRequest: mean(againstForwardTarget.runs, (m) => m.dbCpuMsPerRequest ?? Number.NaN),
          }
        : undefined,
      againstForwardOverEnrich: undefined as number | undefined,
      forwardCpuMsPerRequest: forwardTarget ? mean(forwardTarget.runs, (m) => m.cpuMsPerRequest ?? Number.NaN) : undefined,
      forwardDbCpuMsPerRequest: forwardTarget ? mean(forwardTarget.runs, (m) => m.dbCpuMsPerRequest ?? Number.NaN) : undefined,
      serviceCpuMsPerRequest: mean(serviceRuns, (m) => m.cpuMsPerRequest ?? Number.NaN),
      /** The service and its PostgreSQL together, over all measured rounds. */
      cpuPerRequest: {
        enrich: cpuPerRequest(serviceRuns),
        forward: forwardTarget ? cpuPerRequest(forwardTarget.runs) : undefined,
        againstEnrich: againstTarget ? cpuPerRequest(againstTarget.runs) : undefined,
        againstForward: againstForwardTarget ? cpuPerRequest(againstForwardTarget.runs) : undefined,
      },
    };
    if (summary.forward) summary.forwardOverEnrich = summary.forward.rps / summary.service.rps;
    if (summary.againstForward && summary.against) summary.againstForwardOverEnrich = summary.againstForward.rps / summary.against.rps;
    summary.ratio = summary.service.rps / summary.baseline.rps;
    summary.profileOverEnrich = summary.profile.rps / summary.service.rps;
    summary.nfeOverEnrich = summary.nfe.rps / summary.service.rps;
    summary.p99OverP50 = summary.service.p99 / summary.service.p50;
    const cpuTargets: Array<[string, Measured[]]> = [
      ['profile', profileTarget.runs],
      ['nfe', nfeTarget.runs],
    ];
    process.stdout.write(
      [
        '',
        '| | req/s | p50 | p99 |',
        '|---|---|---|---|',
        `| POST /api/enrich-order | ${summary.service.rps.toFixed(0)} | ${summary.service.p50.toFixed(1)} ms | ${summary.service.p99.toFixed(1)} ms |`,
        `| baseline (Fastify + JSON.parse + same upsert) | ${summary.baseline.rps.toFixed(0)} | ${summary.baseline.p50.toFixed(1)} ms | ${summary.baseline.p99.toFixed(1)} ms |`,
        `| POST /api/enrich-order?nfe=65 | ${summary.nfe.rps.toFixed(0)} | ${summary.nfe.p50.toFixed(1)} ms | ${summary.nfe.p99.toFixed(1)} ms |`,
        ...(summary.forward
          ? [
              `| POST /api/enrich-order-forward (receiver answers at once) | ${summary.forward.rps.toFixed(0)} | ${summary.forward.p50.toFixed(1)} ms | ${summary.forward.p99.toFixed(1)} ms |`,
            ]
          : []),
        '',
        `ratio enrich-order / baseline: ${summary.ratio.toFixed(2)} (target >= 0.85)`,
        `enrich-order p99 / p50: ${summary.p99OverP50.toFixed(2)} (target < 2.5)`,
        `ratio enrich-order profile / enrich-order: ${summary.profileOverEnrich.toFixed(2)} (the same order as Rappi sends it, ?profile=rappi; target >= 0.90)`,
        `ratio enrich-order nfe / enrich-order: ${summary.nfeOverEnrich.toFixed(2)} (target >= 0.90)`,
        // req/s moves with the neighbours' load; what a request costs (the service and its PostgreSQL) moves much less.
        ...cpuTargets.map(([name, runs]) => {
          const [own, other] = [cpuPerRequest(serviceRuns), cpuPerRequest(runs)];
          return `cpu per request enrich-order ${name}: ${other.total.toFixed(2)} ms (service ${other.service.toFixed(3)} ms, PostgreSQL ${other.database.toFixed(3)} ms), enrich-order ${own.total.toFixed(2)} ms (${own.service.toFixed(3)}, ${own.database.toFixed(3)}): ratio enrich-order / ${name} ${(own.total / other.total).toFixed(2)}`;
        }),
        `cpu per request: enrich-order ${summary.serviceCpuMsPerRequest.toFixed(3)} ms, baseline ${mean(baselineRuns, (m) => m.cpuMsPerRequest ?? Number.NaN).toFixed(3)} ms`,
        ...(summary.forwardOverEnrich === undefined || !forwardTarget
          ? []
          : [
              `ratio enrich-order-forward / enrich-order: ${summary.forwardOverEnrich.toFixed(2)} (target >= 0.80)`,
              ...cpuLines('', serviceRuns, forwardTarget.runs),
            ]),
        ...(summary.against
          ? [
              `against ${summary.against.checkout}: ${summary.against.rps.toFixed(0)} req/s, p50 ${summary.against.p50.toFixed(1)} ms, p99 ${summary.against.p99.toFixed(1)} ms`,
              `ratio enrich-order this checkout / against: ${(summary.service.rps / summary.against.rps).toFixed(3)}`,
              `cpu per request: this checkout ${summary.serviceCpuMsPerRequest.toFixed(3)} ms, against ${summary.against.cpuMsPerRequest.toFixed(3)} ms (ratio ${(summary.serviceCpuMsPerRequest / summary.against.cpuMsPerRequest).toFixed(3)})`,
            ]
          : []),
        ...(summary.againstForward && summary.againstForwardOverEnrich !== undefined && summary.forwardOverEnrich !== undefined
          ? [
              `against forward: ${summary.againstForward.rps.toFixed(0)} req/s, p50 ${summary.againstForward.p50.toFixed(1)} ms, p99 ${summary.againstForward.p99.toFixed(1)} ms`,
              `ratio forward / enrich-order: this checkout ${summary.forwardOverEnrich.toFixed(2)}, against ${summary.againstForwardOverEnrich.toFixed(2)}`,
              `forward req/s this checkout / against: ${(summary.forward!.rps / summary.againstForward.rps).toFixed(3)}`,
              ...cpuLines('against: ', againstTarget!.runs, againstForwardTarget!.runs),
              `forward cpu per request: this checkout ${summary.forwardCpuMsPerRequest!.toFixed(3)} ms (database ${summary.forwardDbCpuMsPerRequest!.toFixed(3)} ms), against ${summary.againstForward.cpuMsPerRequest.toFixed(3)} ms (database ${summary.againstForward.dbCpuMsPerRequest.toFixed(3)} ms)`,
            ]
          : []),
        '',
      ].join('\n'),
    );
    await mkdir(join(PROJECT_ROOT, 'bench/results'), { recursive: true });
    await writeFile(
      join(PROJECT_ROOT, 'bench/results', `enrich-${Date.now()}.json`),
      JSON.stringify(
        {
          summary,
          serviceRuns,
          baselineRuns,
          forwardRuns: forwardTarget?.runs,
          againstRuns: againstTarget?.runs,
          againstForwardRuns: againstForwardTarget?.runs,
        },
        null,
        2,
      ),
    );
  } finally {
    await service.stop();
    await other?.stop();
    await otherReceiver?.stop();
    await otherDatabase?.stop();
    await baseline.stop();
    await receiver?.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
