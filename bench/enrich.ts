/**
 * npm run bench:enrich [-- --duration 15 --connections 32 --rounds 2]
 *
 * Starts an embedded PostgreSQL, the service (with the demo fiscal data) and a bare
 * Fastify + pg baseline on it, then loads POST /api/enrich-order and the baseline in
 * turn with a realistic 10-line order (unique orderId per request), and prints
 * req/s, p50 and p99 of both and their ratio. `--profile` writes a CPU profile of the
 * service to bench/results/ (open it in Chrome DevTools).
 *
 * `--forward` (npm run bench:forward) also starts a local order webhook that answers 200 at
 * once and loads POST /api/enrich-order-forward in the same rounds, and prints the ratio of
 * forward req/s to enrich-order req/s.
 */
import autocannon from 'autocannon';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { developmentToken, PROJECT_ROOT, startChild, startService } from './bench-support.js';
import { benchmarkOrder } from './order-fixture.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '15' },
    connections: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '2' },
    warmup: { type: 'string', default: '5' },
    profile: { type: 'boolean', default: false },
    forward: { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
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
}

const template = JSON.stringify(benchmarkOrder('__ORDER_ID__'));
let sequence = 0;

async function load(url: string, path: string, headers: Record<string, string>, seconds: number): Promise<Measured> {
  const runId = `${Date.now().toString(36)}`;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        path,
        headers: { 'content-type': 'application/json', ...headers },
        setupRequest: (request) => ({ ...request, body: template.replace('__ORDER_ID__', `bench-${runId}-${++sequence}`) }),
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-enrich-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  const databaseUrl = await database.start();
  const receiver = values.forward ? await startChild('dist/bench/webhook-receiver-server.js', {}) : undefined;
  const service = await startService(
    {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'warn',
      SEED_DEMO_DATA: 'true',
      JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
      WEBHOOK_RETRY_ENABLED: 'false',
      ...(receiver ? { ORDER_WEBHOOK_URL: receiver.url, ORDER_WEBHOOK_SECRET: 'bench-webhook-secret' } : {}),
    },
    [
      ...(values['node-args'] ? values['node-args'].split(' ') : []),
      ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${join(PROJECT_ROOT, 'bench/results')}`] : []),
    ],
  );
  const baseline = await startChild('dist/bench/enrich-baseline-server.js', { DATABASE_URL: databaseUrl });
  try {
    const accessToken = await developmentToken(service.url);
    const auth = { authorization: `Bearer ${accessToken}` };

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

    if (receiver) {
      const forwarded = await fetch(`${service.url}/api/enrich-order-forward`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth },
        body: template.replace('__ORDER_ID__', 'bench-forward-check'),
      });
      if (forwarded.status !== 200) throw new Error(`enrich-order-forward answered ${forwarded.status}: ${await forwarded.text()}`);
    }

    const targets = [
      { name: 'service', url: service.url, path: '/api/enrich-order', headers: auth, runs: [] as Measured[] },
      { name: 'baseline', url: baseline.url, path: '/baseline', headers: {}, runs: [] as Measured[] },
      ...(receiver
        ? [{ name: 'forward', url: service.url, path: '/api/enrich-order-forward', headers: auth, runs: [] as Measured[] }]
        : []),
    ];
    process.stdout.write(`warm-up ${warmup} s each...\n`);
    for (const target of targets) await load(target.url, target.path, target.headers, warmup);

    const [serviceTarget, baselineTarget, forwardTarget] = targets;
    const serviceRuns = serviceTarget!.runs;
    const baselineRuns = baselineTarget!.runs;
    for (let round = 1; round <= rounds; round++) {
      // Rotate which goes first so that none always runs on a warmer machine.
      const order = targets.map((_, index) => targets[(index + round - 1) % targets.length]!);
      for (const { name, url, path, headers, runs } of order) {
        const measured = await load(url, path, headers, duration);
        runs.push(measured);
        process.stdout.write(
          `round ${round} ${name.padEnd(8)} ${measured.rps.toFixed(0).padStart(6)} req/s  p50 ${measured.p50} ms  p99 ${measured.p99} ms  errors ${measured.errors} non-2xx ${measured.non2xx}\n`,
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
      forward: forwardTarget
        ? {
            rps: mean(forwardTarget.runs, (m) => m.rps),
            p50: mean(forwardTarget.runs, (m) => m.p50),
            p99: mean(forwardTarget.runs, (m) => m.p99),
          }
        : undefined,
      forwardOverEnrich: undefined as number | undefined,
    };
    if (summary.forward) summary.forwardOverEnrich = summary.forward.rps / summary.service.rps;
    summary.ratio = summary.service.rps / summary.baseline.rps;
    summary.p99OverP50 = summary.service.p99 / summary.service.p50;
    process.stdout.write(
      [
        '',
        '| | req/s | p50 | p99 |',
        '|---|---|---|---|',
        `| POST /api/enrich-order | ${summary.service.rps.toFixed(0)} | ${summary.service.p50.toFixed(1)} ms | ${summary.service.p99.toFixed(1)} ms |`,
        `| baseline (Fastify + JSON.parse + same upsert) | ${summary.baseline.rps.toFixed(0)} | ${summary.baseline.p50.toFixed(1)} ms | ${summary.baseline.p99.toFixed(1)} ms |`,
        ...(summary.forward
          ? [
              `| POST /api/enrich-order-forward (receiver answers at once) | ${summary.forward.rps.toFixed(0)} | ${summary.forward.p50.toFixed(1)} ms | ${summary.forward.p99.toFixed(1)} ms |`,
            ]
          : []),
        '',
        `ratio enrich-order / baseline: ${summary.ratio.toFixed(2)} (target >= 0.60)`,
        `enrich-order p99 / p50: ${summary.p99OverP50.toFixed(2)} (target < 4)`,
        ...(summary.forwardOverEnrich === undefined
          ? []
          : [`ratio enrich-order-forward / enrich-order: ${summary.forwardOverEnrich.toFixed(2)}`]),
        '',
      ].join('\n'),
    );
    await mkdir(join(PROJECT_ROOT, 'bench/results'), { recursive: true });
    await writeFile(
      join(PROJECT_ROOT, 'bench/results', `enrich-${Date.now()}.json`),
      JSON.stringify({ summary, serviceRuns, baselineRuns, forwardRuns: forwardTarget?.runs }, null, 2),
    );
  } finally {
    await service.stop();
    await baseline.stop();
    await receiver?.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
