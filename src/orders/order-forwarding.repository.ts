import type { EntityManager } from 'typeorm';
import { Injectable } from '@nestjs/common';
import type { Actor } from '../common/actor.js';
import { sql, SqlRunner, type BuiltStatement } from '../database/sql-runner.js';
import type { WebhookLastResponse } from './order.entity.js';
import { statusAfterSql, type OrderStatus } from './order-status.js';

/** The order side of one forward attempt. */
export interface OrderAttempt {
  orderDbId: string;
  lastResponse: WebhookLastResponse;
  /** FORWARDED or FORWARD_FAILED, applied where the status machine allows it, and only while the message is the order's current one. */
  status: OrderStatus;
  /** The attempt's message: the order's current one while the order's webhook-id is still this one. */
  webhookId: string;
  /**
   * For an order without a webhook-id (stored before orders kept one, or re-taxed by a transfer): the payload sent, the
   * current message while the order's enriched payload is still this one. Null: only the webhook-id tells.
   */
  onlyIfPayload: string | null;
}

/** The attempted order as a follow-up reads it inside the attempt's statement: SQL names, given by this module. */
export interface AttemptedOrder {
  /** The relation to select from (one row, none when the order is gone). */
  readonly relation: string;
  /** Its column holding the order's id. */
  readonly id: string;
  /** Its column holding the order's attempt counter after this attempt. */
  readonly attempt: string;
  /** Its column telling whether the attempt's message is still the order's current one (a newer send replaces it). */
  readonly current: string;
  /** In a batch: its column holding the attempt's 1-based position in the batch (join your own arrays `WITH ORDINALITY` on it). */
  readonly ordinal?: string;
}

/** The placeholder of one more value of the statement (`$n`, with `cast` appended). */
export type BindValue = (value: unknown, cast?: string) => string;

/** A `BindValue` that appends each value to `values` (the statement's values so far) and answers its placeholder. */
export function bindTo(values: unknown[]): BindValue {
  return (value, cast = '') => {
    values.push(value);
    return `$${values.length}${cast}`;
  };
}

/** The stored order as a follow-up of the upsert reads it inside the upsert's statement: SQL names, given by this module. */
export interface UpsertedOrderRelation {
  /** The relation to select from (a row per stored order: none when the upsert changed nothing, several for a batch). */
  readonly relation: string;
  /** Its column holding the order's id. */
  readonly id: string;
  /** Its column holding the stored enriched payload's `webhook-id`. */
  readonly webhookId: string;
}

/**
 * A statement of another module that must commit with a taxed upsert (the retry job of a forward: a
 * transactional outbox), or with the check that a message is still the order's current one, appended as further `WITH` items. It reads the order only through `order`
 * and passes its values through `bind`.
 */
export interface UpsertFollowUp {
  /** Unique per statement text, for the prepared statement's name. Upserts whose follow-ups bind the same values may share a statement. */
  name: string;
  /** `name AS (...)` items, comma-separated, without a leading comma. */
  withItems(order: UpsertedOrderRelation, bind: BindValue): string;
}

/**
 * Statements of another module that must commit with an attempt (its delivery log, its retry job),
 * appended to the attempt's statement as further `WITH` items. They read the order only through
 * `order` and pass their values through `bind`, so they depend on no name or parameter number of
 * this module's statement.
 */
export interface AttemptFollowUp {
  /** Unique per statement text, for the prepared statement's name. */
  name: string;
  /** `name AS (...)` items, comma-separated, without a leading comma. */
  withItems(order: AttemptedOrder, bind: BindValue): string;
}

export interface RecordedAttempt {
  attempt: number;
  status: OrderStatus;
  /** Whether the attempt's message was still the order's current one (a newer send of the order supersedes it). */
  current: boolean;
}

/** The order of a retry job: its status, whether the job is still its current message, and (for a job without text) the payload to send. */
export interface ForwardState {
  status: OrderStatus;
  current: boolean;
  enrichedPayload: Record<string, unknown> | null;
}

export interface OrderToRedeliver {
  id: string;
  orderId: string;
  status: OrderStatus;
  enrichedPayload: Record<string, unknown> | null;
  /** Null for an order stored before orders kept their webhook-id, or re-taxed by a transfer. */
  webhookId: string | null;
}

/**
 * Whether the attempt's message (`webhookId`, or for an order without one the payload sent) is still the order's current
 * one: an answer that comes after a newer send of the order began (a slow receiver) is counted and logged, but neither
 * moves the status nor touches the newer message's retry job. The attempt's update changes neither column, so its
 * RETURNING tells what its SET saw.
 */
function currentMessageSql(order: string, webhookId: string, payload: string): string {
  return `(${order}.webhook_id = ${webhookId} OR (${order}.webhook_id IS NULL AND ${order}.enriched_payload = ${payload}::jsonb))`;
}

/**
 * The counter is incremented in place (never read-modify-write), the last answer kept and the
 * status moved by the machine while the attempt's message is still the order's; a 2xx of that message also clears the
 * forward's outbox, in the row the attempt rewrites anyway. Without a lock: a locking transaction would add three round
 * trips to every delivery for no other effect.
 */
const ATTEMPT_UPDATE = `
  attempted AS (
    UPDATE orders SET
      webhook_attempts = webhook_attempts + 1,
      webhook_last_response = $2::jsonb,
      status = CASE WHEN ${currentMessageSql('orders', '$7', '$4')}
        THEN ${statusAfterSql('status', '$3', ['FORWARDED', 'FORWARD_FAILED'])} ELSE status END,
      webhook_outbox_due_at = CASE WHEN $3::text = 'FORWARDED' AND ${currentMessageSql('orders', '$7', '$4')}
        THEN NULL ELSE webhook_outbox_due_at END,
      last_changed_by = $5,
      last_changed_via = $6,
      updated_at = now()
    WHERE id = $1
    RETURNING id, webhook_attempts, status, coalesce(${currentMessageSql('orders', '$7', '$4')}, false) AS current
  )`;
const ATTEMPTED: AttemptedOrder = {
  relation: 'attempted',
  id: 'attempted.id',
  attempt: 'attempted.webhook_attempts',
  current: 'attempted.current',
};

/** One statement: the attempt on the order, then `followUp`'s items; named per follow-up (its text is the same every time). */
export function recordAttemptStatement(
  attempt: OrderAttempt,
  actor: Actor,
  followUp: AttemptFollowUp,
): BuiltStatement<{ webhook_attempts: number; status: OrderStatus; current: boolean }> {
  const values: unknown[] = [
    attempt.orderDbId,
    JSON.stringify(attempt.lastResponse),
    attempt.status,
    attempt.onlyIfPayload,
    actor.clientId,
    actor.via,
    attempt.webhookId,
  ];
  const followUpItems = followUp.withItems(ATTEMPTED, bindTo(values));
  return {
    statement: sql(
      `order-record-attempt+${followUp.name}`,
      `WITH ${ATTEMPT_UPDATE}, ${followUpItems} SELECT webhook_attempts, status, current FROM attempted`,
      { webhook_attempts: true, status: true, current: true },
    ),
    values,
  };
}

/**
 * Attempts on several orders (one each) in one statement, as `ATTEMPT_UPDATE` makes one; for forwards, whose message
 * always has its webhook-id, so with no `onlyIfPayload`. The values are arrays, one entry per attempt.
 */
const BATCH_ATTEMPT_UPDATE = `
  attempt_input AS (
    SELECT * FROM unnest($1::uuid[], $2::jsonb[], $3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
      AS i(order_db_id, last_response, status, changed_by, changed_via, webhook_id, ordinal)
  ), attempted AS (
    UPDATE orders o SET
      webhook_attempts = o.webhook_attempts + 1,
      webhook_last_response = i.last_response,
      status = CASE WHEN o.webhook_id = i.webhook_id
        THEN ${statusAfterSql('o.status', 'i.status', ['FORWARDED', 'FORWARD_FAILED'])} ELSE o.status END,
      webhook_outbox_due_at = CASE WHEN i.status = 'FORWARDED' AND o.webhook_id = i.webhook_id THEN NULL ELSE o.webhook_outbox_due_at END,
      last_changed_by = i.changed_by,
      last_changed_via = i.changed_via,
      updated_at = now()
    FROM attempt_input i
    WHERE o.id = i.order_db_id
    RETURNING o.id, o.webhook_attempts, o.status, i.ordinal, coalesce(o.webhook_id = i.webhook_id, false) AS current
  )`;
const ATTEMPTED_IN_BATCH: AttemptedOrder = { ...ATTEMPTED, ordinal: 'attempted.ordinal' };

/** Forward attempts on distinct orders in one statement with `followUp` (which joins on `ordinal`); named per follow-up. */
export function recordAttemptsStatement(
  attempts: ReadonlyArray<{ attempt: OrderAttempt; actor: Actor }>,
  followUp: AttemptFollowUp,
): BuiltStatement<{ ordinal: string; webhook_attempts: number; status: OrderStatus; current: boolean }> {
  const values: unknown[] = [
    attempts.map(({ attempt }) => attempt.orderDbId),
    attempts.map(({ attempt }) => JSON.stringify(attempt.lastResponse)),
    attempts.map(({ attempt }) => attempt.status),
    attempts.map(({ actor }) => actor.clientId),
    attempts.map(({ actor }) => actor.via),
    attempts.map(({ attempt }) => attempt.webhookId),
  ];
  const followUpItems = followUp.withItems(ATTEMPTED_IN_BATCH, bindTo(values));
  return {
    statement: sql(
      `order-record-attempts+${followUp.name}`,
      `WITH ${BATCH_ATTEMPT_UPDATE}, ${followUpItems} SELECT ordinal, webhook_attempts, status, current FROM attempted`,
      { ordinal: true, webhook_attempts: true, status: true, current: true },
    ),
    values,
  };
}

/**
 * A job without text is current while the order's webhook-id is still the job's (each stored enrichment gets a new one),
 * and sends the order's payload, read here; a job with text (written before orders kept their webhook-id) while the
 * order's payload still equals that text.
 */
export const FORWARD_STATES = sql<{
  id: string;
  status: OrderStatus;
  current: boolean | null;
  enriched_payload: Record<string, unknown> | null;
}>(
  'order-forward-states',
  `SELECT o.id, o.status,
     CASE WHEN j.body IS NULL THEN o.webhook_id IS NOT DISTINCT FROM j.webhook_id ELSE o.enriched_payload = j.body::jsonb END AS current,
     CASE WHEN j.body IS NULL AND o.webhook_id IS NOT DISTINCT FROM j.webhook_id THEN o.enriched_payload END AS enriched_payload
   FROM unnest($1::uuid[], $2::text[], $3::text[]) AS j(order_db_id, webhook_id, body) JOIN orders o ON o.id = j.order_db_id`,
  { id: true, status: true, current: true, enriched_payload: true },
);

const CURRENT_MESSAGE: UpsertedOrderRelation = {
  relation: 'current_message',
  id: 'current_message.id',
  webhookId: 'current_message.webhook_id',
};

/**
 * `followUp`'s items (a failed forward's retry job, or its removal) over the order while `webhookId` is still its current
 * message: one row, none once a newer send of the order stored another payload, so that a late failure never replaces
 * that send's job. The message's outbox is cleared in the same statement: its retry is now the job's to send (or none).
 * Named per follow-up.
 */
export function whileCurrentMessageStatement(
  orderDbId: string,
  webhookId: string,
  followUp: UpsertFollowUp,
): BuiltStatement<{ current: boolean }> {
  const values: unknown[] = [orderDbId, webhookId];
  const followUpItems = followUp.withItems(CURRENT_MESSAGE, bindTo(values));
  return {
    statement: sql(
      `order-current-message+${followUp.name}`,
      `WITH current_message AS (SELECT id, webhook_id FROM orders WHERE id = $1 AND webhook_id = $2),
       outbox_cleared AS (
         UPDATE orders SET webhook_outbox_due_at = NULL WHERE id = $1 AND webhook_id = $2 AND webhook_outbox_due_at IS NOT NULL
       ), ${followUpItems}
       SELECT EXISTS (SELECT 1 FROM current_message) AS current`,
      { current: true },
    ),
    values,
  };
}

const OUTBOX_TAKEN: UpsertedOrderRelation = { relation: 'outbox_taken', id: 'outbox_taken.id', webhookId: 'outbox_taken.webhook_id' };

/**
 * Takes at most `$1` forwards whose outbox is due (the process that sent them died before recording their outcome, or
 * took longer than the send's timeout to record it): their outbox is cleared and `followUp` (the retry job) written
 * for their current message, in one statement. `SKIP LOCKED`: an attempt recording its outcome meanwhile, or another
 * instance taking the same order, is left alone. Named per follow-up.
 */
export function takeDueOutboxStatement(limit: number, followUp: UpsertFollowUp): BuiltStatement<{ taken: number }> {
  const values: unknown[] = [limit];
  const followUpItems = followUp.withItems(OUTBOX_TAKEN, bindTo(values));
  return {
    statement: sql(
      `order-take-due-outbox+${followUp.name}`,
      `WITH due AS (
         SELECT id FROM orders WHERE webhook_outbox_due_at <= now() ORDER BY webhook_outbox_due_at LIMIT $1 FOR UPDATE SKIP LOCKED
       ), outbox_cleared AS (
         UPDATE orders o SET webhook_outbox_due_at = NULL FROM due WHERE o.id = due.id RETURNING o.id, o.webhook_id
       ), outbox_taken AS (
         -- A transfer re-taxed the order meanwhile (no webhook-id): its message is gone, nothing to retry.
         SELECT id, webhook_id FROM outbox_cleared WHERE webhook_id IS NOT NULL
       ), ${followUpItems}
       SELECT count(*)::int AS taken FROM outbox_taken`,
      { taken: true },
    ),
    values,
  };
}

/** The outbox of the message `$2` cleared while it is the order's current one (a failed forward that is not retried). */
export const CLEAR_OUTBOX = sql(
  'order-clear-webhook-outbox',
  `UPDATE orders SET webhook_outbox_due_at = NULL WHERE id = $1 AND webhook_id = $2 AND webhook_outbox_due_at IS NOT NULL`,
);

/** Forwards in flight (their outbox not yet due) and those a crash left (due), for the retry queue's depth. */
export const OUTBOX_DEPTH = sql<{ due: number; scheduled: number }>(
  'order-webhook-outbox-depth',
  `SELECT count(*) FILTER (WHERE webhook_outbox_due_at <= now())::int AS due,
     count(*) FILTER (WHERE webhook_outbox_due_at > now())::int AS scheduled
   FROM orders WHERE webhook_outbox_due_at IS NOT NULL`,
  { due: true, scheduled: true },
);

interface RedeliveryRow {
  id: string;
  order_id: string;
  status: OrderStatus;
  enriched_payload: Record<string, unknown> | null;
  webhook_id: string | null;
}
const REDELIVERY_COLUMNS = { id: true, order_id: true, status: true, enriched_payload: true, webhook_id: true } as const;
export const FIND_BY_UUID_OR_ORDER_ID = sql<RedeliveryRow>(
  'order-find-by-uuid-or-order-id',
  `SELECT id, order_id, status, enriched_payload, webhook_id FROM orders WHERE id = $1::uuid OR order_id = $2 ORDER BY (id = $1::uuid) DESC LIMIT 1`,
  REDELIVERY_COLUMNS,
);
export const FIND_BY_ORDER_ID = sql<RedeliveryRow>(
  'order-find-by-order-id',
  `SELECT id, order_id, status, enriched_payload, webhook_id FROM orders WHERE order_id = $1`,
  REDELIVERY_COLUMNS,
);

/** The orders module's side of forwarding (`src/webhooks/`): attempts on the order row, and the orders a forward is about. */
@Injectable()
export class OrderForwardingRepository {
  constructor(private readonly db: SqlRunner) {}

  /** Records one forward attempt on the order, in one statement with `followUp`; undefined when the order is gone. */
  async recordAttempt(
    attempt: OrderAttempt,
    actor: Actor,
    followUp: AttemptFollowUp,
    manager?: EntityManager,
  ): Promise<RecordedAttempt | undefined> {
    const { statement, values } = recordAttemptStatement(attempt, actor, followUp);
    const row = await this.db.row(statement, values, manager);
    return row ? { attempt: row.webhook_attempts, status: row.status, current: row.current } : undefined;
  }

  /**
   * Records forward attempts on distinct orders in one statement with `followUp`: each attempt's outcome, in the
   * order given (undefined where the order is gone).
   */
  async recordAttempts(
    attempts: ReadonlyArray<{ attempt: OrderAttempt; actor: Actor }>,
    followUp: AttemptFollowUp,
  ): Promise<Array<RecordedAttempt | undefined>> {
    const { statement, values } = recordAttemptsStatement(attempts, followUp);
    const recorded: Array<RecordedAttempt | undefined> = attempts.map(() => undefined);
    for (const row of await this.db.rows(statement, values)) {
      recorded[Number(row.ordinal) - 1] = { attempt: row.webhook_attempts, status: row.status, current: row.current };
    }
    return recorded;
  }

  /** Runs `followUp` over the order while `webhookId` is still its current message, clearing its outbox; whether it was. */
  async whileCurrentMessage(orderDbId: string, webhookId: string, followUp: UpsertFollowUp): Promise<boolean> {
    const { statement, values } = whileCurrentMessageStatement(orderDbId, webhookId, followUp);
    return (await this.db.row(statement, values))?.current === true;
  }

  /** Takes at most `limit` due outboxes, with `followUp` for each one's current message (`takeDueOutboxStatement`); how many. */
  async takeDueOutbox(limit: number, followUp: UpsertFollowUp): Promise<number> {
    const { statement, values } = takeDueOutboxStatement(limit, followUp);
    return (await this.db.row(statement, values))?.taken ?? 0;
  }

  /** Clears the outbox of the message `webhookId` while it is the order's current one. */
  async clearOutbox(orderDbId: string, webhookId: string): Promise<void> {
    await this.db.rows(CLEAR_OUTBOX, [orderDbId, webhookId]);
  }

  /** Forwards whose outbox is due and not yet due. */
  async outboxDepth(): Promise<{ due: number; scheduled: number }> {
    return (await this.db.row(OUTBOX_DEPTH)) ?? { due: 0, scheduled: 0 };
  }

  /** For each job's order, its status, whether the job is still its current message and the payload to send; orders that are gone are absent. */
  async forwardStates(
    jobs: ReadonlyArray<{ orderDbId: string; webhookId: string; body: string | null }>,
  ): Promise<Map<string, ForwardState>> {
    if (jobs.length === 0) return new Map();
    const rows = await this.db.rows(FORWARD_STATES, [
      jobs.map((job) => job.orderDbId),
      jobs.map((job) => job.webhookId),
      jobs.map((job) => job.body),
    ]);
    return new Map(
      rows.map((row) => [row.id, { status: row.status, current: row.current === true, enrichedPayload: row.enriched_payload }]),
    );
  }

  /** The order by its UUID or its `orderId` (the UUID wins when both match). */
  async findForRedelivery(idOrOrderId: string, isUuid: boolean): Promise<OrderToRedeliver | undefined> {
    const row = await this.db.row(
      isUuid ? FIND_BY_UUID_OR_ORDER_ID : FIND_BY_ORDER_ID,
      isUuid ? [idOrOrderId, idOrOrderId] : [idOrOrderId],
    );
    return row
      ? { id: row.id, orderId: row.order_id, status: row.status, enrichedPayload: row.enriched_payload, webhookId: row.webhook_id }
      : undefined;
  }
}
