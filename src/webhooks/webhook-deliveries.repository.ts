import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/actor.js';
import { sql, SqlRunner } from '../database/sql-runner.js';
import { isoUtc } from '../database/sql-json.js';
import type { WebhookLastResponse } from '../orders/order.entity.js';
import { detailSection, type OrderDetailSection, type OrderDetailSectionSource } from '../orders/order-detail-sections.js';
import type { OrderStatus } from '../orders/order-status.js';
import { OrderForwardingRepository, type AttemptFollowUp, type RecordedAttempt } from '../orders/order-forwarding.repository.js';
import type { UpsertFollowUp } from '../orders/orders.repository.js';
import { canonicalJson } from './webhook-signature.js';
import type { DeliveryTrigger, WebhookDeliveryEntryDto } from '../orders/dto/persisted-order.dto.js';

export interface AttemptRecord {
  orderDbId: string;
  trigger: DeliveryTrigger;
  webhookId: string;
  url: string;
  requestHeaders: Record<string, string>;
  lastResponse: WebhookLastResponse;
  /**
   * The status the attempt gives the order (FORWARDED or FORWARD_FAILED), applied where the status machine allows it and
   * while the message (`webhookId`) is still the order's current one.
   */
  status: OrderStatus;
  /** For an order without a webhook-id: the payload sent, current while the order's payload is still this one. */
  onlyIfPayload: string | null;
  /** Drop the order's pending retry job in the same statement when the message delivered is still the order's current one. */
  cancelPendingRetry: boolean;
}

export interface DeliveryOutcomes {
  delivered: number;
  rejected: number;
  failed: number;
  noAnswer: number;
}

export interface ClaimedJob {
  id: string;
  orderDbId: string;
  webhookId: string;
  /** What to send: the job's own text (a job written before orders kept their webhook-id), else the order's stored payload as canonical JSON; null when the order has none. */
  body: string | null;
  retriesDone: number;
  /** Identifies this claim: the job is only updated or removed by its holder. */
  lease: string;
  /** The order's status, null when the order is gone. */
  orderStatus: OrderStatus | null;
  /** Whether the order's enriched payload is still the job's message (its webhook-id, or for a job with text, that text). */
  current: boolean;
  /** Whether this message already got a 2xx. */
  delivered: boolean;
}

/** The delivery log row of an attempt, numbered with the order's new counter, and the retry job dropped after a delivery of the order's current message. */
export function attemptLog(record: AttemptRecord): AttemptFollowUp {
  const { lastResponse } = record;
  return {
    name: 'webhook-delivery-log',
    withItems: (order, bind) => `
  logged AS (
    INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error, attempted_at)
    SELECT ${order.id}, ${order.attempt}, ${bind(record.trigger)}, ${bind(record.webhookId)}, ${bind(record.url)},
      ${bind(JSON.stringify(record.requestHeaders), '::jsonb')}, ${bind(lastResponse.statusCode)}, ${bind(lastResponse.body)},
      ${bind(lastResponse.durationMs)}, ${bind(lastResponse.error)}, ${bind(lastResponse.attemptedAt)}
    FROM ${order.relation}
    RETURNING id
  ), cancelled AS (
    DELETE FROM webhook_retry_job j USING ${order.relation}
    WHERE ${bind(record.cancelPendingRetry, '::boolean')} AND ${order.current} AND j.order_db_id = ${order.id}
    RETURNING j.id
  )`,
  };
}

/** `attemptLog` for a batch of attempts (`recordAttempts`): each row joined to its attempt by its position in the batch. */
export function attemptLogBatch(records: readonly AttemptRecord[]): AttemptFollowUp {
  const column = <T>(pick: (record: AttemptRecord) => T) => records.map(pick);
  return {
    name: 'webhook-delivery-log-batch',
    withItems: (order, bind) => {
      if (!order.ordinal) throw new Error('attemptLogBatch follows a batch of attempts');
      return `
  attempt_log AS (
    SELECT * FROM unnest(${bind(
      column((r) => r.trigger),
      '::text[]',
    )}, ${bind(
      column((r) => r.webhookId),
      '::text[]',
    )},
      ${bind(
        column((r) => r.url),
        '::text[]',
      )}, ${bind(
        column((r) => JSON.stringify(r.requestHeaders)),
        '::jsonb[]',
      )},
      ${bind(
        column((r) => r.lastResponse.statusCode),
        '::integer[]',
      )}, ${bind(
        column((r) => r.lastResponse.body),
        '::text[]',
      )},
      ${bind(
        column((r) => r.lastResponse.durationMs),
        '::integer[]',
      )}, ${bind(
        column((r) => r.lastResponse.error),
        '::text[]',
      )},
      ${bind(
        column((r) => r.lastResponse.attemptedAt),
        '::timestamptz[]',
      )}, ${bind(
        column((r) => r.cancelPendingRetry),
        '::boolean[]',
      )})
      WITH ORDINALITY AS l(trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error, attempted_at, cancel, ordinal)
  ), logged AS (
    INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error, attempted_at)
    SELECT ${order.id}, ${order.attempt}, l.trigger, l.webhook_id, l.url, l.request_headers, l.status_code, l.response_body, l.duration_ms, l.error,
      l.attempted_at
    FROM ${order.relation} JOIN attempt_log l ON l.ordinal = ${order.ordinal}
    RETURNING id
  ), cancelled AS (
    DELETE FROM webhook_retry_job j USING ${order.relation}, attempt_log l
    WHERE l.ordinal = ${order.ordinal} AND l.cancel AND ${order.current} AND j.order_db_id = ${order.id}
    RETURNING j.id
  )`;
    },
  };
}

/**
 * A failed forward's retry job (`scheduleRetry`), replacing an older job of the order: the stored payload's webhook-id, no
 * text (the retry sends the order's stored payload while its webhook-id is still the job's), due after the failure's
 * delay.
 */
export function outboxJob(inFlightMs: number): UpsertFollowUp {
  return {
    name: 'webhook-outbox-job',
    withItems: (order, bind) => `
  queued AS (
    INSERT INTO webhook_retry_job (order_db_id, webhook_id, body, retries_done, run_at)
    SELECT ${order.id}, ${order.webhookId}, NULL, 0, now() + ${bind(inFlightMs, '::integer')} * interval '1 millisecond'
    FROM ${order.relation}
    ON CONFLICT (order_db_id) DO UPDATE SET
      webhook_id = EXCLUDED.webhook_id, body = NULL, retries_done = 0, run_at = EXCLUDED.run_at, lease = NULL, updated_at = now()
    RETURNING id
  )`,
  };
}

/**
 * The retry job of a forward whose outbox fell due (`takeDueOutbox`: its process died before recording the outcome), due
 * at once. A job the order already has for the same message (a retry scheduled meanwhile) is kept as it is; one of an
 * older message is replaced.
 */
export const takenOutboxJob: UpsertFollowUp = {
  name: 'webhook-taken-outbox-job',
  withItems: (order) => `
  queued AS (
    INSERT INTO webhook_retry_job (order_db_id, webhook_id, body, retries_done, run_at)
    SELECT ${order.id}, ${order.webhookId}, NULL, 0, now() FROM ${order.relation}
    ON CONFLICT (order_db_id) DO UPDATE SET
      webhook_id = EXCLUDED.webhook_id, body = NULL, retries_done = 0, run_at = EXCLUDED.run_at, lease = NULL, updated_at = now()
    WHERE webhook_retry_job.webhook_id IS DISTINCT FROM EXCLUDED.webhook_id
    RETURNING id
  )`,
};

/** Claims due jobs for `$2` ms (longer than one attempt can take): other instances skip them meanwhile. */
export const CLAIM = sql<{
  id: string;
  order_db_id: string;
  webhook_id: string;
  body: string | null;
  retries_done: number;
  lease: string;
  delivered: boolean;
}>(
  'webhook-claim-due-jobs',
  `WITH due AS (
     SELECT id FROM webhook_retry_job WHERE run_at <= now() ORDER BY run_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
   )
   UPDATE webhook_retry_job j SET run_at = now() + $2 * interval '1 millisecond', lease = gen_random_uuid(), updated_at = now()
   FROM due WHERE j.id = due.id
   RETURNING j.id, j.order_db_id, j.webhook_id, j.body, j.retries_done, j.lease,
     EXISTS (
       SELECT 1 FROM webhook_delivery d
       WHERE d.order_db_id = j.order_db_id AND d.webhook_id = j.webhook_id AND d.status_code BETWEEN 200 AND 299
     ) AS delivered`,
  { id: true, order_db_id: true, webhook_id: true, body: true, retries_done: true, lease: true, delivered: true },
);

export const DROP_PENDING = sql(
  'webhook-drop-pending-job',
  `DELETE FROM webhook_retry_job WHERE order_db_id = $1 AND webhook_id = $2 AND lease IS NULL`,
);
export const RESCHEDULE = sql(
  'webhook-reschedule-job',
  `UPDATE webhook_retry_job SET retries_done = $3, run_at = now() + $4 * interval '1 millisecond', lease = NULL, updated_at = now()
   WHERE id = $1 AND lease = $2`,
);
export const FINISH = sql('webhook-finish-job', `DELETE FROM webhook_retry_job WHERE id = $1 AND lease = $2`);
export const QUEUE_DEPTH = sql<{ due: number; scheduled: number }>(
  'webhook-queue-depth',
  `SELECT count(*) FILTER (WHERE run_at <= now())::int AS due, count(*) FILTER (WHERE run_at > now())::int AS scheduled FROM webhook_retry_job`,
  { due: true, scheduled: true },
);
/** Index-only on ix_webhook_delivery_attempted (INCLUDE status_code). */
export const OUTCOMES = sql<{ delivered: number; rejected: number; failed: number; no_answer: number }>(
  'webhook-outcomes-since',
  `SELECT count(*) FILTER (WHERE status_code BETWEEN 200 AND 299)::int AS delivered,
          count(*) FILTER (WHERE status_code BETWEEN 400 AND 499)::int AS rejected,
          count(*) FILTER (WHERE status_code >= 500 OR status_code < 200 OR status_code BETWEEN 300 AND 399)::int AS failed,
          count(*) FILTER (WHERE status_code IS NULL)::int AS no_answer
   FROM webhook_delivery WHERE attempted_at >= $1`,
  { delivered: true, rejected: true, failed: true, no_answer: true },
);
export const PRUNE_BATCH = sql<{ id: string }>(
  'webhook-prune-batch',
  `DELETE FROM webhook_delivery WHERE id IN (
     SELECT id FROM webhook_delivery WHERE attempted_at < now() - $1 * interval '1 day' ORDER BY attempted_at LIMIT $2
   ) RETURNING id`,
  { id: true },
);

interface DeliveryRow {
  attempt: number;
  trigger: DeliveryTrigger;
  webhook_id: string;
  url: string;
  request_headers: Record<string, string>;
  status_code: number | null;
  response_body: string | null;
  duration_ms: number;
  error: string | null;
  attempted_at: string;
}

/** The order detail's `deliveries`, oldest first. */
export const DELIVERIES = sql<DeliveryRow>(
  'order-detail-deliveries',
  `SELECT attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error,
     ${isoUtc('attempted_at')} AS attempted_at
   FROM webhook_delivery WHERE order_db_id = $1 ORDER BY attempted_at, attempt, id`,
  {
    attempt: true,
    trigger: true,
    webhook_id: true,
    url: true,
    request_headers: true,
    status_code: true,
    response_body: true,
    duration_ms: true,
    error: true,
    attempted_at: true,
  },
);

function deliveryEntry(row: DeliveryRow): WebhookDeliveryEntryDto {
  return {
    attempt: row.attempt,
    trigger: row.trigger,
    webhookId: row.webhook_id,
    url: row.url,
    requestHeaders: row.request_headers,
    statusCode: row.status_code,
    responseBody: row.response_body,
    durationMs: row.duration_ms,
    error: row.error,
    attemptedAt: row.attempted_at,
  };
}

/** The owner of the delivery log (`webhook_delivery`) and the retry queue (`webhook_retry_job`). */
@Injectable()
export class WebhookDeliveriesRepository implements OrderDetailSectionSource {
  constructor(
    private readonly db: SqlRunner,
    private readonly orders: OrderForwardingRepository,
  ) {}

  /** Its section of the order detail (bound in OrderDetailSectionsModule). */
  detailSections(): OrderDetailSection[] {
    return [
      detailSection({ key: 'deliveries', read: async (orderDbId) => (await this.db.rows(DELIVERIES, [orderDbId])).map(deliveryEntry) }),
    ];
  }

  /**
   * One statement per attempt: the order's counter, last answer and status (the orders module's
   * part), the delivery logged with the new counter as its attempt number and, after a delivery
   * of the latest payload, the pending retry dropped.
   */
  recordAttempt(record: AttemptRecord, actor: Actor, manager?: EntityManager): Promise<RecordedAttempt | undefined> {
    return this.orders.recordAttempt(
      {
        orderDbId: record.orderDbId,
        lastResponse: record.lastResponse,
        status: record.status,
        webhookId: record.webhookId,
        onlyIfPayload: record.onlyIfPayload,
      },
      actor,
      attemptLog(record),
      manager,
    );
  }

  /**
   * `recordAttempt` for forward attempts on distinct orders, in one statement: their outcomes in the order given.
   * (A retry's attempt, which checks its payload, goes through `recordAttempt`.)
   */
  recordAttempts(records: readonly AttemptRecord[], actors: readonly Actor[]): Promise<Array<RecordedAttempt | undefined>> {
    return this.orders.recordAttempts(
      records.map((record, index) => ({
        attempt: {
          orderDbId: record.orderDbId,
          lastResponse: record.lastResponse,
          status: record.status,
          webhookId: record.webhookId,
          onlyIfPayload: null,
        },
        actor: actors[index]!,
      })),
      attemptLogBatch(records),
    );
  }

  /**
   * The order's one pending retry of the message `webhookId` (its stored payload), replacing any older one (a newer payload
   * supersedes it); nothing when the order has a newer message meanwhile.
   */
  async scheduleRetry(orderDbId: string, webhookId: string, delayMs: number): Promise<void> {
    await this.orders.whileCurrentMessage(orderDbId, webhookId, outboxJob(delayMs));
  }

  /** Drops the message's pending job unless a retry worker holds it, and its outbox while it is the order's current message. */
  async dropPendingJob(orderDbId: string, webhookId: string): Promise<void> {
    await this.db.rows(DROP_PENDING, [orderDbId, webhookId]);
    await this.orders.clearOutbox(orderDbId, webhookId);
  }

  /**
   * Claims due jobs, each with its order's state (read through the orders module, one query for the batch). Forwards
   * whose outbox fell due (a crash between the send and its record) first become jobs, due at once.
   */
  async claimDueJobs(limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    await this.orders.takeDueOutbox(limit, takenOutboxJob);
    const rows = await this.db.rows(CLAIM, [limit, leaseMs]);
    const states = await this.orders.forwardStates(
      rows.map((row) => ({ orderDbId: row.order_db_id, webhookId: row.webhook_id, body: row.body })),
    );
    return rows.map((row) => {
      const state = states.get(row.order_db_id);
      return {
        id: row.id,
        orderDbId: row.order_db_id,
        webhookId: row.webhook_id,
        body: row.body ?? (state?.enrichedPayload ? canonicalJson(state.enrichedPayload) : null),
        retriesDone: row.retries_done,
        lease: row.lease,
        orderStatus: state?.status ?? null,
        current: state?.current ?? false,
        delivered: row.delivered,
      };
    });
  }

  /** Schedules the next retry of a claimed job; a no-op when the job was replaced meanwhile. */
  async rescheduleJob(job: ClaimedJob, retriesDone: number, delayMs: number): Promise<void> {
    await this.db.rows(RESCHEDULE, [job.id, job.lease, retriesDone, delayMs]);
  }

  /** Removes a claimed job (delivered, superseded or exhausted); a no-op when the job was replaced meanwhile. */
  async finishJob(job: ClaimedJob): Promise<void> {
    await this.db.rows(FINISH, [job.id, job.lease]);
  }

  /** Delivery attempts since `from` by outcome: 2xx, 4xx, other status codes, no answer (timeout, refused connection). */
  async outcomesSince(from: Date): Promise<DeliveryOutcomes> {
    const row = await this.db.row(OUTCOMES, [from]);
    return { delivered: row?.delivered ?? 0, rejected: row?.rejected ?? 0, failed: row?.failed ?? 0, noAnswer: row?.no_answer ?? 0 };
  }

  /** Retries due and scheduled, forwards in flight counted as scheduled (and as due once a crash left their outbox due). */
  async queueDepth(): Promise<{ due: number; scheduled: number }> {
    const [jobs, outbox] = await Promise.all([this.db.row(QUEUE_DEPTH), this.orders.outboxDepth()]);
    return { due: (jobs?.due ?? 0) + outbox.due, scheduled: (jobs?.scheduled ?? 0) + outbox.scheduled };
  }

  /** Deletes up to `batch` log rows older than `days` (the caller holds the pruning lock); the number deleted. */
  async pruneBatch(days: number, batch: number): Promise<number> {
    return (await this.db.rows(PRUNE_BATCH, [days, batch])).length;
  }
}
