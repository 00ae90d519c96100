import { createRootLogger } from '../../src/common/logging/logger.js';
import { EnrichmentPortsModule } from '../../src/enrichment/enrichment-ports.module.js';
import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { MetricsModule } from '../../src/metrics/metrics.module.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { WebhookDeliveriesRepository } from '../../src/webhooks/webhook-deliveries.repository.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { WebhookDeliveryService } from '../../src/webhooks/webhook-delivery.service.js';
import { WebhookRetryWorker } from '../../src/webhooks/webhook-retry.worker.js';
import { WebhooksModule } from '../../src/webhooks/webhooks.module.js';
import { order, retryJob } from '../factories/index.js';
import { bootIntegration, eventually, type IntegrationContext, FISCAL_LOOKUP_MODULES } from '../support/integration.js';
import { retryJobOf, scheduledDelayMs } from '../support/rows.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { AuditModule } from '../../src/audit/audit.module.js';

const LEASE_MS = 70_000;

/**
 * The forward's outbox is a column of the order (`webhook_outbox_due_at`), written by the forward's upsert and cleared by
 * the attempt that records the outcome. A forward whose process died between the send and that record leaves it due:
 * the retry worker then takes it over as a retry job of the order's current message, and sends it.
 */
describe('Webhooks: the forward outbox a crash left behind (integration)', () => {
  let db: IntegrationContext;
  let receiver: WebhookReceiver;
  let queue: WebhookDeliveriesRepository;

  const orders = () => db.dataSource.getRepository(OrderEntity);
  const jobOf = async (orderDbId: string) => {
    const job = await retryJobOf(db.dataSource, orderDbId);
    return job ? { webhookId: job.webhookId, retriesDone: job.retriesDone, body: job.body, delayMs: scheduledDelayMs(job) } : undefined;
  };
  /** An order stored by a forward whose outcome was never recorded: its outbox due `dueInMs` from now (negative: due). */
  const unrecordedForward = async (orderId: string, dueInMs: number, overrides: Partial<OrderEntity> = {}) => {
    const row = await order(db.dataSource, {
      orderId,
      status: 'ENRICHED',
      enrichedPayload: { orderId, taxed: true },
      webhookId: `msg_${orderId}`,
      ...overrides,
    });
    // On the database's clock, as the worker compares it with now().
    await orders()
      .createQueryBuilder()
      .update()
      .set({ webhookOutboxDueAt: () => `now() + ${Math.trunc(dueInMs)} * interval '1 millisecond'` })
      .where({ id: row.id })
      .execute();
    return row;
  };

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    db = await bootIntegration({
      imports: [AuditModule, WebhooksModule, ...FISCAL_LOOKUP_MODULES, MetricsModule, EnrichmentPortsModule],
      env: { ORDER_WEBHOOK_URL: receiver.url, WEBHOOK_RETRY_SCHEDULE: '60s,5m' },
    });
    // The module's retry worker is stopped: a test starts one of its own when it wants the queue worked.
    await db.get(JobRunner).stopAll();
    queue = db.get(WebhookDeliveriesRepository);
  });
  beforeEach(() => receiver.reset());
  afterAll(async () => {
    await db?.close();
    await receiver?.close();
  });

  it("the retry worker sends a due outbox's message once, under the order's webhook-id, and leaves one not yet due", async () => {
    const crashed = await unrecordedForward('X-crashed', -1000);
    const inFlight = await unrecordedForward('X-in-flight', 60_000);
    const jobs = db.get(JobRunner);
    new WebhookRetryWorker(db.config, queue, db.get(WebhookDeliveryService), jobs, createRootLogger('silent')).onApplicationBootstrap();
    await eventually(async () => (await orders().findOneByOrFail({ id: crashed.id })).status === 'FORWARDED', {
      what: 'the crashed forward to be delivered by a retry',
    });
    await eventually(async () => (await jobOf(crashed.id)) === undefined, { what: 'its job to be done' });
    await jobs.stopAll();

    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers['webhook-id']).toBe('msg_X-crashed');
    expect(JSON.parse(receiver.requests[0]!.body)).toEqual({ orderId: 'X-crashed', taxed: true });
    expect(await orders().findOneByOrFail({ id: crashed.id })).toMatchObject({ webhookOutboxDueAt: null, webhookAttempts: 1 });
    expect(await db.dataSource.getRepository(WebhookDeliveryEntity).findBy({ orderDbId: crashed.id })).toEqual([
      expect.objectContaining({ attempt: 1, trigger: 'retry', webhookId: 'msg_X-crashed', statusCode: 200 }),
    ]);
    // The claim that took the due outbox looked at this one too: a forward still in flight is its request's to record.
    expect((await orders().findOneByOrFail({ id: inFlight.id })).webhookOutboxDueAt).not.toBeNull();
    expect(await jobOf(inFlight.id)).toBeUndefined();
  });

  it('a due outbox becomes a retry job due at once, replacing the job of an older message of the order', async () => {
    const row = await unrecordedForward('X-replaces', -1000);
    await retryJob(db.dataSource, { orderDbId: row.id, webhookId: 'msg_older', body: '{"v":1}', retriesDone: 2, runInMs: 60_000 });
    const claimed = await queue.claimDueJobs(10, LEASE_MS);
    expect(claimed.filter((job) => job.orderDbId === row.id)).toEqual([
      expect.objectContaining({ webhookId: 'msg_X-replaces', retriesDone: 0, current: true, delivered: false, orderStatus: 'ENRICHED' }),
    ]);
    expect((await orders().findOneByOrFail({ id: row.id })).webhookOutboxDueAt).toBeNull();
  });

  it('a due outbox keeps the retry its message already has scheduled (the failure was recorded, then the process died)', async () => {
    const row = await unrecordedForward('X-scheduled', -1000, { status: 'FORWARD_FAILED', webhookAttempts: 1 });
    await retryJob(db.dataSource, { orderDbId: row.id, webhookId: 'msg_X-scheduled', body: null, retriesDone: 1, runInMs: 300_000 });
    const claimed = await queue.claimDueJobs(10, LEASE_MS);
    expect(claimed.filter((job) => job.orderDbId === row.id)).toEqual([]);
    expect(await jobOf(row.id)).toMatchObject({ webhookId: 'msg_X-scheduled', retriesDone: 1, delayMs: 300_000 });
    expect((await orders().findOneByOrFail({ id: row.id })).webhookOutboxDueAt).toBeNull();
  });

  it('a due outbox of an order a transfer re-taxed (no webhook-id) is cleared without a job: its message is gone', async () => {
    const row = await unrecordedForward('X-transferred', -1000, { webhookId: null });
    await queue.claimDueJobs(10, LEASE_MS);
    expect((await orders().findOneByOrFail({ id: row.id })).webhookOutboxDueAt).toBeNull();
    expect(await jobOf(row.id)).toBeUndefined();
  });

  it('counts the forwards in flight as scheduled and a due outbox as due in the queue depth', async () => {
    const before = await queue.queueDepth();
    await unrecordedForward('X-depth-due', -1000);
    await unrecordedForward('X-depth-later', 60_000);
    expect(await queue.queueDepth()).toEqual({ due: before.due + 1, scheduled: before.scheduled + 1 });
  });
});
