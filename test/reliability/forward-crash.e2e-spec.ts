import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { In, type DataSource } from 'typeorm';
import { EmbeddedPostgres, freePort } from '../../src/database/embedded-postgres.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { WebhookRetryJobEntity } from '../../src/webhooks/webhook-retry-job.entity.js';
import { order, retryJob } from '../factories/index.js';
import { eventually } from '../support/eventually.js';
import { developmentClientToken, HttpClient } from '../support/http.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { retryJobCount, rowReader } from '../support/rows.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { answer, forwardedPayload, hang, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * A `kill -9` while forwards waited on a slow receiver left orders
 * ENRICHED with no attempt and no retry job although the receiver had them; and retries
 * drained at a fixed 16 per second. Now the attempt is durable before the send (the retry
 * worker sends the same message, same webhook-id, after a crash), and a backlog is sent
 * with bounded concurrency, claiming again as soon as slots free up.
 */
describe('forwards survive a crash and retries drain a backlog', () => {
  let directory: string;
  let database: EmbeddedPostgres;
  let receiver: WebhookReceiver;
  let databaseUrl: string;
  let db: DataSource;
  const storeId = unique('crash-store');
  const env = () => ({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: 'forward-crash-secret-forward-crash-secret',
    ORDER_WEBHOOK_URL: receiver.url,
    ORDER_WEBHOOK_SECRET: 'forward-crash-webhook-secret',
    ORDER_WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s',
    WEBHOOK_RETRY_CONCURRENCY: '4',
    LOG_LEVEL: 'warn',
  });
  /** Long waits: a restart and a drain of the queue on a loaded machine. */
  const waitUntil = (what: string, check: () => Promise<boolean>) => eventually(check, { what, timeoutMs: 45_000, intervalMs: 200 });

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'forward-crash-'));
    database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), port: await freePort() });
    databaseUrl = await database.start();
    // The service runs (and is killed) in its own process: the test reads and writes its rows through a DataSource of its own.
    db = await rowReader(databaseUrl, [OrderEntity, WebhookRetryJobEntity]);
    receiver = await WebhookReceiver.start();
  }, 60_000);
  afterAll(async () => {
    await db?.destroy();
    await receiver?.close();
    await database?.stop();
    await rm(directory, { recursive: true, force: true });
  });

  it('sends every forward interrupted by kill -9 again after the restart, under the same webhook-id', async () => {
    let service: ServiceProcess | undefined = await startServiceProcess(env());
    try {
      const http = new HttpClient(service.baseUrl);
      const token = await developmentClientToken(http);
      await seedFiscalData(http, token, storeId);
      receiver.fallback = hang;
      const orderIds = Array.from({ length: 8 }, () => unique('crash'));
      for (const orderId of orderIds) void http.post('/enrich-order-forward', orderFor(orderId, storeId), { token }).catch(() => undefined);
      await receiver.waitForRequests(orderIds.length, 20_000);
      service.child.kill('SIGKILL');
      await service.stop();
      service = undefined;

      receiver.fallback = answer(200, 'ok');
      service = await startServiceProcess(env());
      const orders = db.getRepository(OrderEntity);
      await waitUntil(
        'every interrupted order is FORWARDED',
        async () => (await orders.countBy({ orderId: In(orderIds), status: 'FORWARDED' })) === orderIds.length,
      );

      const rows = await orders.findBy({ orderId: In(orderIds) });
      for (const row of rows) {
        const ids = new Set(
          receiver.requests
            .filter((request) => forwardedPayload(request).orderId === row.orderId)
            .map((request) => request.headers['webhook-id']),
        );
        // The message the dead process had sent and the retry's are one message for the receiver, with one content:
        // the retry sends the order's stored payload.
        expect([row.orderId, ids.size]).toEqual([row.orderId, 1]);
        for (const request of receiver.requests.filter((sent) => forwardedPayload(sent).orderId === row.orderId)) {
          expect(forwardedPayload(request)).toEqual(row.enrichedPayload);
        }
      }
      // Each job is removed after its attempt is recorded, in a statement of its own: wait for the last removal.
      await waitUntil(
        'every delivered job to be removed',
        async () => (await db.getRepository(WebhookRetryJobEntity).countBy({ orderDbId: In(rows.map((row) => row.id)) })) === 0,
      );
    } finally {
      await service?.stop();
    }
  }, 120_000);

  it('drains a backlog beyond one claim, at most WEBHOOK_RETRY_CONCURRENCY at a time, each job sent once', async () => {
    receiver.reset();
    let open = 0;
    let mostOpen = 0;
    receiver.fallback = (_request, response) => {
      open += 1;
      mostOpen = Math.max(mostOpen, open);
      setTimeout(() => {
        open -= 1;
        response.writeHead(200);
        response.end('ok');
      }, 20);
    };
    const prefix = unique('drain');
    // 60 failed forwards, each with its due retry job.
    for (let n = 1; n <= 60; n++) {
      const orderId = `${prefix}-${n}`;
      const enrichedPayload = { orderId };
      const row = await order(db, {
        orderId,
        status: 'FORWARD_FAILED',
        payload: { orderId },
        enrichedPayload,
        storeId: 's',
        source: 'drain',
        webhookAttempts: 1,
      });
      await retryJob(db, {
        orderDbId: row.id,
        webhookId: `msg_${randomUUID().replaceAll('-', '')}`,
        body: JSON.stringify(enrichedPayload),
      });
    }
    // Two instances share the queue: a job is still sent once.
    const first = await startServiceProcess(env());
    const second = await startServiceProcess(env());
    try {
      await waitUntil('the queue is empty', async () => (await retryJobCount(db)) === 0);
    } finally {
      await first.stop();
      await second.stop();
    }
    const sent = receiver.requests.map((request) => forwardedPayload(request).orderId).filter((id) => id.startsWith(prefix));
    expect(sent).toHaveLength(60);
    expect(new Set(sent).size).toBe(60);
    // Two instances × WEBHOOK_RETRY_CONCURRENCY 4.
    expect(mostOpen).toBeLessThanOrEqual(8);
    expect(mostOpen).toBeGreaterThan(1);
  }, 120_000);
});
