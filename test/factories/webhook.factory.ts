import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { WebhookRetryJobEntity } from '../../src/webhooks/webhook-retry-job.entity.js';
import { managerOf, nextNumber, type Db } from './sequence.js';

/** A delivery log row of an order: `orderDbId` is required (the row goes with its order). */
export type WebhookDeliveryOverrides = Partial<Omit<WebhookDeliveryEntity, 'id'>> & Pick<WebhookDeliveryEntity, 'orderDbId'>;

/**
 * One row of the delivery log, through the entity. Defaults: attempt 1 of trigger `forward`,
 * webhook-id `msg_<n>`, answered 200 `ok` in 12 ms, now.
 */
export async function webhookDelivery(db: Db, overrides: WebhookDeliveryOverrides): Promise<WebhookDeliveryEntity> {
  const n = nextNumber();
  const manager = managerOf(db);
  const row = manager.create(WebhookDeliveryEntity, {
    attempt: 1,
    trigger: 'forward',
    webhookId: `msg_${n}`,
    url: 'http://127.0.0.1:9/hooks/orders',
    requestHeaders: { 'webhook-id': `msg_${n}` },
    statusCode: 200,
    responseBody: 'ok',
    durationMs: 12,
    error: null,
    attemptedAt: new Date(),
    ...overrides,
  });
  await manager.insert(WebhookDeliveryEntity, row);
  return manager.findOneByOrFail(WebhookDeliveryEntity, { id: row.id });
}

export interface RetryJobOverrides {
  orderDbId: string;
  webhookId?: string;
  /**
   * The exact bytes the retry POSTs (a job written before orders kept their webhook-id), or null: the retry POSTs the
   * order's stored payload while the order's `webhookId` is the job's. Default `{}`.
   */
  body?: string | null;
  retriesDone?: number;
  /** Due since (negative) or due in (positive) this many ms; default -1000 (due). */
  runInMs?: number;
  /** A claim's lease; null (default) for a job nobody holds. */
  lease?: string | null;
}

/** A stored retry job, as its entity reads it. */
export type RetryJobRow = Omit<WebhookRetryJobEntity, 'createdAt' | 'updatedAt'>;

/**
 * A pending retry of an order's forward (`webhook_retry_job`, one per order), through the entity. Its due time is
 * counted on the database's clock, as the worker's claim compares it with `now()`.
 */
export async function retryJob(db: Db, overrides: RetryJobOverrides): Promise<RetryJobRow> {
  const n = nextNumber();
  const { orderDbId, webhookId = `msg_${n}`, body = '{}', retriesDone = 0, runInMs = -1000, lease = null } = overrides;
  const manager = managerOf(db);
  const inserted = await manager.insert(WebhookRetryJobEntity, {
    orderDbId,
    webhookId,
    body,
    retriesDone,
    runAt: () => `now() + ${Math.trunc(runInMs)} * interval '1 millisecond'`,
    lease,
  });
  const id = String(inserted.identifiers[0]!.id);
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...row } = await manager.findOneByOrFail(WebhookRetryJobEntity, { id });
  return row;
}
