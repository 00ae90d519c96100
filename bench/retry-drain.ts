/**
 * npm run bench:retry-drain [-- --jobs 2000 --concurrency 32]
 *
 * How fast one instance drains a backlog of failed forwards once the receiver is back.
 * Starts an embedded PostgreSQL, a local order webhook that answers 200 at once and the
 * service; stores `--jobs` orders in FORWARD_FAILED, each with a due retry job, in one
 * statement; then prints the time until the queue is empty and the drain rate (jobs/s),
 * with progress every second. Target: at least 200 jobs/s on a 2-core machine.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { EmbeddedPostgres } from '../src/database/embedded-postgres.js';
import { startChild, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    jobs: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '32' },
  },
});
const jobCount = Number(values.jobs);

async function main(): Promise<void> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-retry-drain-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
  const databaseUrl = await database.start();
  const receiver = await startChild('dist/bench/webhook-receiver-server.js', {});
  const service = await startService({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
    ORDER_WEBHOOK_URL: receiver.url,
    ORDER_WEBHOOK_SECRET: 'bench-webhook-secret',
    WEBHOOK_RETRY_SCHEDULE: '5s,1h',
    WEBHOOK_RETRY_CONCURRENCY: values.concurrency!,
  });
  const client = new pg.Client({ connectionString: database.connectionUrl });
  await client.connect();
  try {
    await client.query(
      `WITH stored AS (
         INSERT INTO orders (order_id, status, payload, enriched_payload, store_id, source, webhook_attempts)
         SELECT 'drain-' || n, 'FORWARD_FAILED', jsonb_build_object('orderId', 'drain-' || n),
           jsonb_build_object('orderId', 'drain-' || n, 'taxSummary', jsonb_build_object('totals', jsonb_build_object('total_tax', 5.44))),
           'bench-store', 'bench', 1
         FROM generate_series(1, $1::integer) AS n
         RETURNING id, enriched_payload
       )
       INSERT INTO webhook_retry_job (order_db_id, webhook_id, body, retries_done, run_at)
       SELECT id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), enriched_payload::text, 0, now() FROM stored`,
      [jobCount],
    );
    const started = performance.now();
    let last = jobCount;
    for (;;) {
      await new Promise((done) => setTimeout(done, 250));
      const { rows } = await client.query<{ left: number }>('SELECT count(*)::int AS left FROM webhook_retry_job');
      last = rows[0]!.left;
      const seconds = (performance.now() - started) / 1000;
      if (last === 0 || seconds > 120) break;
      if (Math.floor(seconds * 4) % 4 === 0) process.stdout.write(`  ${seconds.toFixed(1)} s: ${jobCount - last} of ${jobCount} sent\n`);
    }
    const seconds = (performance.now() - started) / 1000;
    const { rows } = await client.query<{ delivered: number }>(
      `SELECT count(DISTINCT order_db_id)::int AS delivered FROM webhook_delivery WHERE trigger = 'retry' AND status_code = 200`,
    );
    process.stdout.write(
      `${jobCount - last} of ${jobCount} due retries drained in ${seconds.toFixed(2)} s: ${((jobCount - last) / seconds).toFixed(0)} jobs/s ` +
        `(WEBHOOK_RETRY_CONCURRENCY=${values.concurrency}); ${rows[0]!.delivered} orders delivered by retry\n`,
    );
  } finally {
    await client.end();
    await service.stop();
    await receiver.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
