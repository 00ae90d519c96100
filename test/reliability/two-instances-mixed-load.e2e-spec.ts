import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { EmbeddedPostgres } from '../../src/database/embedded-postgres.js';
import { canTransition, isOrderStatus, ORDER_STATUSES, type OrderStatus } from '../../src/orders/order-status.js';
import type { Schemas } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { fiscalMatrix, orderFor, seedFiscalData } from '../support/orders.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { forwardedPayload } from '../support/webhook-receiver.js';

interface Delivery {
  webhookId: string;
  timestamp: string;
  orderId: string;
  status: number;
}

/**
 * Two service processes on one database under a mixed load (enrich, forward, list, status
 * changes, fiscal edits), with the webhook's first answer to each message a 500 so that
 * every forward needs one background retry. Afterwards: one row per order, no 500,
 * every forward delivered exactly twice (the failure, then one retry: never a retry run
 * by both instances), counters that match the receiver, and legal status histories.
 */
describe('two instances, one database, mixed load (reliability)', () => {
  let directory: string;
  let database: EmbeddedPostgres;
  let receiver: Server;
  let webhookUrl: string;
  const deliveries: Delivery[] = [];
  const seen = new Set<string>();
  let instances: ServiceProcess[] = [];

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'two-instances-'));
    database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres') });
    const databaseUrl = await database.start();
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const webhookId = String(request.headers['webhook-id']);
        const first = !seen.has(webhookId);
        seen.add(webhookId);
        const status = first ? 500 : 200;
        deliveries.push({
          webhookId,
          timestamp: String(request.headers['webhook-timestamp']),
          orderId: forwardedPayload({ body }).orderId,
          status,
        });
        response.writeHead(status).end(first ? 'try again' : 'ok');
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
    webhookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/orders`;
    const env = {
      DATABASE_URL: databaseUrl,
      JWT_SECRET: 'two-instances-secret-two-instances-secret',
      ORDER_WEBHOOK_URL: webhookUrl,
      WEBHOOK_RETRY_ENABLED: 'true',
      // Over a second apart, so that two sends of one message never share a webhook-timestamp.
      WEBHOOK_RETRY_SCHEDULE: '1100ms,1100ms,1100ms',
      AUTH_RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'warn',
    };
    instances = [await startServiceProcess(env), await startServiceProcess(env)];
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
    await new Promise((done) => receiver.close(done));
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('keeps every order once, every delivery once and every counter exact', async () => {
    const clients = instances.map((instance) => new HttpClient(instance.baseUrl));
    const token = await developmentClientToken(clients[0]!);
    await seedFiscalData(clients[0]!, token, 'mixed-store');
    const groupId = (await clients[1]!.get<Schemas['FiscalGroupResponseDto']>('/admin/fiscal-groups/by-store/mixed-store', { token })).body
      .id;

    const pool = Array.from({ length: 40 }, (_, index) => `mix-${process.pid}-${index}`);
    const forwarded: string[] = [];
    const acknowledged = new Set<string>();
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    let requests = 0;
    let sequence = 0;
    // The load lasts a number of requests, not a time: a slower machine runs it longer.
    const enough = () => requests >= 200 && forwarded.length >= 6;
    const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;

    const worker = async (workerIndex: number) => {
      while (!enough()) {
        const http = clients[(workerIndex + sequence++) % 2]!;
        const roll = Math.random();
        let operation: string;
        let status: number;
        if (roll < 0.4) {
          operation = 'enrich';
          const orderId = pick(pool);
          status = (await http.post('/enrich-order', orderFor(orderId, 'mixed-store'), { token })).status;
          if (status === 200) acknowledged.add(orderId);
        } else if (roll < 0.55) {
          operation = 'forward';
          const orderId = `fwd-${process.pid}-${workerIndex}-${sequence}`;
          status = (await http.post('/enrich-order-forward', orderFor(orderId, 'mixed-store'), { token })).status;
          // The webhook's first answer is a 500: the forward answers 502 and leaves a retry to do.
          if (status === 502) forwarded.push(orderId);
        } else if (roll < 0.8) {
          operation = 'status';
          status = (await http.post('/api/order/status', { order_id: pick(pool), status: pick(ORDER_STATUSES) }, { token })).status;
        } else if (roll < 0.92) {
          operation = 'list';
          status = (await http.get('/admin/orders', { token, query: { storeId: 'mixed-store', pageSize: 20 } })).status;
        } else {
          operation = 'fiscal-edit';
          status = (await http.put(`/admin/fiscal-groups/${groupId}`, { taxMatrix: fiscalMatrix(pick([12, 18])) }, { token })).status;
        }
        requests += 1;
        count(`${operation} ${status}`);
      }
    };
    await Promise.all(Array.from({ length: 12 }, (_, index) => worker(index)));

    // Let the background retries finish (one per forward, 1.1 s after it).
    // A plain client: the two instances under test run in their own processes, no app is booted in this one; the checks
    // are aggregates over whole tables after the load (duplicates, sums, every history), typed SQL rather than entity reads.
    const client = new pg.Client({ connectionString: database.connectionUrl });
    await client.connect();
    try {
      // A job goes after its attempt is recorded: an empty queue means every retry is counted.
      await eventually(
        async () => (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM webhook_retry_job')).rows[0]!.n === 0,
        {
          what: 'the retry queue to empty',
          timeoutMs: 20_000,
          intervalMs: 200,
        },
      );
      process.stdout.write(
        `[two instances] ${requests} requests: ${JSON.stringify(Object.fromEntries([...outcomes].sort()))}; receiver got ${deliveries.length}\n`,
      );

      // No 500 anywhere; the only 5xx is the forward's 502 for the webhook's first answer.
      expect([...outcomes.keys()].filter((key) => /\s5\d\d$/.test(key) && key !== 'forward 502')).toEqual([]);
      expect(forwarded.length).toBeGreaterThanOrEqual(6);

      // One row per order, every acknowledged one present.
      const { rows: duplicates } = await client.query('SELECT order_id FROM orders GROUP BY order_id HAVING count(*) > 1');
      expect(duplicates).toEqual([]);
      const { rows: present } = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM orders WHERE order_id = ANY($1)', [
        [...acknowledged, ...forwarded],
      ]);
      expect(present[0]!.n).toBe(acknowledged.size + forwarded.length);

      // Every forward: exactly the failed forward and one retry, never a send made twice.
      const byMessage = new Map<string, string[]>();
      for (const delivery of deliveries)
        byMessage.set(`${delivery.webhookId} ${delivery.timestamp}`, [
          ...(byMessage.get(`${delivery.webhookId} ${delivery.timestamp}`) ?? []),
          delivery.orderId,
        ]);
      expect([...byMessage.values()].filter((orders) => orders.length > 1)).toEqual([]);
      const { rows: states } = await client.query<{ order_id: string; status: string; webhook_attempts: number; logged: number }>(
        `SELECT o.order_id, o.status, o.webhook_attempts, (SELECT count(*)::int FROM webhook_delivery d WHERE d.order_db_id = o.id) AS logged
         FROM orders o WHERE o.order_id = ANY($1)`,
        [forwarded],
      );
      for (const state of states) {
        const received = deliveries.filter((delivery) => delivery.orderId === state.order_id);
        expect({
          order: state.order_id,
          status: state.status,
          attempts: state.webhook_attempts,
          logged: state.logged,
          received: received.map((d) => d.status),
        }).toEqual({
          order: state.order_id,
          status: 'FORWARDED',
          attempts: 2,
          logged: 2,
          received: [500, 200],
        });
      }
      // Every send the receiver saw is counted on its order, and nothing more.
      const { rows: totals } = await client.query<{ attempts: number; logged: number }>(
        'SELECT coalesce(sum(webhook_attempts), 0)::int AS attempts, (SELECT count(*)::int FROM webhook_delivery) AS logged FROM orders',
      );
      expect(totals[0]).toEqual({ attempts: deliveries.length, logged: deliveries.length });

      // Every status history is a legal path.
      const { rows: history } = await client.query<{ order_db_id: string; from_status: string | null; to_status: string }>(
        'SELECT order_db_id, from_status, to_status FROM order_status_history ORDER BY order_db_id, id',
      );
      let previous: { order: string; status: string } | undefined;
      const illegal: string[] = [];
      for (const row of history) {
        const first = previous?.order !== row.order_db_id;
        if (first) {
          if (row.from_status !== null) illegal.push(`${row.order_db_id}: starts from ${row.from_status}`);
        } else if (row.from_status !== previous!.status) {
          illegal.push(`${row.order_db_id}: ${row.from_status} does not follow ${previous!.status}`);
        } else if (!isOrderStatus(row.from_status) || !canTransition(row.from_status, row.to_status as OrderStatus).allowed) {
          illegal.push(`${row.order_db_id}: ${row.from_status} → ${row.to_status}`);
        }
        previous = { order: row.order_db_id, status: row.to_status };
      }
      expect(illegal).toEqual([]);
    } finally {
      await client.end();
    }

    // A fiscal edit made through one instance reaches the other.
    expect((await clients[0]!.put(`/admin/fiscal-groups/${groupId}`, { taxMatrix: fiscalMatrix(7) }, { token })).status).toBe(200);
    await eventually(
      async () => {
        const dry = await clients[1]!.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', orderFor('dry-run', 'mixed-store'), {
          token,
          query: { dryRun: 'true' },
        });
        // Burger 25.90 × 7 % = 1.813 → 1.81
        expect(dry.body.payload.order!.products![0]!.tax?.ICMS_value).toBe(1.81);
      },
      { what: 'the other instance to use the edited matrix', intervalMs: 50 },
    );
  });
});
