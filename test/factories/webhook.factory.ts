import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
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
  /** The exact bytes the retry POSTs: compare with the order's enriched payload. */
  body?: string;
  retriesDone?: number;
  /** Due since (negative) or due in (positive) this many ms; default -1000 (due). */
  runInMs?: number;
  /** A claim's lease; null (default) for a job nobody holds. */
  lease?: string | null;
}

export interface RetryJobRow {
  id: string;
  orderDbId: string;
  webhookId: string;
  body: string;
  retriesDone: number;
  runAt: Date;
  lease: string | null;
}

/**
 * A pending retry of an order's forward (`webhook_retry_job`, one per order). The table has no
 * entity yet, so this one factory writes it with SQL; it returns the row as stored.
 */
export async function retryJob(db: Db, overrides: RetryJobOverrides): Promise<RetryJobRow> {
  const n = nextNumber();
  const { orderDbId, webhookId = `msg_${n}`, body = '{}', retriesDone = 0, runInMs = -1000, lease = null } = overrides;
  const [row] = await managerOf(db).query<
    Array<{ id: string; order_db_id: string; webhook_id: string; body: string; retries_done: number; run_at: Date; lease: string | null }>
  >(
    `INSERT INTO webhook_retry_job (order_db_id, webhook_id, body, retries_done, run_at, lease)
     VALUES ($1, $2, $3, $4, now() + $5 * interval '1 millisecond', $6)
     RETURNING id, order_db_id, webhook_id, body, retries_done, run_at, lease`,
    [orderDbId, webhookId, body, retriesDone, runInMs, lease],
  );
  return {
    id: row!.id,
    orderDbId: row!.order_db_id,
    webhookId: row!.webhook_id,
    body: row!.body,
    retriesDone: row!.retries_done,
    runAt: row!.run_at,
    lease: row!.lease,
  };
}
