import { In } from 'typeorm';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { webhookDelivery } from '../factories/index.js';
import type { ErrorBody } from '../support/api.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { deliveryRows, existingOrderRow, makeRetryJobDue, retryJobCount, retryJobOf, statusHistory } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { createTestDatabase } from '../setup/test-database.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { eventually } from '../support/eventually.js';
import { afterLaterRetryRound } from '../support/retry-rounds.js';
import { answer, forwardedPayload, type Responder, WebhookReceiver } from '../support/webhook-receiver.js';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

const FORWARD = '/enrich-order-forward';

const storedOrder = (t: TestApp, orderId: string) => existingOrderRow(t.dataSource, orderId);
/** The order's pending retry job, or null. */
const jobOf = (t: TestApp, orderDbId: string) => retryJobOf(t.dataSource, orderDbId);

/** The metric's value summed over both instances' registries. */
async function retryCount(apps: TestApp[]): Promise<number> {
  let total = 0;
  for (const app of apps) {
    const text = (await app.http.get('/metrics')).text;
    for (const match of text.matchAll(/^webhook_deliveries_total\{trigger="retry",outcome="[a-z]+"\} (\d+)$/gm)) total += Number(match[1]);
  }
  return total;
}

describe('automatic retries of failed forwards (e2e, real receiver)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let orders: string;
  const storeId = unique('retry-store');
  /** The order with another payment value: another enriched payload for the same orderId. */
  const orderPaying = (orderId: string, value: number) => ({ ...orderFor(orderId, storeId), payments: [{ method: 'PIX', value }] });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({
      ORDER_WEBHOOK_URL: receiver.url,
      ORDER_WEBHOOK_SECRET: 'retry-secret',
      WEBHOOK_RETRY_ENABLED: 'true',
      WEBHOOK_RETRY_SCHEDULE: '100ms,100ms,100ms',
    });
    orders = await t.tokenFor(['orders']);
    await seedFiscalData(t.http, await t.tokenFor(['admin']), storeId);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  beforeEach(() => receiver.reset());

  it('retries a failed forward until the first 2xx: 3 attempts, one delivery, one webhook-id, FORWARDED', async () => {
    const orderId = unique('twice');
    receiver.respondWith(answer(500, 'down'), answer(500, 'still down'));
    const response = await t.http.post<ErrorBody>(FORWARD, orderFor(orderId, storeId), { token: orders });
    expect(response.status).toBe(502);
    expect(response.body.message).toMatch(/will be retried in 100 ms/);

    const row0 = await storedOrder(t, orderId);
    await eventually(async () => (await storedOrder(t, orderId)).status === 'FORWARDED', { what: 'the order to be FORWARDED' });
    await eventually(async () => (await jobOf(t, row0.id)) === null, { what: 'the job to be removed' });
    await afterLaterRetryRound(t, receiver); // nothing else arrived by then

    expect(receiver.requests).toHaveLength(3);
    const ids = new Set(receiver.requests.map((request) => request.headers['webhook-id']));
    expect(ids.size).toBe(1);
    // Retries send the same payload: the forward as `/enrich-order` writes it, the retries the stored payload as canonical JSON.
    const payloads = receiver.requests.map((request) => JSON.parse(request.body) as unknown);
    expect(payloads.slice(1)).toEqual([payloads[0], payloads[0]]);
    expect(receiver.requests[2]!.body).toBe(receiver.requests[1]!.body);
    // Each attempt is signed over the bytes it sent, as the Standard Webhooks reference library verifies it (a plain secret
    // is used as its UTF-8 bytes); the payload it returns is the stored one.
    const verifier = new Webhook(Buffer.from('retry-secret', 'utf8'), { format: 'raw' });
    const verified = receiver.requests.map((request) => verifier.verify(request.raw, request.headers as Record<string, string>));
    expect(verified).toEqual([payloads[0], payloads[0], payloads[0]]);
    expect(() =>
      verifier.verify(Buffer.from(receiver.requests[1]!.body.replace('}', ' }')), receiver.requests[1]!.headers as Record<string, string>),
    ).toThrow(WebhookVerificationError);

    const row = await storedOrder(t, orderId);
    expect(row).toMatchObject({ status: 'FORWARDED', webhookAttempts: 3 });
    expect(row.webhookLastResponse).toMatchObject({ statusCode: 200, error: null });
    const log = (await deliveryRows(t.dataSource, orderId)).map(({ attempt, trigger, webhookId, statusCode }) => ({
      attempt,
      trigger,
      webhookId,
      statusCode,
    }));
    const webhookId = receiver.requests[0]!.headers['webhook-id'];
    expect(log).toEqual([
      { attempt: 1, trigger: 'forward', webhookId, statusCode: 500 },
      { attempt: 2, trigger: 'retry', webhookId, statusCode: 500 },
      { attempt: 3, trigger: 'retry', webhookId, statusCode: 200 },
    ]);
    const history = await statusHistory(t.dataSource, orderId);
    expect(history.at(-1)).toMatchObject({ fromStatus: 'FORWARD_FAILED', toStatus: 'FORWARDED', via: 'webhook retry' });
  });

  it('stops after the last delay of the schedule, leaving the order FORWARD_FAILED', async () => {
    const orderId = unique('exhausted');
    receiver.fallback = answer(500, 'never');
    expect((await t.http.post(FORWARD, orderFor(orderId, storeId), { token: orders })).status).toBe(502);
    const row = await storedOrder(t, orderId);
    // 1 forward + 3 retries (100ms,100ms,100ms)
    await eventually(async () => (await storedOrder(t, orderId)).webhookAttempts === 4 && (await jobOf(t, row.id)) === null, {
      what: 'the schedule to run out',
    });
    await afterLaterRetryRound(t, receiver);
    expect(receiver.requests).toHaveLength(4);
    expect(await storedOrder(t, orderId)).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 4 });
  });

  it('honours Retry-After when it asks for longer than the schedule', async () => {
    const orderId = unique('retry-after');
    receiver.respondWith(answer(503, 'busy', { 'retry-after': '1' }));
    const response = await t.http.post<ErrorBody>(FORWARD, orderFor(orderId, storeId), { token: orders });
    expect(response.status).toBe(502);
    expect(response.body.message).toMatch(/will be retried in 1 s/);
    await receiver.waitForRequests(2, 10_000);
    const [first, second] = receiver.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    await eventually(async () => (await storedOrder(t, orderId)).status === 'FORWARDED', { what: 'the retry to succeed' });
  });

  describe('a newer payload supersedes a pending retry', () => {
    /** A failed forward whose retry waits 60 s (the receiver's Retry-After), so the test decides what comes first. */
    async function failedForward(orderId: string) {
      receiver.respondWith(answer(503, 'later', { 'retry-after': '60' }));
      expect((await t.http.post(FORWARD, orderPaying(orderId, 10), { token: orders })).status).toBe(502);
      const row = await storedOrder(t, orderId);
      expect(await jobOf(t, row.id)).not.toBeNull();
      return row;
    }

    it('a successful newer forward cancels the older pending retry', async () => {
      const orderId = unique('newer-forward');
      const row = await failedForward(orderId);
      expect((await t.http.post(FORWARD, orderPaying(orderId, 20), { token: orders })).status).toBe(200);
      expect(await jobOf(t, row.id)).toBeNull();
      await afterLaterRetryRound(t, receiver);
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]!.headers['webhook-id']).not.toBe(receiver.requests[0]!.headers['webhook-id']);
      expect(await storedOrder(t, orderId)).toMatchObject({ status: 'FORWARDED', webhookAttempts: 2 });
    });

    it('a failed newer forward replaces the retry with one for the newer payload', async () => {
      const orderId = unique('newer-failed');
      const row = await failedForward(orderId);
      receiver.respondWith(answer(500, 'down'));
      expect((await t.http.post(FORWARD, orderPaying(orderId, 20), { token: orders })).status).toBe(502);
      await eventually(async () => (await storedOrder(t, orderId)).status === 'FORWARDED', { what: 'the newer payload to be retried' });
      // The worker removes its job after recording the attempt, in a statement of its own (a crash between
      // the two leaves a job whose payload is already delivered, which the next claim drops unsent).
      await eventually(async () => (await jobOf(t, row.id)) === null, { what: 'the delivered job to be removed' });
      await afterLaterRetryRound(t, receiver); // nothing else arrived by then
      expect(receiver.requests).toHaveLength(3);
      const newerId = receiver.requests[1]!.headers['webhook-id'];
      expect(receiver.requests[2]!.headers['webhook-id']).toBe(newerId);
      expect(forwardedPayload(receiver.requests[2]!).payments).toMatchObject([{ value: 20 }]);
    });

    it('a payload changed by /enrich-order drops the pending retry without sending the stale one', async () => {
      const orderId = unique('newer-enrich');
      const row = await failedForward(orderId);
      expect((await t.http.post('/enrich-order', orderPaying(orderId, 20), { token: orders })).status).toBe(200);
      await makeRetryJobDue(t.dataSource, row.id);
      await eventually(async () => (await jobOf(t, row.id)) === null, { what: 'the stale job to be dropped' });
      await afterLaterRetryRound(t, receiver);
      expect(receiver.requests).toHaveLength(1);
      expect(await storedOrder(t, orderId)).toMatchObject({ status: 'ENRICHED', webhookAttempts: 1 });
    });

    it('a successful redeliver cancels the pending retry', async () => {
      const orderId = unique('redelivered');
      const row = await failedForward(orderId);
      const admin = await t.tokenFor(['admin']);
      expect((await t.http.post(`/admin/orders/${orderId}/redeliver`, undefined, { token: admin })).status).toBe(200);
      expect(await jobOf(t, row.id)).toBeNull();
      expect(await storedOrder(t, orderId)).toMatchObject({ status: 'FORWARDED', webhookAttempts: 2 });
    });

    it('does not chase an order the store already works: no retry queued, a pending one dropped', async () => {
      const orderId = unique('accepted');
      const row = await failedForward(orderId);
      await t.dataSource.getRepository(OrderEntity).update({ id: row.id }, { status: 'ACCEPTED' });
      await makeRetryJobDue(t.dataSource, row.id);
      await eventually(async () => (await jobOf(t, row.id)) === null, { what: 'the job to be dropped' });
      await afterLaterRetryRound(t, receiver);
      expect(receiver.requests).toHaveLength(1);

      receiver.respondWith(answer(500, 'down'));
      const again = await t.http.post<ErrorBody>(FORWARD, orderPaying(orderId, 30), { token: orders });
      expect(again.status).toBe(502);
      expect(again.body.message).toMatch(/stored as ACCEPTED.*not retried automatically/);
      expect(await jobOf(t, row.id)).toBeNull();
      expect(await storedOrder(t, orderId)).toMatchObject({ status: 'ACCEPTED', webhookAttempts: 2 });
    });

    it('never sends a payload that was already delivered', async () => {
      const orderId = unique('already');
      const row = await failedForward(orderId);
      // The same message got through some other way (another instance's attempt, say): the job must not send it again.
      const job = await jobOf(t, row.id);
      await webhookDelivery(t.dataSource, {
        orderDbId: row.id,
        attempt: 99,
        trigger: 'redeliver',
        webhookId: job!.webhookId,
        url: 'http://elsewhere/',
        requestHeaders: {},
        statusCode: 200,
        durationMs: 1,
      });
      await makeRetryJobDue(t.dataSource, row.id);
      await eventually(async () => (await jobOf(t, row.id)) === null, { what: 'the job to be dropped' });
      await afterLaterRetryRound(t, receiver);
      expect(receiver.requests).toHaveLength(1);
    });
  });
});

describe('the retry queue across instances and restarts (e2e)', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => receiver.reset());

  const retryEnv = (schedule: string) => ({
    ORDER_WEBHOOK_URL: receiver.url,
    WEBHOOK_RETRY_ENABLED: 'true',
    WEBHOOK_RETRY_SCHEDULE: schedule,
  });

  it('two instances on one database: each retry job is sent by exactly one of them', async () => {
    const database = await createTestDatabase();
    const first = await bootTestApp(retryEnv('150ms,150ms'), { databaseUrl: database.url });
    const second = await bootTestApp(retryEnv('150ms,150ms'), { databaseUrl: database.url });
    try {
      const storeId = unique('shared-store');
      await seedFiscalData(first.http, await first.tokenFor(['admin']), storeId);
      // The first attempt of every message fails; its retry succeeds, slowly, so the instances' polls overlap.
      const seen = new Set<string>();
      const firstFailsThenSlowOk: Responder = (request, response) => {
        const id = String(request.headers['webhook-id']);
        if (!seen.has(id)) {
          seen.add(id);
          answer(500, 'first attempt fails')(request, response);
        } else setTimeout(() => answer(200, 'ok')(request, response), 100);
      };
      receiver.fallback = firstFailsThenSlowOk;

      const ids = Array.from({ length: 20 }, (_, index) => unique(`shared-${index}`));
      const apps = [first, second];
      const tokens = [await first.tokenFor(['orders']), await second.tokenFor(['orders'])];
      const responses = await Promise.all(
        ids.map((orderId, index) => apps[index % 2]!.http.post(FORWARD, orderFor(orderId, storeId), { token: tokens[index % 2] })),
      );
      expect(responses.map((response) => response.status)).toEqual(Array(20).fill(502));

      const forwarded = () => first.dataSource.getRepository(OrderEntity).countBy({ orderId: In(ids), status: 'FORWARDED' });
      await eventually(async () => (await forwarded()) === 20, { what: 'every order to be FORWARDED', timeoutMs: 30_000 });
      await eventually(async () => (await retryJobCount(first.dataSource)) === 0, {
        what: 'the queue to empty',
      });
      await afterLaterRetryRound(first, receiver);

      // 20 forwards + 20 retries, each message exactly twice: no retry was sent by both instances.
      expect(receiver.requests).toHaveLength(40);
      const perMessage = new Map<string, number>();
      for (const request of receiver.requests) {
        const id = String(request.headers['webhook-id']);
        perMessage.set(id, (perMessage.get(id) ?? 0) + 1);
      }
      expect([...perMessage.values()]).toEqual(Array(20).fill(2));
      const stored = await first.dataSource.getRepository(OrderEntity).findBy({ orderId: In(ids) });
      const retries = await first.dataSource
        .getRepository(WebhookDeliveryEntity)
        .findBy({ orderDbId: In(stored.map((row) => row.id)), trigger: 'retry' });
      const attempts = stored.map((row) => ({
        webhookAttempts: row.webhookAttempts,
        retries: retries.filter((delivery) => delivery.orderDbId === row.id).length,
      }));
      expect(attempts).toEqual(Array(20).fill({ webhookAttempts: 2, retries: 1 }));
      // And the marker's retry.
      expect(await retryCount(apps)).toBe(20 + 1);
    } finally {
      await second.close();
      await first.close();
      await database.drop();
    }
  });

  it('jobs are rows: a retry scheduled before a restart is sent after it', async () => {
    const database = await createTestDatabase();
    const before = await bootTestApp(retryEnv('100ms'), { databaseUrl: database.url });
    // Its background jobs (the retry worker) stop at once: the retry cannot be sent before the restart, however long closing takes.
    await before.app.get(JobRunner).stopAll();
    const storeId = unique('restart-store');
    const orderId = unique('restart');
    try {
      await seedFiscalData(before.http, await before.tokenFor(['admin']), storeId);
      receiver.respondWith(answer(500, 'down'));
      expect((await before.http.post(FORWARD, orderFor(orderId, storeId), { token: await before.tokenFor(['orders']) })).status).toBe(502);
    } finally {
      await before.close();
    }
    expect(receiver.requests).toHaveLength(1);

    const after = await bootTestApp(retryEnv('100ms'), { databaseUrl: database.url });
    try {
      await eventually(async () => (await storedOrder(after, orderId)).status === 'FORWARDED', { what: 'the retry after the restart' });
      expect(receiver.requests).toHaveLength(2);
      expect(receiver.requests[1]!.headers['webhook-id']).toBe(receiver.requests[0]!.headers['webhook-id']);
      expect((await storedOrder(after, orderId)).webhookAttempts).toBe(2);
    } finally {
      await after.close();
      await database.drop();
    }
  });

  it('WEBHOOK_RETRY_ENABLED=false: no job is queued and nothing is retried', async () => {
    const t = await bootTestApp({ ...retryEnv('50ms'), WEBHOOK_RETRY_ENABLED: 'false' });
    try {
      const storeId = unique('off-store');
      await seedFiscalData(t.http, await t.tokenFor(['admin']), storeId);
      receiver.respondWith(answer(500, 'down'));
      const orderId = unique('off');
      const response = await t.http.post<ErrorBody>(FORWARD, orderFor(orderId, storeId), { token: await t.tokenFor(['orders']) });
      expect(response.status).toBe(502);
      expect(response.body.message).toMatch(/not retried automatically/);
      // Retries are sent from queued jobs only: with none queued, nothing can follow.
      expect(await retryJobCount(t.dataSource)).toBe(0);
      expect(receiver.requests).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
