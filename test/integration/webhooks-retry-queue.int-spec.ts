import { createRootLogger } from '../../src/common/logging/logger.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { ADVISORY_LOCKS } from '../../src/database/advisory-locks.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { MetricsModule } from '../../src/metrics/metrics.module.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { WebhookDeliveryRetention } from '../../src/webhooks/webhook-delivery-retention.js';
import { WebhookDeliveryService } from '../../src/webhooks/webhook-delivery.service.js';
import { WebhookRetryJobEntity } from '../../src/webhooks/webhook-retry-job.entity.js';
import { WebhookRetryWorker } from '../../src/webhooks/webhook-retry.worker.js';
import { WebhooksModule } from '../../src/webhooks/webhooks.module.js';
import { order, retryJob, webhookDelivery } from '../factories/index.js';
import { bootIntegration, eventually, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';
import { makeRetryJobDue, retryJobOf, scheduledDelayMs } from '../support/rows.js';
import { answer, WebhookReceiver } from '../support/webhook-receiver.js';
import { AuditModule } from '../../src/audit/audit.module.js';

const LEASE_MS = 70_000;

describe('Webhooks: the retry queue, the retry worker and retention (integration)', () => {
  let db: IntegrationContext;
  let receiver: WebhookReceiver;
  let queue: WebhookDeliveriesRepository;

  /** The order's job, and the delay its last write gave it. */
  const jobOf = async (orderDbId: string) => {
    const job = await retryJobOf(db.dataSource, orderDbId);
    return job ? { id: job.id, retriesDone: job.retriesDone, lease: job.lease, delayMs: scheduledDelayMs(job) } : undefined;
  };
  /** An order whose enriched payload is `payload`, FORWARD_FAILED unless told, with its due retry job of that payload. */
  const failedForward = async (orderId: string, overrides: Partial<OrderEntity> = {}, retriesDone = 0) => {
    const enrichedPayload = { orderId, taxed: true };
    const row = await order(db.dataSource, { orderId, status: 'FORWARD_FAILED', enrichedPayload, webhookAttempts: 1, ...overrides });
    const job = await retryJob(db.dataSource, { orderDbId: row.id, body: JSON.stringify(enrichedPayload), retriesDone });
    return { row, job };
  };
  /** A worker of its own for one test, started as the app starts it; `stop()` ends its rounds and awaits its sends. */
  const startWorker = () => {
    const jobs = db.get(JobRunner);
    new WebhookRetryWorker(db.config, queue, db.get(WebhookDeliveryService), jobs, createRootLogger('silent')).onApplicationBootstrap();
    return { stop: () => jobs.stopAll() };
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    db = await bootIntegration({
      imports: [AuditModule, WebhooksModule, ...FISCAL_LOOKUP_MODULES, MetricsModule, EnrichmentPortsModule],
      env: { ORDER_WEBHOOK_URL: receiver.url, WEBHOOK_RETRY_SCHEDULE: '60s,5m', WEBHOOK_DELIVERY_RETENTION_DAYS: '30' },
    });
    // The module's background jobs (its retry worker) are stopped: each test starts a worker when it wants the queue worked.
    await db.get(JobRunner).stopAll();
    queue = db.get(WebhookDeliveriesRepository);
  });
  beforeEach(async () => {
    receiver.reset();
    await db.dataSource.createQueryBuilder().delete().from(WebhookRetryJobEntity).execute();
  });
  afterAll(async () => {
    await db?.close();
    await receiver?.close();
  });

  describe('claims', () => {
    it('claims due jobs oldest first up to the limit, hides them for the lease, and leaves jobs not due', async () => {
      const orders = await Promise.all(['C-1', 'C-2', 'C-3', 'C-later'].map((orderId) => order(db.dataSource, { orderId })));
      await retryJob(db.dataSource, { orderDbId: orders[0]!.id, runInMs: -3000 });
      await retryJob(db.dataSource, { orderDbId: orders[1]!.id, runInMs: -2000 });
      await retryJob(db.dataSource, { orderDbId: orders[2]!.id, runInMs: -1000 });
      await retryJob(db.dataSource, { orderDbId: orders[3]!.id, runInMs: 60_000 });

      const first = await queue.claimDueJobs(2, LEASE_MS);
      expect(first.map((job) => job.orderDbId)).toEqual([orders[0]!.id, orders[1]!.id]);
      expect(await queue.claimDueJobs(2, LEASE_MS)).toEqual([expect.objectContaining({ orderDbId: orders[2]!.id })]);
      expect(await queue.claimDueJobs(2, LEASE_MS)).toEqual([]);
      const claimed = await jobOf(orders[0]!.id);
      expect(claimed).toMatchObject({ lease: first[0]!.lease, delayMs: LEASE_MS });
      expect(first[0]!.lease).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('two instances claiming at once never take the same job', async () => {
      for (let i = 0; i < 8; i++) await retryJob(db.dataSource, { orderDbId: (await order(db.dataSource)).id });
      const [a, b] = await Promise.all([queue.claimDueJobs(8, LEASE_MS), queue.claimDueJobs(8, LEASE_MS)]);
      const ids = [...a!, ...b!].map((job) => job.id);
      expect(ids).toHaveLength(8);
      expect(new Set(ids).size).toBe(8);
    });

    it("reads each job's order: its status, whether the payload is still the order's, whether it was delivered", async () => {
      const current = await failedForward('C-current');
      const stale = await order(db.dataSource, { orderId: 'C-stale', enrichedPayload: { v: 2 } });
      await retryJob(db.dataSource, { orderDbId: stale.id, body: '{"v": 1}' });
      const delivered = await order(db.dataSource, { orderId: 'C-delivered', status: 'ACCEPTED', enrichedPayload: { v: 1 } });
      await retryJob(db.dataSource, { orderDbId: delivered.id, webhookId: 'msg_delivered', body: '{"v":1}' });
      await webhookDelivery(db.dataSource, { orderDbId: delivered.id, webhookId: 'msg_delivered', statusCode: 204 });
      await webhookDelivery(db.dataSource, { orderDbId: current.row.id, webhookId: current.job.webhookId, statusCode: 500 });

      const jobs = new Map((await queue.claimDueJobs(10, LEASE_MS)).map((job) => [job.orderDbId, job]));
      expect(jobs.get(current.row.id)).toMatchObject({ orderStatus: 'FORWARD_FAILED', current: true, delivered: false, retriesDone: 0 });
      expect(jobs.get(stale.id)).toMatchObject({ orderStatus: 'RECEIVED', current: false, delivered: false });
      expect(jobs.get(delivered.id)).toMatchObject({ orderStatus: 'ACCEPTED', current: true, delivered: true });
    });

    it('only the holder of the claim reschedules or removes it: a job replaced meanwhile is left alone', async () => {
      const { row } = await failedForward('C-lease');
      const [claim] = await queue.claimDueJobs(1, LEASE_MS);
      await queue.rescheduleJob(claim!, 1, 300_000);
      expect(await jobOf(row.id)).toMatchObject({ retriesDone: 1, lease: null, delayMs: 300_000 });

      // The claim's lease is gone with the reschedule: the old holder can no longer finish it.
      await queue.finishJob(claim!);
      expect(await jobOf(row.id)).toBeDefined();

      // A new payload (stored with its own webhook-id) replaces the job (one per order) while a worker holds it: the
      // holder's writes miss.
      await makeRetryJobDue(db.dataSource, row.id);
      const [held] = await queue.claimDueJobs(1, LEASE_MS);
      await db.dataSource.getRepository(OrderEntity).update(row.id, { webhookId: 'msg_newer' });
      await queue.scheduleRetry(row.id, 'msg_newer', 1000);
      await queue.rescheduleJob(held!, 2, 300_000);
      await queue.finishJob(held!);
      expect(await jobOf(row.id)).toMatchObject({ retriesDone: 0, lease: null, delayMs: 1000 });
    });

    it('dropPendingJob removes the pending job of that message, not one a worker holds', async () => {
      const pending = await failedForward('C-drop');
      await queue.dropPendingJob(pending.row.id, pending.job.webhookId);
      expect(await jobOf(pending.row.id)).toBeUndefined();

      const held = await failedForward('C-held');
      await queue.claimDueJobs(1, LEASE_MS);
      await queue.dropPendingJob(held.row.id, held.job.webhookId);
      expect(await jobOf(held.row.id)).toBeDefined();
    });
  });

  describe('the retry worker', () => {
    it('sends a due job as it was queued, logs it as a retry and removes the job; the order is FORWARDED', async () => {
      const { row, job } = await failedForward('W-ok');
      const worker = startWorker();
      await eventually(async () => (await jobOf(row.id)) === undefined, { what: 'the job to be done' });
      await worker.stop();

      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]).toMatchObject({
        body: job.body,
        headers: expect.objectContaining({ 'webhook-id': job.webhookId }) as unknown,
      });
      const after = await db.dataSource.getRepository(OrderEntity).findOneByOrFail({ id: row.id });
      expect(after).toMatchObject({ status: 'FORWARDED', webhookAttempts: 2, lastChangedBy: null, lastChangedVia: 'webhook retry' });
      expect(await db.dataSource.getRepository(WebhookDeliveryEntity).findBy({ orderDbId: row.id })).toEqual([
        expect.objectContaining({ attempt: 2, trigger: 'retry', webhookId: job.webhookId, statusCode: 200 }),
      ]);
    });

    it("sends a job without text as the order's stored payload (canonical JSON) under the job's webhook-id", async () => {
      // Keys out of order: the retry sends them sorted, the same value.
      const enrichedPayload = { taxSummary: { total: 5.44 }, orderId: 'W-stored' };
      const row = await order(db.dataSource, {
        orderId: 'W-stored',
        status: 'FORWARD_FAILED',
        enrichedPayload,
        webhookAttempts: 1,
        webhookId: 'msg_stored',
      });
      await retryJob(db.dataSource, { orderDbId: row.id, webhookId: 'msg_stored', body: null });
      const worker = startWorker();
      await eventually(async () => (await jobOf(row.id)) === undefined, { what: 'the job to be done' });
      await worker.stop();

      expect(receiver.requests).toHaveLength(1);
      expect(receiver.requests[0]).toMatchObject({
        body: '{"orderId":"W-stored","taxSummary":{"total":5.44}}',
        headers: expect.objectContaining({ 'webhook-id': 'msg_stored' }) as unknown,
      });
      const after = await db.dataSource.getRepository(OrderEntity).findOneByOrFail({ id: row.id });
      expect(after).toMatchObject({ status: 'FORWARDED', webhookAttempts: 2 });
    });

    it.each([
      ['the order was taxed again since (another webhook-id)', 'msg_newer'],
      ['the order has no webhook-id (a transfer re-taxed it)', null],
    ])('drops a job without text, without sending it, when %s', async (_reason, webhookId) => {
      const orderId = `W-superseded-${webhookId ?? 'none'}`;
      const row = await order(db.dataSource, {
        orderId,
        status: 'FORWARD_FAILED',
        enrichedPayload: { orderId },
        webhookAttempts: 1,
        webhookId,
      });
      await retryJob(db.dataSource, { orderDbId: row.id, webhookId: 'msg_older', body: null });
      const worker = startWorker();
      await eventually(async () => (await jobOf(row.id)) === undefined, { what: 'the job to be dropped' });
      await worker.stop();
      expect(receiver.requests).toHaveLength(0);
    });

    it('a failed retry is rescheduled by the schedule (retry 2 after 5 min); the last one ends the job', async () => {
      receiver.fallback = answer(503);
      const again = await failedForward('W-again');
      const last = await failedForward('W-last', {}, 1);
      const worker = startWorker();
      await eventually(async () => (await jobOf(again.row.id))?.retriesDone === 1 && (await jobOf(last.row.id)) === undefined, {
        what: 'both jobs to be tried',
      });
      await worker.stop();

      expect(await jobOf(again.row.id)).toMatchObject({ retriesDone: 1, lease: null, delayMs: 300_000 });
      expect(receiver.requests).toHaveLength(2);
      const orders = db.dataSource.getRepository(OrderEntity);
      expect(await orders.findOneByOrFail({ id: last.row.id })).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 2 });
    });

    it.each([
      ['the order has a newer payload', 'W-newer', { enrichedPayload: { orderId: 'newer' } }],
      ['the store works the order', 'W-accepted', { status: 'ACCEPTED' as const }],
    ])('drops the job without sending it when %s', async (_reason, orderId, overrides) => {
      const { row } = await failedForward(orderId, overrides);
      const worker = startWorker();
      await eventually(async () => (await jobOf(row.id)) === undefined, { what: 'the job to be dropped' });
      await worker.stop();
      expect(receiver.requests).toHaveLength(0);
    });

    it('drops the job of a message already delivered, without sending it again', async () => {
      const { row, job } = await failedForward('W-delivered');
      await webhookDelivery(db.dataSource, { orderDbId: row.id, webhookId: job.webhookId, statusCode: 200 });
      const worker = startWorker();
      await eventually(async () => (await jobOf(row.id)) === undefined, { what: 'the job to be dropped' });
      await worker.stop();
      expect(receiver.requests).toHaveLength(0);
    });
  });

  describe('retention', () => {
    const ago = (days: number) => new Date(Date.now() - days * 86_400_000);
    /** A retention of its own (the module's job is stopped with the others), pruned by `prune()` as its hourly round does. */
    const retention = () => new WebhookDeliveryRetention(db.config, queue, db.get(JobRunner));

    it('deletes the log rows older than WEBHOOK_DELIVERY_RETENTION_DAYS, in batches, and keeps the others', async () => {
      const target = await order(db.dataSource, { orderId: 'RET-1' });
      const old = await webhookDelivery(db.dataSource, { orderDbId: target.id, attemptedAt: ago(31) });
      // 1,000 more old rows: 1,001 is more than one batch of 1,000. Copied in one SQL statement: a thousand factory
      // inserts would only slow the setup down.
      await db.dataSource.query(
        `INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, duration_ms, attempted_at)
         SELECT order_db_id, attempt + n, trigger, webhook_id, url, request_headers, duration_ms, attempted_at
         FROM webhook_delivery, generate_series(1, 1000) AS n WHERE id = $1`,
        [old.id],
      );
      const kept = await webhookDelivery(db.dataSource, { orderDbId: target.id, attemptedAt: ago(29) });

      const pruning = retention();
      expect(await pruning.prune()).toBe(1001);
      expect((await db.dataSource.getRepository(WebhookDeliveryEntity).findBy({ orderDbId: target.id })).map((d) => d.id)).toEqual([
        kept.id,
      ]);
      expect(await pruning.prune()).toBe(0);
    });

    it('one instance prunes at a time: while another holds the pruning lock, a round deletes nothing', async () => {
      const target = await order(db.dataSource, { orderId: 'RET-2' });
      await webhookDelivery(db.dataSource, { orderDbId: target.id, attemptedAt: ago(40) });
      // The advisory lock is held by a session of its own, as another instance would hold it: plain SQL, no table.
      const other = db.dataSource.createQueryRunner();
      const key = ADVISORY_LOCKS.webhookDeliveryPrune;
      await other.query('SELECT pg_advisory_lock($1)', [key]);
      try {
        expect(await retention().prune()).toBeUndefined();
        expect(await db.dataSource.getRepository(WebhookDeliveryEntity).countBy({ orderDbId: target.id })).toBe(1);
      } finally {
        await other.query('SELECT pg_advisory_unlock($1)', [key]);
        await other.release();
      }
      expect(await retention().prune()).toBe(1);
    });
  });
});
