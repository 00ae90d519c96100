import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import type { Actor } from '../../src/common/actor.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { MetricsModule } from '../../src/metrics/metrics.module.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { OrderDetailSections } from '../../src/orders/order-detail-sections.js';
import { ForwardingService } from '../../src/webhooks/forwarding.service.js';
import { AttemptRecorder } from '../../src/webhooks/attempt-recorder.js';
import type { AttemptRecord } from '../../src/webhooks/webhook-deliveries.repository.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { WebhooksModule } from '../../src/webhooks/webhooks.module.js';
import { fiscalGroup, order, orderPayload, productCategory, retryJob, webhookDelivery } from '../factories/index.js';
import { bootIntegration, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';
import { retryJobOf, scheduledDelayMs } from '../support/rows.js';
import { answer, forwardedPayload, verifySignature, WebhookReceiver, type ReceivedRequest } from '../support/webhook-receiver.js';
import { webhookIdFor } from '../../src/webhooks/webhook-signature.js';
import { AUDIT } from '../support/audit.js';
import { AuditModule } from '../../src/audit/audit.module.js';

const SECRET = 'whsec_' + Buffer.from('integration-signing-key-32-bytes').toString('base64');
const FORWARD: Actor = { clientId: '7001', via: 'POST /api/enrich-order-forward' };
const ADMIN: Actor = { clientId: '7009', via: 'POST /admin/orders/:id/redeliver' };

describe('Webhooks: forward, redeliver and the delivery log (integration)', () => {
  let db: IntegrationContext;
  let receiver: WebhookReceiver;
  let forwarding: ForwardingService;

  const stored = (orderId: string) => db.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
  const deliveriesOf = (orderDbId: string) =>
    db.dataSource.getRepository(WebhookDeliveryEntity).find({ where: { orderDbId }, order: { attempt: 'ASC' } });
  /** The order's retry job, and its delay as scheduled. */
  const jobOf = async (orderDbId: string) => {
    const job = await retryJobOf(db.dataSource, orderDbId);
    return job ? { webhookId: job.webhookId, retriesDone: job.retriesDone, delayMs: scheduledDelayMs(job) } : undefined;
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    db = await bootIntegration({
      imports: [
        AuditModule,
        WebhooksModule,
        ...FISCAL_LOOKUP_MODULES,
        MetricsModule,
        EnrichmentPortsModule,
        FiscalGroupsModule,
        ProductCategoriesModule,
      ],
      env: { ORDER_WEBHOOK_URL: `${receiver.url}?token=t0ps3cret`, ORDER_WEBHOOK_SECRET: SECRET, WEBHOOK_RETRY_SCHEDULE: '60s,5m' },
    });
    // The module's background jobs (the retry worker) are stopped: the tests here look at the queue as the requests leave it.
    await db.get(JobRunner).stopAll();
    forwarding = db.get(ForwardingService);
    await fiscalGroup(db.dataSource, { stores: ['store-fwd'] });
    await productCategory(db.dataSource, { productId: 'product-burger', ncm: '21069090' });
  });
  beforeEach(() => receiver.reset());
  afterAll(async () => {
    await db?.close();
    await receiver?.close();
  });

  describe('forward', () => {
    it('stores the taxed order, POSTs the enriched payload signed, counts and logs the attempt, and leaves no retry', async () => {
      const result = await forwarding.forward(orderPayload('F-ok', 'store-fwd'), FORWARD);
      expect(result.message).toBe('Order F-ok enriched, stored and forwarded: the webhook answered 200 (attempt 1)');

      const [request] = receiver.requests;
      expect(receiver.requests).toHaveLength(1);
      expect(verifySignature(SECRET, request!.headers, request!.raw)).toBe(true);
      const sent = forwardedPayload(request!);
      // Burger 25.90 at ICMS 18 %: 25.90 × 18 % = 4.662 → 4.66; PIS/COFINS base 25.90 − 4.66 = 21.24;
      // PIS 21.24 × 0.65 % = 0.13806 → 0.14; COFINS 21.24 × 3 % = 0.6372 → 0.64; total 4.66 + 0.14 + 0.64 = 5.44
      expect(sent.order!.products![0]!.tax).toMatchObject({ ICMS_value: 4.66, PIS_value: 0.14, COFINS_value: 0.64, total_tax: 5.44 });

      const row = await stored('F-ok');
      expect(row).toMatchObject({ status: 'FORWARDED', webhookAttempts: 1, webhookLastResponse: { statusCode: 200, body: 'ok' } });
      expect(row.enrichedPayload).toEqual(sent);
      expect(await deliveriesOf(row.id)).toEqual([
        expect.objectContaining({
          attempt: 1,
          trigger: 'forward',
          webhookId: request!.headers['webhook-id'],
          // Without the query string: it may carry a token.
          url: receiver.url,
          statusCode: 200,
          responseBody: 'ok',
          error: null,
        }),
      ]);
      // The outbox written before the send (in case this process died meanwhile) went with the delivery; no job was written.
      expect(row.webhookOutboxDueAt).toBeNull();
      expect(await jobOf(row.id)).toBeUndefined();
    });

    it("the order's outbox names the message before it leaves, for a new order and for a re-send, with no job row", async () => {
      /** What the queue held while the receiver had the message: the job, and the order with its payload, webhook-id and outbox. */
      const seen: Array<{ job: Awaited<ReturnType<typeof retryJobOf>>; request: ReceivedRequest; order: OrderEntity }> = [];
      const lookWhileSending = () =>
        receiver.respondWith((request, response) => {
          void stored(forwardedPayload(request).orderId).then(async (row) => {
            seen.push({ job: await retryJobOf(db.dataSource, row.id), request, order: row });
            answer(200, 'ok')(request, response);
          });
        });
      lookWhileSending();
      await forwarding.forward(orderPayload('F-outbox', 'store-fwd'), FORWARD);
      // A re-send of the stored order: a new enrichment (new calculatedAt), a new message.
      lookWhileSending();
      await forwarding.forward(orderPayload('F-outbox', 'store-fwd'), FORWARD);

      expect(seen).toHaveLength(2);
      for (const { job, request, order: row } of seen) {
        // The retry worker takes the outbox over once due, and sends the order's stored payload under the order's
        // webhook-id: the same message. Due after the send's timeout (ORDER_WEBHOOK_TIMEOUT_MS, 10 s by default) + 5 s.
        expect(job).toBeNull();
        expect(row.webhookId).toBe(request.headers['webhook-id']);
        expect(row.enrichedPayload).toEqual(forwardedPayload(request));
        const dueInMs = row.webhookOutboxDueAt!.getTime() - row.updatedAt.getTime();
        expect(dueInMs).toBeGreaterThanOrEqual(db.config.orderWebhookTimeoutMs + 5_000 - 1);
        expect(dueInMs).toBeLessThan(db.config.orderWebhookTimeoutMs + 5_000 + 1_000);
      }
      expect(seen[1]!.request.headers['webhook-id']).not.toBe(seen[0]!.request.headers['webhook-id']);
      expect((await stored('F-outbox')).webhookOutboxDueAt).toBeNull();
      expect(await jobOf(seen[0]!.order.id)).toBeUndefined();
    });

    it('a refused forward answers 502, leaves the order FORWARD_FAILED and schedules the first retry', async () => {
      receiver.respondWith(answer(503, 'busy'));
      await expect(forwarding.forward(orderPayload('F-503', 'store-fwd'), FORWARD)).rejects.toMatchObject({
        status: 502,
        code: 'WEBHOOK_DELIVERY_FAILED',
        message:
          'Order F-503 was enriched and stored as FORWARD_FAILED, but the order webhook did not accept it: the receiver answered 503 (attempt 1); it will be retried in 60 s',
      });
      const row = await stored('F-503');
      expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 1 });
      expect(await jobOf(row.id)).toEqual({ webhookId: receiver.requests[0]!.headers['webhook-id'], retriesDone: 0, delayMs: 60_000 });
      // The retry is the job's now: the outbox went with the statement that scheduled it.
      expect(row.webhookOutboxDueAt).toBeNull();
    });

    it("the receiver's longer Retry-After wins over the schedule", async () => {
      receiver.respondWith(answer(429, 'slow down', { 'retry-after': '120' }));
      await expect(forwarding.forward(orderPayload('F-429', 'store-fwd'), FORWARD)).rejects.toMatchObject({ status: 502 });
      expect((await jobOf((await stored('F-429')).id))?.delayMs).toBe(120_000);
    });

    it('does not chase an order the store already works: no retry job after a failure', async () => {
      await order(db.dataSource, { orderId: 'F-accepted', storeId: 'store-fwd', status: 'ACCEPTED' });
      receiver.respondWith(answer(500));
      await expect(forwarding.forward(orderPayload('F-accepted', 'store-fwd'), FORWARD)).rejects.toMatchObject({
        message: expect.stringContaining('stored as ACCEPTED') as unknown,
      });
      const row = await stored('F-accepted');
      expect(row).toMatchObject({ status: 'ACCEPTED', webhookAttempts: 1, webhookOutboxDueAt: null });
      expect(await jobOf(row.id)).toBeUndefined();
    });

    it('answers 422 and sends nothing when no fiscal group holds the store', async () => {
      await expect(forwarding.forward(orderPayload('F-nogroup', 'store-without-group'), FORWARD)).rejects.toMatchObject({
        status: 422,
        code: 'FISCAL_GROUP_NOT_FOUND',
      });
      expect(await stored('F-nogroup')).toMatchObject({ status: 'ENRICHMENT_FAILED', webhookAttempts: 0 });
      expect(receiver.requests).toHaveLength(0);
    });
  });

  describe('recording forward attempts together', () => {
    const attemptOn = (orderDbId: string, statusCode: number, webhookId: string): AttemptRecord => ({
      orderDbId,
      trigger: 'forward',
      webhookId,
      url: receiver.url,
      requestHeaders: { 'webhook-id': webhookId },
      lastResponse: { statusCode, body: 'ok', durationMs: 3, error: null, attemptedAt: new Date().toISOString() },
      status: statusCode === 200 ? 'FORWARDED' : 'FORWARD_FAILED',
      onlyIfPayload: null,
      cancelPendingRetry: statusCode === 200,
    });

    it("counts and logs each of the attempts that finish together, two on one order included, and drops the delivered order's job", async () => {
      const first = await order(db.dataSource, {
        orderId: 'B-1',
        status: 'ENRICHED',
        enrichedPayload: { orderId: 'B-1' },
        webhookId: 'msg_B-1',
      });
      const second = await order(db.dataSource, {
        orderId: 'B-2',
        status: 'ENRICHED',
        enrichedPayload: { orderId: 'B-2' },
        webhookId: 'msg_B-2',
      });
      await retryJob(db.dataSource, { orderDbId: first.id, webhookId: 'msg_B-1', body: null, runInMs: 60_000 });
      await retryJob(db.dataSource, { orderDbId: second.id, webhookId: 'msg_B-2', body: null, runInMs: 60_000 });
      const recorder = db.get(AttemptRecorder);
      // In one turn of the event loop: written together, but for the second attempt on B-1, which waits for the next statement.
      const recorded = await Promise.all([
        recorder.record(attemptOn(first.id, 503, 'msg_B-1'), FORWARD),
        recorder.record(attemptOn(second.id, 503, 'msg_B-2'), FORWARD),
        recorder.record(attemptOn(first.id, 200, 'msg_B-1'), FORWARD),
      ]);
      expect(recorded).toEqual([
        { attempt: 1, status: 'FORWARD_FAILED', current: true },
        { attempt: 1, status: 'FORWARD_FAILED', current: true },
        { attempt: 2, status: 'FORWARDED', current: true },
      ]);
      expect(await stored('B-1')).toMatchObject({ status: 'FORWARDED', webhookAttempts: 2, lastChangedBy: '7001' });
      expect((await deliveriesOf(first.id)).map((d) => [d.attempt, d.statusCode, d.webhookId])).toEqual([
        [1, 503, 'msg_B-1'],
        [2, 200, 'msg_B-1'],
      ]);
      expect((await deliveriesOf(second.id)).map((d) => [d.attempt, d.statusCode, d.requestHeaders])).toEqual([
        [1, 503, { 'webhook-id': 'msg_B-2' }],
      ]);
      expect(await jobOf(first.id)).toBeUndefined();
      expect(await jobOf(second.id)).toBeDefined();
    });

    it("an attempt of a message a newer send replaced is counted and logged, but leaves the order's status and retry job alone", async () => {
      // Each order's current message is msg_*-new; the attempts are of older messages, answered late.
      const refused = await order(db.dataSource, {
        orderId: 'S-1',
        status: 'FORWARD_FAILED',
        enrichedPayload: { v: 2 },
        webhookId: 'msg_S-1-new',
      });
      const accepted = await order(db.dataSource, {
        orderId: 'S-2',
        status: 'FORWARDED',
        enrichedPayload: { v: 2 },
        webhookId: 'msg_S-2-new',
      });
      await retryJob(db.dataSource, { orderDbId: refused.id, webhookId: 'msg_S-1-new', body: null, runInMs: 60_000 });
      const recorder = db.get(AttemptRecorder);
      const recorded = await Promise.all([
        recorder.record(attemptOn(refused.id, 200, 'msg_S-1-old'), FORWARD),
        recorder.record(attemptOn(accepted.id, 503, 'msg_S-2-old'), FORWARD),
      ]);
      expect(recorded).toEqual([
        { attempt: 1, status: 'FORWARD_FAILED', current: false },
        { attempt: 1, status: 'FORWARDED', current: false },
      ]);
      expect(await jobOf(refused.id)).toMatchObject({ webhookId: 'msg_S-1-new' });
      expect((await deliveriesOf(refused.id)).map((d) => [d.statusCode, d.webhookId])).toEqual([[200, 'msg_S-1-old']]);
      expect((await deliveriesOf(accepted.id)).map((d) => [d.statusCode, d.webhookId])).toEqual([[503, 'msg_S-2-old']]);
    });
  });

  describe('redeliver', () => {
    it('sends the stored enriched payload again, numbering the attempt after the earlier ones, and cancels the pending retry', async () => {
      const enriched = { orderId: 'R-1', taxSummary: { totals: { total_tax: 1.23 } } };
      const target = await order(db.dataSource, {
        orderId: 'R-1',
        status: 'FORWARD_FAILED',
        enrichedPayload: enriched,
        webhookAttempts: 2,
      });
      await webhookDelivery(db.dataSource, { orderDbId: target.id, attempt: 1, statusCode: 500 });
      await webhookDelivery(db.dataSource, { orderDbId: target.id, attempt: 2, statusCode: null, error: 'ECONNREFUSED' });
      await retryJob(db.dataSource, { orderDbId: target.id, body: JSON.stringify(enriched), runInMs: 60_000 });

      expect(await forwarding.redeliver(target.id, ADMIN, AUDIT)).toEqual({
        message: 'Order R-1 redelivered: the webhook answered 200 (attempt 3)',
        webhookStatusCode: 200,
        attempt: 3,
      });
      expect(forwardedPayload(receiver.requests[0]!)).toEqual(enriched);
      expect(await stored('R-1')).toMatchObject({ status: 'FORWARDED', webhookAttempts: 3, lastChangedBy: '7009' });
      expect((await deliveriesOf(target.id)).map((d) => [d.attempt, d.trigger, d.statusCode])).toEqual([
        [1, 'forward', 500],
        [2, 'forward', null],
        [3, 'redeliver', 200],
      ]);
      expect(await jobOf(target.id)).toBeUndefined();
      // Stored without a webhook-id (before orders kept theirs): the hash of its canonical JSON, as its first attempts had.
      expect(receiver.requests[0]!.headers['webhook-id']).toBe(webhookIdFor(target.id, enriched));
    });

    it("a redelivery sends under the order's stored webhook-id", async () => {
      const target = await order(db.dataSource, {
        orderId: 'R-kept',
        status: 'FORWARD_FAILED',
        enrichedPayload: { orderId: 'R-kept' },
        webhookId: 'msg_kept',
      });
      await forwarding.redeliver(target.id, ADMIN, AUDIT);
      expect(receiver.requests.map((request) => request.headers['webhook-id'])).toEqual(['msg_kept']);
    });

    it('a failed redelivery leaves the retry schedule as it was', async () => {
      const target = await order(db.dataSource, { orderId: 'R-2', status: 'FORWARD_FAILED', enrichedPayload: { orderId: 'R-2' } });
      await retryJob(db.dataSource, { orderDbId: target.id, retriesDone: 1, body: '{"orderId": "R-2"}' });
      receiver.respondWith(answer(502, 'bad gateway'));
      await expect(forwarding.redeliver('R-2', ADMIN, AUDIT)).rejects.toMatchObject({
        status: 502,
        message: 'Order R-2 was not accepted by the order webhook: the receiver answered 502 (attempt 1)',
      });
      expect(await jobOf(target.id)).toMatchObject({ retriesDone: 1 });
    });

    it('refuses an order without an enriched payload (409) and an unknown one (404), sending nothing', async () => {
      await order(db.dataSource, { orderId: 'R-untaxed', status: 'ENRICHMENT_FAILED' });
      await expect(forwarding.redeliver('R-untaxed', ADMIN, AUDIT)).rejects.toMatchObject({ status: 409 });
      await expect(forwarding.redeliver('R-missing', ADMIN, AUDIT)).rejects.toMatchObject({
        status: 404,
        message: 'Order R-missing not found',
      });
      expect(receiver.requests).toHaveLength(0);
    });
  });

  describe('the delivery log', () => {
    it("is the order detail's `deliveries` section, oldest first, with the response's field names", async () => {
      const target = await order(db.dataSource, { orderId: 'LOG-1' });
      await webhookDelivery(db.dataSource, {
        orderDbId: target.id,
        attempt: 2,
        trigger: 'retry',
        statusCode: 200,
        attemptedAt: new Date('2026-02-01T10:05:00Z'),
      });
      await webhookDelivery(db.dataSource, {
        orderDbId: target.id,
        attempt: 1,
        webhookId: 'msg_log',
        statusCode: null,
        responseBody: null,
        durationMs: 10_000,
        error: 'no complete answer within 10000 ms',
        attemptedAt: new Date('2026-02-01T10:00:00Z'),
      });
      const { deliveries } = await new OrderDetailSections(db.get(WebhookDeliveriesRepository).detailSections()).read(target.id);
      expect(deliveries).toEqual([
        expect.objectContaining({
          attempt: 1,
          trigger: 'forward',
          webhookId: 'msg_log',
          statusCode: null,
          responseBody: null,
          durationMs: 10_000,
          error: 'no complete answer within 10000 ms',
          attemptedAt: '2026-02-01T10:00:00.000000Z',
        }),
        expect.objectContaining({ attempt: 2, trigger: 'retry', statusCode: 200, attemptedAt: '2026-02-01T10:05:00.000000Z' }),
      ]);
    });
  });
});
