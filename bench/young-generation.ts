/**
 * npm run bench:gc [-- --seconds 10 --warmup 3 --node-args=--allocation-site-pretenuring]
 *
 * The service's garbage collector under continuous load: starts an embedded PostgreSQL and the service as `npm start`
 * does (its node flags, plus `--trace-gc-nvp` and `--node-args`), loads POST /api/enrich-order with 32 connections
 * without a pause, and reports, for the measured seconds after the warm-up: req/s, the service's CPU per request,
 * how many scavenges ran and how much each promoted to the old generation, their pauses, the mark-compacts, and the
 * service's peak RSS (Linux).
 *
 * `bench:enrich` rotates its targets, so each service idles between rounds; a service under steady load can settle
 * into another state (docs/performance.md, "Allocation-site pretenuring"). The load stops by itself.
 */
import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import {
  type ChildServer,
  developmentToken,
  processCpuMs,
  processPeakRssMiB,
  PROJECT_ROOT,
  startScriptNodeArgs,
  startService,
} from './bench-support.js';
import { benchmarkOrder } from './order-fixture.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '32' },
    'node-args': { type: 'string', default: '' },
  },
});

/** One `--trace-gc-nvp` line: `... gc=s ... pause=3.1 ... promoted=123 ...` (s: scavenge, mc: mark-compact). */
interface Collection {
  at: number;
  kind: string;
  pauseMs: number;
  promotedBytes: number;
}

function parseCollection(line: string, at: number): Collection | undefined {
  if (!line.includes(' gc=')) return undefined;
  const fields = new Map(
    line
      .split(' ')
      .filter((part) => part.includes('='))
      .map((part) => part.split('=', 2) as [string, string]),
  );
  return {
    at,
    kind: fields.get('gc') ?? '',
    pauseMs: Number(fields.get('pause') ?? 0),
    promotedBytes: Number(fields.get('promoted') ?? 0),
  };
}

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-gc-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  const databaseUrl = await database.start();
  const extraNodeArgs = ['--trace-gc-nvp', ...values['node-args'].split(' ').filter(Boolean)];
  const collections: Collection[] = [];
  let service: ChildServer | undefined;
  try {
    service = await startService(
      { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', SEED_DEMO_DATA: 'true', JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00' },
      extraNodeArgs,
      PROJECT_ROOT,
      (line) => {
        const collection = parseCollection(line, performance.now());
        if (collection) collections.push(collection);
      },
    );
    const { url } = service;
    const pid = service.child.pid;
    const token = await developmentToken(url);
    const template = JSON.stringify(benchmarkOrder('__ORDER_ID__'));
    let sequence = 0;
    const load = (seconds: number) =>
      autocannon({
        url,
        connections: Number(values.connections),
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/enrich-order',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            setupRequest: (request) => ({ ...request, body: template.replace('__ORDER_ID__', `gc-${process.pid}-${++sequence}`) }),
          },
        ],
      });
    const nodeArgs = [...startScriptNodeArgs(), ...extraNodeArgs].join(' ');
    process.stdout.write(`node ${process.version} ${nodeArgs}\nwarm-up ${values.warmup} s, then ${values.seconds} s measured...\n`);
    await load(Number(values.warmup));
    const started = performance.now();
    const cpuBefore = processCpuMs(pid)!;
    const result = await load(Number(values.seconds));
    const cpuMs = processCpuMs(pid)! - cpuBefore;
    const ended = performance.now();
    // The trace of the last collection arrives just after it: read what came during the measured seconds.
    await new Promise((done) => setTimeout(done, 200));
    const measured = collections.filter((collection) => collection.at >= started && collection.at <= ended + 200);
    const scavenges = measured.filter((collection) => collection.kind === 's');
    const markCompacts = measured.filter((collection) => collection.kind === 'mc');
    const total = (list: Collection[], pick: (collection: Collection) => number) => list.reduce((sum, item) => sum + pick(item), 0);
    const perScavenge = (pick: (collection: Collection) => number) => total(scavenges, pick) / Math.max(1, scavenges.length);

    const cpuPerRequest = `${(cpuMs / result.requests.total).toFixed(3)} ms`;
    const promoted = `${(perScavenge((s) => s.promotedBytes) / 1e6).toFixed(2)} MB`;
    const pauses = `${perScavenge((s) => s.pauseMs).toFixed(1)} / ${Math.max(0, ...scavenges.map((s) => s.pauseMs)).toFixed(1)} ms`;
    const fullCollections = `${markCompacts.length} (${total(markCompacts, (m) => m.pauseMs).toFixed(0)} ms)`;
    const peakRss = `${processPeakRssMiB(pid) ?? '?'} MiB`;
    const errors = result.errors + result.non2xx;
    process.stdout.write(
      [
        '',
        '| req/s | CPU per request | scavenges | promoted per scavenge | scavenge pause avg / max | mark-compacts (pauses) | peak RSS | errors |',
        '|---:|---:|---:|---:|---:|---:|---:|---:|',
        `| ${result.requests.average.toFixed(0)} | ${cpuPerRequest} | ${scavenges.length} | ${promoted} | ${pauses} | ${fullCollections} | ${peakRss} | ${errors} |`,
        '',
      ].join('\n'),
    );
    if (errors > 0) process.exitCode = 1;
  } finally {
    await service?.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
