import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { pool } from '../database/pool.js';
import type { OrderStatus } from '../orders/order-status.js';
import { INTAKE_SQL_LIST } from '../orders/orders.repository.js';
import type { Actor } from '../common/actor.js';
import type { WebhookLastResponse } from '../orders/order.entity.js';
import type { DeliveryTrigger } from './webhook-delivery.entity.js';

export interface AttemptRecord {
  orderDbId: string;
  trigger: DeliveryTrigger;
  webhookId: string;
  url: string;
  requestHeaders: Record<string, string>;
  lastResponse: WebhookLastResponse;
  /** The status the attempt gives the order (FORWARDED or FORWARD_FAILED), applied only while the order is in intake. */
  status: OrderStatus;
  /** Set by retries: the status only changes when the order's enriched payload is still this one. */
  onlyIfPayload: string | null;
  /** Drop the order's pending retry job in the same statement (its latest payload was just delivered). */
  cancelPendingRetry: boolean;
}

export interface RecordedAttempt {
  attempt: number;
  status: OrderStatus;
}

export interface OrderToRedeliver {
  id: string;
  orderId: string;
  status: OrderStatus;
  enrichedPayload: Record<string, unknown> | null;
}

export interface ClaimedJob {
  id: string;
  orderDbId: string;
  webhookId: string;
  body: string;
  retriesDone: number;
  /** Identifies this claim: the job is only updated or removed by its holder. */
  lease: string;
  /** The order's status, null when the order is gone. */
  orderStatus: OrderStatus | null;
  /** Whether the order's enriched payload is still the one in the job. */
  current: boolean;
  /** Whether this message already got a 2xx. */
  delivered: boolean;
}

/**
 * One statement per attempt: the counter is incremented in place (never read-modify-write),
 * the last answer and the status set, the delivery logged with the new counter as its
 * attempt number and, after a delivery of the latest payload, its pending retry dropped.
 * The status follows the machine's intake rule (any intake status may follow another) and is
 * left alone outside intake, as the order upsert does; OrderStatusWriter's locking
 * transaction would add three round trips to every delivery for no other effect.
 */
const RECORD_ATTEMPT_SQL = `
  WITH o AS (
    UPDATE orders SET
      webhook_attempts = webhook_attempts + 1,
      webhook_last_response = $2::jsonb,
      status = CASE WHEN status IN (${INTAKE_SQL_LIST}) AND ($15::text IS NULL OR enriched_payload = $15::jsonb) THEN $3 ELSE status END,
      last_changed_by = $4,
      last_changed_via = $5,
      updated_at = now()
    WHERE id = $1
    RETURNING id, webhook_attempts, status
  ), logged AS (
    INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error, attempted_at)
    SELECT o.id, o.webhook_attempts, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14 FROM o
    RETURNING id
  ), cancelled AS (
    DELETE FROM webhook_retry_job WHERE $16::boolean AND order_db_id = $1 RETURNING id
  )
  SELECT o.webhook_attempts, o.status FROM o`;

/** Claims due jobs for `$2` ms (longer than one attempt can take): other instances skip them meanwhile. */
const CLAIM_SQL = `
  WITH due AS (
    SELECT id FROM webhook_retry_job WHERE run_at <= now() ORDER BY run_at, id LIMIT $1 FOR UPDATE SKIP LOCKED
  )
  UPDATE webhook_retry_job j SET run_at = now() + $2 * interval '1 millisecond', lease = gen_random_uuid(), updated_at = now()
  FROM due WHERE j.id = due.id
  RETURNING j.id, j.order_db_id, j.webhook_id, j.body, j.retries_done, j.lease,
    (SELECT o.status FROM orders o WHERE o.id = j.order_db_id) AS order_status,
    COALESCE((SELECT o.enriched_payload = j.body::jsonb FROM orders o WHERE o.id = j.order_db_id), false) AS current,
    EXISTS (
      SELECT 1 FROM webhook_delivery d
      WHERE d.order_db_id = j.order_db_id AND d.webhook_id = j.webhook_id AND d.status_code BETWEEN 200 AND 299
    ) AS delivered`;

/** The delivery log, the order's webhook counters and the retry queue. */
@Injectable()
export class WebhookDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  async recordAttempt(record: AttemptRecord, actor: Actor): Promise<RecordedAttempt | undefined> {
    const { lastResponse } = record;
    const { rows } = await pool(this.dataSource).query<{ webhook_attempts: number; status: OrderStatus }>({
      name: 'webhook-record-attempt',
      text: RECORD_ATTEMPT_SQL,
      values: [
        record.orderDbId,
        JSON.stringify(lastResponse),
        record.status,
        actor.clientId,
        actor.via,
        record.trigger,
        record.webhookId,
        record.url,
        JSON.stringify(record.requestHeaders),
        lastResponse.statusCode,
        lastResponse.body,
        lastResponse.durationMs,
        lastResponse.error,
        lastResponse.attemptedAt,
        record.onlyIfPayload,
        record.cancelPendingRetry,
      ],
    });
    const row = rows[0];
    return row ? { attempt: row.webhook_attempts, status: row.status } : undefined;
  }

  /** The order's one pending retry, replacing any older one (a newer payload supersedes it). */
  async scheduleRetry(orderDbId: string, webhookId: string, body: string, delayMs: number): Promise<void> {
    await this.rows(
      `INSERT INTO webhook_retry_job (order_db_id, webhook_id, body, retries_done, run_at)
       VALUES ($1, $2, $3, 0, now() + $4 * interval '1 millisecond')
       ON CONFLICT (order_db_id) DO UPDATE SET
         webhook_id = EXCLUDED.webhook_id, body = EXCLUDED.body, retries_done = 0, run_at = EXCLUDED.run_at, lease = NULL, updated_at = now()`,
      [orderDbId, webhookId, body, delayMs],
    );
  }

  /** Drops the order's pending job for this message unless a retry worker holds it. */
  async dropPendingJob(orderDbId: string, webhookId: string): Promise<void> {
    await this.rows(`DELETE FROM webhook_retry_job WHERE order_db_id = $1 AND webhook_id = $2 AND lease IS NULL`, [orderDbId, webhookId]);
  }

  async claimDueJobs(limit: number, leaseMs: number): Promise<ClaimedJob[]> {
    const rows = await this.rows<{
      id: string;
      order_db_id: string;
      webhook_id: string;
      body: string;
      retries_done: number;
      lease: string;
      order_status: OrderStatus | null;
      current: boolean;
      delivered: boolean;
    }>(CLAIM_SQL, [limit, leaseMs]);
    return rows.map((row) => ({
      id: row.id,
      orderDbId: row.order_db_id,
      webhookId: row.webhook_id,
      body: row.body,
      retriesDone: row.retries_done,
      lease: row.lease,
      orderStatus: row.order_status,
      current: row.current,
      delivered: row.delivered,
    }));
  }

  /** Schedules the next retry of a claimed job; a no-op when the job was replaced meanwhile. */
  async rescheduleJob(job: ClaimedJob, retriesDone: number, delayMs: number): Promise<void> {
    await this.rows(
      `UPDATE webhook_retry_job SET retries_done = $3, run_at = now() + $4 * interval '1 millisecond', lease = NULL, updated_at = now()
       WHERE id = $1 AND lease = $2`,
      [job.id, job.lease, retriesDone, delayMs],
    );
  }

  /** Removes a claimed job (delivered, superseded or exhausted); a no-op when the job was replaced meanwhile. */
  async finishJob(job: ClaimedJob): Promise<void> {
    await this.rows(`DELETE FROM webhook_retry_job WHERE id = $1 AND lease = $2`, [job.id, job.lease]);
  }

  /** Straight to pg: TypeORM's `query()` answers `[rows, count]` for UPDATE and DELETE ... RETURNING. */
  private async rows<T extends object = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<T[]> {
    return (await pool(this.dataSource).query<T>(text, values)).rows;
  }

  async queueDepth(): Promise<{ due: number; scheduled: number }> {
    const rows = await this.rows<{ due: number; scheduled: number }>(
      `SELECT count(*) FILTER (WHERE run_at <= now())::int AS due, count(*) FILTER (WHERE run_at > now())::int AS scheduled FROM webhook_retry_job`,
    );
    return rows[0] ?? { due: 0, scheduled: 0 };
  }

  /** The order by its UUID or its `orderId` (the UUID wins when both match). */
  async findOrder(idOrOrderId: string, isUuid: boolean): Promise<OrderToRedeliver | undefined> {
    const rows = await this.rows<{ id: string; order_id: string; status: OrderStatus; enriched_payload: Record<string, unknown> | null }>(
      isUuid
        ? `SELECT id, order_id, status, enriched_payload FROM orders WHERE id = $1 OR order_id = $2 ORDER BY (id = $1) DESC LIMIT 1`
        : `SELECT id, order_id, status, enriched_payload FROM orders WHERE order_id = $1`,
      isUuid ? [idOrOrderId, idOrOrderId] : [idOrOrderId],
    );
    const row = rows[0];
    return row ? { id: row.id, orderId: row.order_id, status: row.status, enrichedPayload: row.enriched_payload } : undefined;
  }
}
