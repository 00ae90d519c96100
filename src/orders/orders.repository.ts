import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { ApiError } from '../common/errors/api-error.js';
import { formatMicrosUtc } from '../common/iso-date-time.js';
import { sql, SqlRunner, type SqlStatement } from '../database/sql-runner.js';
import type { WebhookLastResponse } from './order.entity.js';
import { isoUtc } from '../database/sql-json.js';
import type { PersistedOrderDto } from './dto/persisted-order.dto.js';
import { orderCountQuery, orderDetailSelect, orderPageQuery, type OrderListFilter } from './order-list.sql.js';
import { INTAKE_STATUSES, statusAfterSql, type OrderStatus } from './order-status.js';

export interface OrderUpsert {
  orderId: string;
  status: OrderStatus;
  /** JSON text of the payload as received. */
  payloadJson: string;
  /** JSON text of the enriched payload, or null when enrichment failed. */
  enrichedPayloadJson: string | null;
  storeId: string | null;
  source: string | null;
  fiscalGroupId: string | null;
}

export interface UpsertedOrder {
  id: string;
  status: OrderStatus;
  createdAt: Date;
  updatedAt: Date;
  webhookAttempts: number;
}

export interface HourlyStatusCount {
  hour: Date;
  status: OrderStatus;
  count: number;
}

export interface FailedEnrichmentStore {
  storeId: string;
  failedOrders: number;
  lastFailedAt: Date;
}

/** What a refused re-send finds stored. */
export interface StoredOrderState {
  storeId: string | null;
  taxed: boolean;
  transferred: boolean;
  fiscalGroupId: string | null;
  status: OrderStatus;
}

/** An order row read under `FOR UPDATE`: nobody else changes it until the transaction ends. */
export interface LockedOrder {
  id: string;
  orderId: string;
  status: OrderStatus;
  storeId: string | null;
  payload: Record<string, unknown>;
  enrichedPayload: Record<string, unknown> | null;
  fiscalGroupId: string | null;
}

/** What the history row keeps beside the status: the label as sent and the body's other properties. */
export interface StatusNote {
  label?: string;
  extra?: Record<string, unknown> | null;
}

/** A new order from the platform's webhook. */
export interface NewOrderInsert {
  orderId: string;
  status: OrderStatus;
  payload: Record<string, unknown>;
  storeId: string | null;
  source: string;
  /** The status as the platform sent it, kept in the history. */
  label?: string;
}

/** Where a transfer moves a locked order. */
export interface StoreMove {
  storeId: string;
  payload: Record<string, unknown>;
  enrichedPayload: Record<string, unknown> | null;
  fiscalGroupId: string | null;
}

/** The order side of one forward attempt. */
export interface OrderAttempt {
  orderDbId: string;
  lastResponse: WebhookLastResponse;
  /** FORWARDED or FORWARD_FAILED, applied where the status machine allows it. */
  status: OrderStatus;
  /** Set by retries: the status only changes when the order's enriched payload is still this one. */
  onlyIfPayload: string | null;
}

/**
 * Statements of other modules that must commit with an attempt (its delivery log, its retry
 * job). They are appended to the attempt's statement as further `WITH` items, read the order's
 * row through the name `o` (`id`, `webhook_attempts`, `status`), and number their parameters
 * from `$` + (ATTEMPT_PARAMETERS + 1).
 */
export interface AttemptFollowUp {
  /** Unique per statement text, for the prepared statement's name. */
  name: string;
  /** `name AS (...)` items, comma-separated, without a leading comma. */
  withItems: string;
  values: readonly unknown[];
}

export const ATTEMPT_PARAMETERS = 6;

export interface RecordedAttempt {
  attempt: number;
  status: OrderStatus;
}

/** An order a forward is about: its status, and whether its enriched payload is still `body`. */
export interface ForwardState {
  status: OrderStatus;
  current: boolean;
}

export interface OrderToRedeliver {
  id: string;
  orderId: string;
  status: OrderStatus;
  enrichedPayload: Record<string, unknown> | null;
}

/** The filters of `GET /api/order/infoPayments`: a creation window and root or `store` properties compared as text. */
export interface PaymentsFilter {
  /** created_at >= this instant, in microseconds since the epoch. */
  startUs: bigint;
  /** created_at <= (or < when `endExclusive`) this instant, in microseconds since the epoch. */
  endUs: bigint;
  endExclusive: boolean;
  /** Property name → value; names are the route's fixed filter names, never a caller's text. */
  properties: ReadonlyArray<readonly [name: 'country' | 'account' | 'sellerId', value: string]>;
}

export interface OrderPayments {
  id: string;
  orderId: string;
  storeId: string | null;
  createdAt: Date;
  payments: unknown;
}

/** Whether a transfer moved the order to another store: it then keeps that store. A column of the row, so the guard sees it once locked. */
const TRANSFERRED = `o.transferred_at IS NOT NULL`;

/** The statuses an upsert can give: enrichment's outcomes. */
const INTAKE_TARGETS = INTAKE_STATUSES;

/**
 * One statement stores an order by `orderId`: concurrent sends of one order leave one
 * row and one id. A re-send keeps `id`, `created_at` and `webhook_attempts`, refreshes
 * the payloads, and changes the status by the status machine (a store that accepted the
 * order keeps its status).
 *
 * A re-send changes nothing (no row is returned) when it would undo fulfillment:
 * - it names another store than the one a transfer moved the order to (the caller
 *   re-taxes it for the current store and tries again);
 * - with `untaxed`, it carries no taxes while the stored order has some.
 * The guard is checked on the row as it is once locked, so a concurrent transfer is seen.
 */
export function upsertOrderSql(untaxed = false): string {
  const guard = untaxed
    ? `o.enriched_payload IS NULL AND (o.store_id IS NOT DISTINCT FROM EXCLUDED.store_id OR NOT ${TRANSFERRED})`
    : `o.store_id IS NOT DISTINCT FROM EXCLUDED.store_id OR NOT ${TRANSFERRED}`;
  return `
  INSERT INTO orders AS o (order_id, status, payload, enriched_payload, store_id, source, fiscal_group_id, last_changed_by, last_changed_via)
  VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8, $9)
  ON CONFLICT (order_id) DO UPDATE SET
    payload = EXCLUDED.payload,
    enriched_payload = EXCLUDED.enriched_payload,
    store_id = EXCLUDED.store_id,
    source = EXCLUDED.source,
    fiscal_group_id = EXCLUDED.fiscal_group_id,
    status = ${statusAfterSql('o.status', 'EXCLUDED.status', INTAKE_TARGETS)},
    last_changed_by = EXCLUDED.last_changed_by,
    last_changed_via = EXCLUDED.last_changed_via,
    updated_at = now()
  WHERE ${guard}
  RETURNING o.id, o.status, o.created_at, o.updated_at, o.webhook_attempts`;
}

// The order path's hottest statements: named, so each pooled connection plans them once.
const UPSERT = sql('order-upsert', upsertOrderSql());
const UPSERT_UNTAXED = sql('order-upsert-untaxed', upsertOrderSql(true));

const STORED_STATE = sql(
  'order-stored-state',
  `SELECT o.store_id, o.enriched_payload IS NOT NULL AS taxed, ${TRANSFERRED} AS transferred, o.fiscal_group_id, o.status
   FROM orders o WHERE o.order_id = $1`,
);

/**
 * The platform retries its new-order webhook: one statement that does nothing when the
 * `order_id` is already stored (whatever its status by then: a repeat never resets an order
 * that moved on). The label goes to the history trigger through a transaction-local setting.
 */
const INSERT_IF_ABSENT = sql(
  'order-insert-if-absent',
  `INSERT INTO orders (order_id, status, payload, store_id, source, last_changed_by, last_changed_via)
   SELECT $1, $2, $3::jsonb, $4, $5, $6, $7
   FROM (SELECT set_config('app.status_label', $8, true), set_config('app.status_extra', '', true)) AS note
   ON CONFLICT (order_id) DO NOTHING
   RETURNING id`,
);

const LOCK = sql(
  'order-lock',
  `SELECT id, order_id, status, store_id, payload, enriched_payload, fiscal_group_id FROM orders WHERE order_id = $1 FOR UPDATE`,
);

/** The label and the body's other properties reach the history trigger through transaction-local settings, always set. */
const SET_STATUS = sql(
  'order-set-status',
  `UPDATE orders SET status = $2, last_changed_by = $3, last_changed_via = $4, updated_at = now()
   FROM (SELECT set_config('app.status_label', $5, true), set_config('app.status_extra', $6, true)) AS note
   WHERE id = $1`,
);

const MOVE_STORE = sql(
  'order-move-store',
  `UPDATE orders SET store_id = $2, payload = $3::jsonb, enriched_payload = $4::jsonb, fiscal_group_id = $5,
     last_changed_by = $6, last_changed_via = $7, updated_at = now(), transferred_at = now()
   WHERE id = $1`,
);

/**
 * The counter is incremented in place (never read-modify-write), the last answer kept and the
 * status moved by the machine, unless a retry's payload is no longer the order's. Without a
 * lock: a locking transaction would add three round trips to every delivery for no other effect.
 */
const ATTEMPT_UPDATE = `
  o AS (
    UPDATE orders SET
      webhook_attempts = webhook_attempts + 1,
      webhook_last_response = $2::jsonb,
      status = CASE WHEN $4::text IS NULL OR enriched_payload = $4::jsonb
        THEN ${statusAfterSql('status', '$3', ['FORWARDED', 'FORWARD_FAILED'])} ELSE status END,
      last_changed_by = $5,
      last_changed_via = $6,
      updated_at = now()
    WHERE id = $1
    RETURNING id, webhook_attempts, status
  )`;

const FORWARD_STATES = sql(
  'order-forward-states',
  `SELECT o.id, o.status, o.enriched_payload = j.body::jsonb AS current
   FROM unnest($1::uuid[], $2::text[]) AS j(order_db_id, body) JOIN orders o ON o.id = j.order_db_id`,
);

const FIND_BY_UUID_OR_ORDER_ID = sql(
  'order-find-by-uuid-or-order-id',
  `SELECT id, order_id, status, enriched_payload FROM orders WHERE id = $1::uuid OR order_id = $2 ORDER BY (id = $1::uuid) DESC LIMIT 1`,
);
const FIND_BY_ORDER_ID = sql('order-find-by-order-id', `SELECT id, order_id, status, enriched_payload FROM orders WHERE order_id = $1`);

const FOLD_COUNTS = sql('order-fold-counts', 'SELECT fold_order_counts() AS folded');

// Rewriting the payload fires the trigger that measures it; rows a writer holds are left for a later batch.
const MEASURE_PAYLOADS = sql(
  'order-measure-payloads',
  `WITH batch AS (SELECT id FROM orders WHERE payload_bytes IS NULL LIMIT $1 FOR UPDATE SKIP LOCKED)
   UPDATE orders o SET payload = o.payload FROM batch WHERE o.id = batch.id RETURNING o.id`,
);
const UNMEASURED_PAYLOADS = sql('order-unmeasured-payloads', 'SELECT count(*) AS unmeasured FROM orders WHERE payload_bytes IS NULL');

const HISTORY = sql(
  'order-detail-history',
  `SELECT coalesce(jsonb_agg(jsonb_build_object(
       'status', to_status, 'from', from_status, 'at', ${isoUtc('changed_at')}, 'clientId', client_id, 'via', via,
       'label', label, 'extra', extra
     ) ORDER BY changed_at, id), '[]') AS items
   FROM order_status_history WHERE order_db_id = $1`,
);
const DETAIL_BY_UUID = sql(
  'order-detail-by-uuid',
  `${orderDetailSelect('o')} WHERE o.id = $1::uuid OR o.order_id = $2 ORDER BY (o.id = $1::uuid) DESC LIMIT 1`,
);
/**
 * From the hourly counters (migration DashboardStats): the folded hours plus the deltas not folded yet,
 * so the figures are exact at once. Hours whose changes cancel out are left out.
 */
const COUNTS_PER_HOUR = sql(
  'order-counts-per-hour',
  `SELECT hour, status, sum(n)::int AS n FROM (
     SELECT hour, status, n FROM order_count_hour WHERE hour >= $1
     UNION ALL
     SELECT hour, status, n FROM order_count_delta WHERE hour >= $1
   ) counted GROUP BY hour, status HAVING sum(n) <> 0`,
);
/** Index-only on the partial ix_orders_enrichment_failed. */
const FAILED_ENRICHMENT_STORES = sql(
  'order-failed-enrichment-stores',
  `SELECT store_id, count(*)::int AS n, max(created_at) AS last_at
   FROM orders WHERE status = 'ENRICHMENT_FAILED' AND created_at >= $1 AND store_id IS NOT NULL GROUP BY store_id`,
);

const DETAIL_BY_ORDER_ID = sql('order-detail-by-order-id', `${orderDetailSelect('o')} WHERE o.order_id = $1`);

/**
 * The owner of the `orders` table: every statement that writes it, and those that read it for
 * other modules, are here (a test fails on SQL naming `orders` outside src/orders/).
 */
@Injectable()
export class OrdersRepository {
  constructor(private readonly db: SqlRunner) {}

  /** Stores the order, or returns null when the stored order must not be overwritten by it (see `upsertOrderSql`). */
  async upsert(order: OrderUpsert, actor: Actor): Promise<UpsertedOrder | null> {
    const untaxed = order.enrichedPayloadJson === null;
    const row = await this.db.row<{ id: string; status: OrderStatus; created_at: Date; updated_at: Date; webhook_attempts: number }>(
      untaxed ? UPSERT_UNTAXED : UPSERT,
      [
        order.orderId,
        order.status,
        order.payloadJson,
        order.enrichedPayloadJson,
        order.storeId,
        order.source,
        order.fiscalGroupId,
        actor.clientId,
        actor.via,
      ],
    );
    if (!row) return null;
    return { id: row.id, status: row.status, createdAt: row.created_at, updatedAt: row.updated_at, webhookAttempts: row.webhook_attempts };
  }

  async storedState(orderId: string): Promise<StoredOrderState | undefined> {
    const row = await this.db.row<{
      store_id: string | null;
      taxed: boolean;
      transferred: boolean;
      fiscal_group_id: string | null;
      status: OrderStatus;
    }>(STORED_STATE, [orderId]);
    return row
      ? { storeId: row.store_id, taxed: row.taxed, transferred: row.transferred, fiscalGroupId: row.fiscal_group_id, status: row.status }
      : undefined;
  }

  /** Whether the order was new (false when its `orderId` was already stored). */
  async insertIfAbsent(order: NewOrderInsert, actor: Actor): Promise<boolean> {
    const rows = await this.db.rows(INSERT_IF_ABSENT, [
      order.orderId,
      order.status,
      JSON.stringify(order.payload),
      order.storeId,
      order.source,
      actor.clientId,
      actor.via,
      order.label ?? '',
    ]);
    return rows.length > 0;
  }

  /** The order with this `orderId` (compared as text), locked in `manager`'s transaction; 404 when there is none. */
  async lock(manager: EntityManager, orderId: string): Promise<LockedOrder> {
    const row = await this.db.row<{
      id: string;
      order_id: string;
      status: OrderStatus;
      store_id: string | null;
      payload: Record<string, unknown>;
      enriched_payload: Record<string, unknown> | null;
      fiscal_group_id: string | null;
    }>(LOCK, [orderId], manager);
    if (!row) throw ApiError.notFound(`Order ${orderId} not found`);
    return {
      id: row.id,
      orderId: row.order_id,
      status: row.status,
      storeId: row.store_id,
      payload: row.payload,
      enrichedPayload: row.enriched_payload,
      fiscalGroupId: row.fiscal_group_id,
    };
  }

  /** Sets the status of a locked order; the history trigger records it with `actor` and `note`. Callers go through OrderStatusWriter. */
  async setStatus(manager: EntityManager, order: LockedOrder, to: OrderStatus, actor: Actor, note: StatusNote): Promise<void> {
    await this.db.rows(
      SET_STATUS,
      [order.id, to, actor.clientId, actor.via, note.label ?? '', note.extra ? JSON.stringify(note.extra) : ''],
      manager,
    );
  }

  /** Moves a locked order to another store (a transfer): it keeps that store from now on. */
  async moveStore(manager: EntityManager, order: LockedOrder, move: StoreMove, actor: Actor): Promise<void> {
    await this.db.rows(
      MOVE_STORE,
      [
        order.id,
        move.storeId,
        JSON.stringify(move.payload),
        move.enrichedPayload === null ? null : JSON.stringify(move.enrichedPayload),
        move.fiscalGroupId,
        actor.clientId,
        actor.via,
      ],
      manager,
    );
  }

  /**
   * Records one forward attempt on the order, in one statement with `followUp` (see
   * AttemptFollowUp); undefined when the order is gone.
   */
  async recordAttempt(attempt: OrderAttempt, actor: Actor, followUp: AttemptFollowUp): Promise<RecordedAttempt | undefined> {
    const statement: SqlStatement = sql(
      `order-record-attempt+${followUp.name}`,
      `WITH ${ATTEMPT_UPDATE}, ${followUp.withItems} SELECT o.webhook_attempts, o.status FROM o`,
    );
    const row = await this.db.row<{ webhook_attempts: number; status: OrderStatus }>(statement, [
      attempt.orderDbId,
      JSON.stringify(attempt.lastResponse),
      attempt.status,
      attempt.onlyIfPayload,
      actor.clientId,
      actor.via,
      ...followUp.values,
    ]);
    return row ? { attempt: row.webhook_attempts, status: row.status } : undefined;
  }

  /** For each order, its status and whether its enriched payload is still the given body; orders that are gone are absent. */
  async forwardStates(jobs: ReadonlyArray<{ orderDbId: string; body: string }>): Promise<Map<string, ForwardState>> {
    if (jobs.length === 0) return new Map();
    const rows = await this.db.rows<{ id: string; status: OrderStatus; current: boolean | null }>(FORWARD_STATES, [
      jobs.map((job) => job.orderDbId),
      jobs.map((job) => job.body),
    ]);
    return new Map(rows.map((row) => [row.id, { status: row.status, current: row.current === true }]));
  }

  /** One page of the orders created in the window, oldest first, with their payments, and how many match. */
  async paymentsPage(filter: PaymentsFilter, page: number, pageSize: number): Promise<{ total: number; items: OrderPayments[] }> {
    // Microsecond text, as PostgreSQL stores it: a Date would cut an inclusive bound to the millisecond.
    const values: unknown[] = [formatMicrosUtc(filter.startUs), formatMicrosUtc(filter.endUs)];
    const conditions = [
      'created_at >= $1::timestamptz',
      filter.endExclusive ? 'created_at < $2::timestamptz' : 'created_at <= $2::timestamptz',
    ];
    for (const [name, value] of filter.properties) {
      values.push(value);
      // The root property of that name, else the one under `store`; numbers compare as their text.
      conditions.push(`COALESCE(payload ->> '${name}', payload -> 'store' ->> '${name}') = $${values.length}`);
    }
    const where = conditions.join(' AND ');
    const [counted, rows] = await Promise.all([
      this.db.row<{ total: number }>({ text: `SELECT count(*)::int AS total FROM orders WHERE ${where}` }, values),
      this.db.rows<{ id: string; order_id: string; store_id: string | null; created_at: Date; payments: unknown }>(
        {
          text: `SELECT id, order_id, store_id, created_at,
                   COALESCE(NULLIF(payload -> 'payments', 'null'::jsonb), payload -> 'order' -> 'payments') AS payments
                 FROM orders WHERE ${where}
                 ORDER BY created_at, id
                 LIMIT $${values.length + 1} OFFSET $${values.length + 2}`,
        },
        [...values, pageSize, (page - 1) * pageSize],
      ),
    ]);
    return {
      total: counted?.total ?? 0,
      items: rows.map((row) => ({
        id: row.id,
        orderId: row.order_id,
        storeId: row.store_id,
        createdAt: row.created_at,
        payments: row.payments,
      })),
    };
  }

  /** The page's items as one JSON array text built by PostgreSQL, and the count of every match; the two run in parallel. */
  async listPage(filter: OrderListFilter, page: number, pageSize: number): Promise<{ itemsJson: string; total: number }> {
    const items = orderPageQuery(filter, page, pageSize);
    const count = orderCountQuery(filter);
    const [pageRow, countRow] = await Promise.all([
      this.db.row<{ items: string }>({ text: items.sql }, items.params),
      this.db.row<{ total: string }>({ text: count.sql }, count.params),
    ]);
    return { itemsJson: pageRow!.items, total: Number(countRow!.total) };
  }

  /** The stored order as the detail shows it, by UUID (or orderId) or by orderId. */
  async detail(idOrOrderId: string, isUuid: boolean): Promise<PersistedOrderDto | undefined> {
    const row = await this.db.row<{ persisted: PersistedOrderDto }>(
      isUuid ? DETAIL_BY_UUID : DETAIL_BY_ORDER_ID,
      isUuid ? [idOrOrderId.toLowerCase(), idOrOrderId] : [idOrOrderId],
    );
    return row?.persisted;
  }

  /** Moves the counters' deltas into the per-day and per-hour totals (see OrderCountFolder); how many delta rows moved. */
  async foldCounts(): Promise<number> {
    return Number((await this.db.row<{ folded: string }>(FOLD_COUNTS))?.folded ?? 0);
  }

  /** Measures up to `limit` orders stored before `payload_bytes` existed (see OrderPayloadMeasurer); how many. */
  async measurePayloads(limit: number): Promise<number> {
    return (await this.db.rows(MEASURE_PAYLOADS, [limit])).length;
  }

  /** How many stored orders are still to be measured. */
  async unmeasuredPayloads(): Promise<number> {
    return Number((await this.db.row<{ unmeasured: string }>(UNMEASURED_PAYLOADS))?.unmeasured ?? 0);
  }

  /** The order's status changes, oldest first. */
  async history(orderDbId: string): Promise<unknown[]> {
    return (await this.db.row<{ items: unknown[] }>(HISTORY, [orderDbId]))?.items ?? [];
  }

  /** The order by its UUID or its `orderId` (the UUID wins when both match). */
  async findForRedelivery(idOrOrderId: string, isUuid: boolean): Promise<OrderToRedeliver | undefined> {
    const row = await this.db.row<{ id: string; order_id: string; status: OrderStatus; enriched_payload: Record<string, unknown> | null }>(
      isUuid ? FIND_BY_UUID_OR_ORDER_ID : FIND_BY_ORDER_ID,
      isUuid ? [idOrOrderId, idOrOrderId] : [idOrOrderId],
    );
    return row ? { id: row.id, orderId: row.order_id, status: row.status, enrichedPayload: row.enriched_payload } : undefined;
  }

  /** Orders created since `from` (at most 8 days back: the hourly counters' window), per UTC hour of creation and current status; hours without orders are absent. */
  async countsPerHour(from: Date): Promise<HourlyStatusCount[]> {
    const rows = await this.db.rows<{ hour: Date; status: OrderStatus; n: number }>(COUNTS_PER_HOUR, [from]);
    return rows.map((row) => ({ hour: row.hour, status: row.status, count: row.n }));
  }

  /** Stores whose orders since `from` are still ENRICHMENT_FAILED (no fiscal group held the store), with how many and the last one. */
  async failedEnrichmentStores(from: Date): Promise<FailedEnrichmentStore[]> {
    const rows = await this.db.rows<{ store_id: string; n: number; last_at: Date }>(FAILED_ENRICHMENT_STORES, [from]);
    return rows.map((row) => ({ storeId: row.store_id, failedOrders: row.n, lastFailedAt: row.last_at }));
  }
}
