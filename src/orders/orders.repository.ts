import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { ApiError } from '../common/errors/api-error.js';
import { GroupCommit } from '../database/group-commit.js';
import type { TaxedOrders } from '../fiscal-groups/taxed-orders.port.js';
import { sql, SqlRunner, type BuiltStatement } from '../database/sql-runner.js';
import { bindTo, type UpsertFollowUp, type UpsertedOrderRelation } from './order-forwarding.repository.js';
import { INTAKE_STATUSES, statusAfterSql, TERMINAL_STATUSES, type OrderStatus } from './order-status.js';
import { newWebhookId } from './webhook-id.js';
import type { WebhookLastResponse } from './order.entity.js';

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
  /**
   * The tax instant of this receipt (absent: now); a stored order keeps its own. A taxed upsert reads it (and the revision) from
   * the enriched payload's `taxSummary.fiscalDocument`, so that the statement keeps its parameters.
   */
  taxInstant?: Date;
  /** The order's personal-data lookup keys, space-separated (`PersonalDataKeys.keysTextOf`; docs/personal-data.md). */
  personalDataKeys: string;
  /**
   * A forward's outbox (taxed orders only): the stored message falls to the retry worker this many milliseconds after the
   * statement, unless an attempt records its outcome first ("The forward's outbox" in docs/webhook-retries.md). Absent:
   * no outbox (a re-send through `/enrich-order` clears an older message's).
   */
  webhookOutboxInMs?: number;
}

export interface UpsertedOrder {
  id: string;
  status: OrderStatus;
  createdAt: Date;
  updatedAt: Date;
  webhookAttempts: number;
  /** The stored enriched payload's `webhook-id`; null for an untaxed order. */
  webhookId: string | null;
}

export type { UpsertedOrderRelation, UpsertFollowUp } from './order-forwarding.repository.js';

/** The order moved aside for the platform's order (`TAKE_ORDER_ID`). */
export interface MovedOrder {
  movedOrderId: string;
  previousStatus: OrderStatus;
  storeId: string | null;
  /** The store-limited client that stored it. */
  intakeClientId: string;
}

/** What a refused re-send finds stored. */
export interface StoredOrderState {
  storeId: string | null;
  taxed: boolean;
  transferred: boolean;
  fiscalGroupId: string | null;
  status: OrderStatus;
  /** Null for an order stored before tax instants were kept. */
  taxInstant: Date | null;
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
  /** Null for an order stored before tax instants were kept. */
  taxInstant: Date | null;
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
  /** The body's personal-data lookup keys, space-separated (docs/personal-data.md). */
  personalDataKeys: string;
}

/** Where a transfer moves a locked order. */
export interface StoreMove {
  storeId: string;
  payload: Record<string, unknown>;
  enrichedPayload: Record<string, unknown> | null;
  fiscalGroupId: string | null;
  /** The revision that re-taxed the order; ignored when the group does not change (the order keeps its revision). */
  fiscalGroupRevision: number | null;
  /** The instant the re-tax was taxed at (the order's tax instant). */
  taxInstant: Date;
}

/**
 * A re-send keeps the keys of what the order held before (a delivery log row may still hold an earlier e-mail) and adds
 * the new payload's; it holds personal data again, so it is no longer erased (docs/personal-data.md).
 */
const PERSONAL_DATA_KEYS_AFTER_RESEND = `personal_data_keys = ARRAY(SELECT DISTINCT k FROM unnest(coalesce(o.personal_data_keys, '{}') || EXCLUDED.personal_data_keys) AS k),
    personal_data_erased_at = NULL`;

/** Whether a transfer moved the order to another store: it then keeps that store. A column of the row, so the guard sees it once locked. */
const TRANSFERRED = `o.transferred_at IS NOT NULL`;

/** A closed order is never stored again: its statuses never change, so a refusal read afterwards still finds them. */
const OPEN = `o.status NOT IN (${TERMINAL_STATUSES.map((status) => `'${status}'`).join(', ')})`;

/**
 * The stored order was stored first by a store-limited client, under another store than the platform's order names: the
 * platform's order takes the id and the stored one moves aside (`TAKE_ORDER_ID`, "An order id stored first by a
 * store's client" in docs/access.md). An every-store writer's upsert changes nothing on it.
 */
const SQUATTED_FOR = (storeId: string) => `o.intake_client_id IS NOT NULL AND o.store_id IS DISTINCT FROM ${storeId}`;

/** The statuses an upsert can give: enrichment's outcomes. */
const INTAKE_TARGETS = INTAKE_STATUSES;

/**
 * One statement stores an order by `orderId`: concurrent sends of one order leave one
 * row and one id. A re-send keeps `id`, `created_at` and `webhook_attempts`, refreshes
 * the payloads, and changes the status by the status machine (a store that accepted the
 * order keeps its status).
 *
 * A re-send changes nothing (no row is returned) when it would undo fulfillment:
 * - the stored order is closed (DELIVERED, CANCELLED or REJECTED: the caller answers 409 ORDER_CLOSED); checked on
 *   the locked row, so a status change committed meanwhile is seen;
 * - it names another store than the one a transfer moved the order to (the caller
 *   re-taxes it for the current store and tries again);
 * - with `untaxed`, it carries no taxes while the stored order has some;
 * - the writer is limited to stores (`$10`, null for every store) and the stored order's store
 *   is not one of them (the caller then answers 403: "Clients limited to stores" in docs/api-decisions.md).
 * The guard is checked on the row as it is once locked, so a concurrent transfer is seen.
 *
 * The order keeps the tax instant of its first receipt: a taxed re-send whose tax instant differs changes nothing
 * either (the caller re-taxes it at the stored instant and tries again). Nor does a taxed upsert whose revision is not
 * the one in force at its tax instant (`revisionGuard`): the caller re-reads the revisions and taxes it again. A taxed upsert takes the tax instant and the
 * revision from the enriched payload's `taxSummary.fiscalDocument`, parsed once, and the enriched payload's new
 * `webhook-id` as `$11`; an untaxed one takes the tax instant as `$11` and clears the `webhook-id`.
 */
export function upsertOrderSql(untaxed = false): string {
  const taxInstant = untaxed ? `$11::timestamptz` : taxInstantOf('e.doc');
  const revision = untaxed ? `NULL::integer` : revisionOf('e.doc');
  const webhookId = untaxed ? `NULL::varchar` : `$11::varchar`;
  return `
  INSERT INTO orders AS o (${UPSERTED_ORDER_COLUMNS})
  SELECT $1::varchar, $2::varchar, $3::jsonb, e.doc, $5::varchar, $6::varchar, $7::uuid, $8::varchar,
    $9::varchar, ${taxInstant}, ${revision}, ${webhookId}, ${intakeClientOf('$10', '$8::varchar')}, string_to_array($12::text, ' '),
    ${outboxDueAt('$13::integer')}
  FROM (SELECT $4::jsonb AS doc) AS e
  ${untaxed ? '' : `WHERE ${revisionGuard('$7::uuid', 'e.doc')}`}
  ${onConflictSql(untaxed, '$10')}
  RETURNING ${RETURNED}`;
}

const UPSERTED_ORDER_COLUMNS = `order_id, status, payload, enriched_payload, store_id, source, fiscal_group_id, last_changed_by,
    last_changed_via, tax_instant, fiscal_group_revision, webhook_id, intake_client_id, personal_data_keys, webhook_outbox_due_at`;
/** The forward's outbox due time, `ms` after the statement (null for no outbox). */
const outboxDueAt = (ms: string) => `now() + ${ms} * interval '1 millisecond'`;
/** The writer kept as the order's intake client: a store-limited writer (`stores` not null) only. */
const intakeClientOf = (stores: string, clientId: string) => `CASE WHEN ${stores}::text[] IS NULL THEN NULL ELSE ${clientId} END`;
const RETURNED = `o.id, o.status, o.created_at, o.updated_at, o.webhook_attempts, o.webhook_id`;
const taxInstantOf = (doc: string) => `(${doc} #>> '{taxSummary,fiscalDocument,taxInstant}')::timestamptz`;
const revisionOf = (doc: string) => `(${doc} #>> '{taxSummary,fiscalDocument,revision}')::integer`;
/**
 * A taxed order is stored only when the revision that taxed it is the one the revision table says was in force at its
 * tax instant (`fiscal_revision_taxes_at`, migration RevisionInForceAtTaxInstant): a cache that had not yet heard of a
 * revision written or cancelled meanwhile cannot store its answer, and the caller taxes the order again. See "Which
 * revision taxes an order" in docs/fiscal-configuration-over-time.md.
 */
const revisionGuard = (groupId: string, doc: string) =>
  `(${groupId} IS NULL OR fiscal_revision_taxes_at(${groupId}, ${taxInstantOf(doc)}, ${revisionOf(doc)}))`;

/**
 * `revisionGuard` for every order of a group-commit statement at once (`fiscal_revisions_tax_at`, migration
 * RevisionCheckPerStatement): each group's revisions lock is taken once and the revision table read once per statement,
 * not per order. `stored`: per order (`n`, its 1-based position in `rows`), whether it may be stored.
 */
const batchRevisionGuard = (rows: string) =>
  `SELECT fiscal_revisions_tax_at(array_agg(fiscal_group_id ORDER BY n), array_agg(tax_instant ORDER BY n),
     array_agg(revision ORDER BY n)) AS stored FROM ${rows}`;

/** What a re-send changes, and the guard under which it changes anything (`upsertOrderSql`); `stores`: the writer's stores. */
function onConflictSql(untaxed: boolean, stores: string): string {
  const storeGuard = `o.store_id IS NOT DISTINCT FROM EXCLUDED.store_id OR NOT ${TRANSFERRED}`;
  const taxGuard = untaxed ? `o.enriched_payload IS NULL AND ` : '';
  const instantGuard = untaxed
    ? ''
    : ` AND (o.tax_instant IS NULL OR EXCLUDED.tax_instant IS NULL OR o.tax_instant = EXCLUDED.tax_instant)`;
  return `ON CONFLICT (order_id) DO UPDATE SET
    payload = EXCLUDED.payload,
    enriched_payload = EXCLUDED.enriched_payload,
    store_id = EXCLUDED.store_id,
    source = EXCLUDED.source,
    fiscal_group_id = EXCLUDED.fiscal_group_id,
    status = ${statusAfterSql('o.status', 'EXCLUDED.status', INTAKE_TARGETS)},
    last_changed_by = EXCLUDED.last_changed_by,
    last_changed_via = EXCLUDED.last_changed_via,
    tax_instant = coalesce(o.tax_instant, EXCLUDED.tax_instant),
    fiscal_group_revision = EXCLUDED.fiscal_group_revision,
    webhook_id = EXCLUDED.webhook_id,
    webhook_outbox_due_at = EXCLUDED.webhook_outbox_due_at,
    intake_client_id = CASE WHEN ${stores}::text[] IS NULL THEN NULL ELSE o.intake_client_id END,
    ${PERSONAL_DATA_KEYS_AFTER_RESEND},
    updated_at = now()
  WHERE ${OPEN} AND ${taxGuard}(${storeGuard}) AND (${stores}::text[] IS NULL OR o.store_id = ANY(${stores}::text[]))${instantGuard}
    AND NOT (${stores}::text[] IS NULL AND ${SQUATTED_FOR('EXCLUDED.store_id')})`;
}

interface UpsertedRow {
  id: string;
  status: OrderStatus;
  created_at: Date;
  updated_at: Date;
  webhook_attempts: number;
  webhook_id: string | null;
}
const UPSERTED_COLUMNS = { id: true, status: true, created_at: true, updated_at: true, webhook_attempts: true, webhook_id: true } as const;

/** Built once: its status expression is generated from the status machine, which is not free on every forward. */
const TAXED_UPSERT_SQL = upsertOrderSql();

// The order path's hottest statements: named, so each pooled connection plans them once.
export const UPSERT = sql<UpsertedRow>('order-upsert', TAXED_UPSERT_SQL, UPSERTED_COLUMNS);
export const UPSERT_UNTAXED = sql<UpsertedRow>('order-upsert-untaxed', upsertOrderSql(true), UPSERTED_COLUMNS);

/** A taxed upsert's values as `upsert` builds them: the writer's stores are `$10`, shared by a batch. */
const STORES_VALUE = 9;

/**
 * The taxed upsert of several orders (distinct orderIds, one writer's stores) in one statement, each as
 * `upsertOrderSql` stores one. Each value of `upsertOrderSql` but the stores is an array with an entry per order; the
 * two documents are JSON arrays, the orders' texts joined (nothing to escape, and one text whatever the count, so one
 * prepared statement). The rows go in orderId order, so that two such statements lock the orders they share in the
 * same order (never each other's).
 */
const UPSERT_BATCH_SQL = `
  INSERT INTO orders AS o (${UPSERTED_ORDER_COLUMNS})
  SELECT i.order_id, i.status, i.payload, i.doc, i.store_id, i.source, i.fiscal_group_id, i.changed_by, i.changed_via,
    i.tax_instant, i.revision, i.webhook_id, ${intakeClientOf('$10', 'i.changed_by')}, string_to_array(i.personal_data_keys, ' '),
    ${outboxDueAt('i.outbox_ms')}
  FROM (
    WITH i AS (
      SELECT r.*, ${taxInstantOf('r.doc')} AS tax_instant, ${revisionOf('r.doc')} AS revision
      FROM ROWS FROM (unnest($1::varchar[]), unnest($2::varchar[]), jsonb_array_elements($3::jsonb), jsonb_array_elements($4::jsonb),
        unnest($5::varchar[]), unnest($6::varchar[]), unnest($7::uuid[]), unnest($8::varchar[]), unnest($9::varchar[]),
        unnest($11::varchar[]), unnest($12::text[]), unnest($13::integer[])) WITH ORDINALITY
        AS r(order_id, status, payload, doc, store_id, source, fiscal_group_id, changed_by, changed_via, webhook_id, personal_data_keys,
          outbox_ms, n)
    ), verdict AS (${batchRevisionGuard('i')})
    SELECT i.* FROM i, verdict WHERE verdict.stored[i.n::integer]
  ) AS i
  ORDER BY i.order_id
  ${onConflictSql(false, '$10')}
  RETURNING o.order_id, ${RETURNED}`;

const BATCH_UPSERTED_COLUMNS = { ...UPSERTED_COLUMNS, order_id: true } as const;
export const UPSERT_BATCH = sql<UpsertedRow & { order_id: string }>('order-upsert-batch', UPSERT_BATCH_SQL, BATCH_UPSERTED_COLUMNS);

/** The values of `UPSERT_BATCH_SQL` for taxed upserts' values (each as `upsert` builds them). */
function upsertBatchValues(batch: ReadonlyArray<readonly unknown[]>): unknown[] {
  const column = (index: number) => batch.map((values) => values[index]);
  const documents = (index: number) => `[${batch.map((values) => values[index] as string).join(',')}]`;
  return [
    column(0),
    column(1),
    documents(2),
    documents(3),
    column(4),
    column(5),
    column(6),
    column(7),
    column(8),
    batch[0]![STORES_VALUE],
    column(10),
    column(11),
    column(12),
  ];
}

/**
 * Taxed upserts of distinct orders by one writer in one statement, with `followUp`'s writes for all of them (a follow-up
 * reads the stored orders' rows, so it serves a batch as it serves one order). Named per follow-up.
 */
export function upsertBatchStatement(
  batch: ReadonlyArray<readonly unknown[]>,
  followUp?: UpsertFollowUp,
): BuiltStatement<UpsertedRow & { order_id: string }> {
  const values = upsertBatchValues(batch);
  if (!followUp) return { statement: UPSERT_BATCH, values };
  const items = followUp.withItems(UPSERTED, bindTo(values));
  return {
    statement: sql(
      `order-upsert-batch+${followUp.name}`,
      `WITH upserted AS (${UPSERT_BATCH_SQL}), ${items}
  SELECT order_id, id, status, created_at, updated_at, webhook_attempts, webhook_id FROM upserted`,
      BATCH_UPSERTED_COLUMNS,
    ),
    values,
  };
}

/** A taxed upsert's values (as `upsert` builds them), its follow-up, and what it must share a statement with (`upsertGroup`). */
interface TaxedUpsert {
  values: unknown[];
  followUp: UpsertFollowUp | undefined;
  group: string;
}

/** Documents above this many characters go in a statement of their own: the orders beside them would wait for their parsing. */
const SHARED_STATEMENT_MAX_CHARS = 256 * 1024;

/**
 * What upserts sharing a statement must share: the writer's stores (a parameter of the guard) and the follow-up's text
 * and values. A large order (up to `ORDER_MAX_LINES`, about 1 MB) is a group of its own.
 */
function upsertGroup(values: readonly unknown[], followUp: UpsertFollowUp | undefined): string {
  const size = (values[2] as string).length + (values[3] as string).length;
  if (size > SHARED_STATEMENT_MAX_CHARS) return `alone:${values[0] as string}`;
  const bound: unknown[] = [];
  const followUpText = followUp ? `${followUp.name}:${followUp.withItems(UPSERTED, bindTo(bound))}` : '';
  return JSON.stringify([values[STORES_VALUE], followUpText, bound]);
}

const UPSERTED: UpsertedOrderRelation = { relation: 'upserted', id: 'upserted.id', webhookId: 'upserted.webhook_id' };

/**
 * A taxed upsert with `followUp`'s writes in the same statement (one round trip, one transaction), for a new order
 * and a re-send alike: the follow-up reads the stored order's id and `webhook-id` from the upsert's own row, and writes
 * nothing when the upsert changed nothing. Named per follow-up (its text is the same every time).
 */
export function upsertWithFollowUpStatement(values: unknown[], followUp: UpsertFollowUp): BuiltStatement<UpsertedRow> {
  const all = [...values];
  const items = followUp.withItems(UPSERTED, bindTo(all));
  return {
    statement: sql(
      `order-upsert+${followUp.name}`,
      `WITH upserted AS (${TAXED_UPSERT_SQL}), ${items}
  SELECT id, status, created_at, updated_at, webhook_attempts, webhook_id FROM upserted`,
      UPSERTED_COLUMNS,
    ),
    values: all,
  };
}

export const STORED_STATE = sql<{
  store_id: string | null;
  taxed: boolean;
  transferred: boolean;
  fiscal_group_id: string | null;
  status: OrderStatus;
  tax_instant: Date | null;
}>(
  'order-stored-state',
  `SELECT o.store_id, o.enriched_payload IS NOT NULL AS taxed, ${TRANSFERRED} AS transferred, o.fiscal_group_id, o.status, o.tax_instant
   FROM orders o WHERE o.order_id = $1`,
  { store_id: true, taxed: true, transferred: true, fiscal_group_id: true, status: true, tax_instant: true },
);

/**
 * The platform retries its new-order webhook: one statement that does nothing when the
 * `order_id` is already stored (whatever its status by then: a repeat never resets an order
 * that moved on). The label goes to the history trigger through a transaction-local setting.
 */
export const INSERT_IF_ABSENT = sql<{ id: string }>(
  'order-insert-if-absent',
  `INSERT INTO orders (order_id, status, payload, store_id, source, last_changed_by, last_changed_via, intake_client_id, personal_data_keys)
   SELECT $1, $2, $3::jsonb, $4, $5, $6, $7, ${intakeClientOf('$9', '$6::varchar')}, string_to_array($10::text, ' ')
   FROM (SELECT set_config('app.status_label', $8, true), set_config('app.status_extra', '', true)) AS note
   ON CONFLICT (order_id) DO NOTHING
   RETURNING id`,
  { id: true },
);

export const LOCK = sql<{
  id: string;
  order_id: string;
  status: OrderStatus;
  store_id: string | null;
  payload: Record<string, unknown>;
  enriched_payload: Record<string, unknown> | null;
  fiscal_group_id: string | null;
  tax_instant: Date | null;
}>(
  'order-lock',
  `SELECT id, order_id, status, store_id, payload, enriched_payload, fiscal_group_id, tax_instant FROM orders
   WHERE order_id = $1 AND ($2::text[] IS NULL OR store_id = ANY($2::text[])) FOR UPDATE`,
  {
    id: true,
    order_id: true,
    status: true,
    store_id: true,
    payload: true,
    enriched_payload: true,
    fiscal_group_id: true,
    tax_instant: true,
  },
);

/**
 * Moves aside the order that a store-limited client stored first under another store than `$2` (`SQUATTED_FOR`), so that
 * the platform's order can take its id in the same transaction: it becomes `<orderId>#moved-<n>` (the first free n),
 * `REJECTED`, with its history, tracking and every child row (they refer to its `id`, which stays). Locked first, so a
 * send of the same order waits for the transaction's end.
 */
export const TAKE_ORDER_ID = sql<{
  moved_order_id: string;
  previous_status: OrderStatus;
  store_id: string | null;
  intake_client_id: string;
}>(
  'order-take-order-id',
  `WITH squatted AS (
     SELECT o.id, o.status, o.store_id, o.intake_client_id FROM orders o WHERE o.order_id = $1 AND ${SQUATTED_FOR('$2::varchar')}
     FOR UPDATE
   ), slot AS (
     SELECT $1 || '#moved-' || n AS moved_order_id FROM generate_series(1, 1000000) AS n
     WHERE NOT EXISTS (SELECT 1 FROM orders m WHERE m.order_id = $1 || '#moved-' || n) LIMIT 1
   )
   UPDATE orders o SET order_id = slot.moved_order_id, status = 'REJECTED', last_changed_by = $3, last_changed_via = $4,
     updated_at = now()
   FROM squatted, slot, (SELECT set_config('app.status_label', '', true), set_config('app.status_extra', '', true)) AS note
   WHERE o.id = squatted.id
   RETURNING slot.moved_order_id, squatted.status AS previous_status, squatted.store_id, squatted.intake_client_id`,
  { moved_order_id: true, previous_status: true, store_id: true, intake_client_id: true },
);

/** The label and the body's other properties reach the history trigger through transaction-local settings, always set. */
export const SET_STATUS = sql(
  'order-set-status',
  `UPDATE orders SET status = $2, last_changed_by = $3, last_changed_via = $4, updated_at = now()
   FROM (SELECT set_config('app.status_label', $5, true), set_config('app.status_extra', $6, true)) AS note
   WHERE id = $1`,
);

// A re-taxed payload is a new message: its `webhook-id` goes back to the hash of its canonical JSON (null). A re-tax
// (`$8`, taxed at `$9`) is stored only with the revision in force at that instant, as the upsert's (`revisionGuard`).
export const MOVE_STORE = sql<{ id: string }>(
  'order-move-store',
  `UPDATE orders SET store_id = $2, payload = $3::jsonb, enriched_payload = $4::jsonb, fiscal_group_id = $5,
     last_changed_by = $6, last_changed_via = $7, updated_at = now(), transferred_at = now(),
     webhook_id = CASE WHEN $4::jsonb IS NOT DISTINCT FROM enriched_payload THEN webhook_id END,
     fiscal_group_revision = CASE WHEN $5::uuid IS NOT DISTINCT FROM fiscal_group_id THEN fiscal_group_revision ELSE $8 END
   WHERE id = $1
     AND ($5::uuid IS NOT DISTINCT FROM fiscal_group_id OR $8::integer IS NULL OR fiscal_revision_taxes_at($5::uuid, $9::timestamptz, $8::integer))
   RETURNING id`,
  { id: true },
);

/** See TaxedOrders (src/fiscal-groups/taxed-orders.port.ts); read through `ix_orders_dated_ahead`. */
export const REVISIONS_NAMED_FROM = sql<{ revision: number }>(
  'order-revisions-named-from',
  `SELECT DISTINCT fiscal_group_revision AS revision FROM orders
   WHERE fiscal_group_id = $1 AND tax_instant > created_at AND tax_instant >= $2 AND fiscal_group_revision IS NOT NULL`,
  { revision: true },
);
export const LATEST_TAX_INSTANT_AHEAD = sql<{ latest: Date | null }>(
  'order-latest-tax-instant-ahead',
  `SELECT max(tax_instant) AS latest FROM orders WHERE fiscal_group_id = $1 AND tax_instant > created_at`,
  { latest: true },
);

// One transaction: the fragment fold finds the fold lock that fold_order_counts() took (or skips with it).
export const FOLD_COUNTS = sql<{ folded: string }>(
  'order-fold-counts',
  'SELECT fold_order_counts() + fold_order_id_fragment_counts() AS folded',
  { folded: true },
);

// Rewriting the payload fires the trigger that measures it; rows a writer holds are left for a later batch.
export const MEASURE_PAYLOADS = sql<{ id: string }>(
  'order-measure-payloads',
  `WITH batch AS (SELECT id FROM orders WHERE payload_bytes IS NULL LIMIT $1 FOR UPDATE SKIP LOCKED)
   UPDATE orders o SET payload = o.payload FROM batch WHERE o.id = batch.id RETURNING o.id`,
  { id: true },
);
export const UNMEASURED_PAYLOADS = sql<{ unmeasured: string }>(
  'order-unmeasured-payloads',
  'SELECT count(*) AS unmeasured FROM orders WHERE payload_bytes IS NULL',
  { unmeasured: true },
);

/** An order holding a person's data, as the personal-data lookup and erasure read it. */
export interface PersonalDataHolder {
  id: string;
  orderId: string;
  status: OrderStatus;
  createdAt: Date;
  payload: Record<string, unknown>;
  enrichedPayload: Record<string, unknown> | null;
}

/** A holder locked for its erasure, with what else of the row holds a copy. */
export interface LockedPersonalDataHolder extends PersonalDataHolder {
  keys: string[];
  /** The receiver's last answer (its body may echo the order). */
  webhookLastResponse: WebhookLastResponse | null;
}

type HolderRow = {
  id: string;
  order_id: string;
  status: OrderStatus;
  created_at: Date;
  payload: Record<string, unknown>;
  enriched_payload: Record<string, unknown> | null;
};
const HOLDER_COLUMNS = { id: true, order_id: true, status: true, created_at: true, payload: true, enriched_payload: true } as const;

/*
 * A person's orders are found through `ix_orders_personal_data_keys` first, then sorted and cut. PostgreSQL has no
 * statistics on the values of the keys (each belongs to one person) and guesses about 0.5 % of the orders hold one;
 * with `ORDER BY … LIMIT` on the query itself it then walks the creation (or primary key) index backwards and checks
 * every order, the whole table for a person with a few orders. The materialized holders cannot be planned that way.
 */

/** A person's orders through `ix_orders_personal_data_keys`, newest first: never a scan of the payloads. */
export const PERSONAL_DATA_HOLDERS = sql<HolderRow>(
  'order-personal-data-holders',
  `WITH holders AS MATERIALIZED (SELECT id FROM orders WHERE personal_data_keys @> ARRAY[$1::text])
   SELECT o.id, o.order_id, o.status, o.created_at, o.payload, o.enriched_payload
   FROM holders JOIN orders o ON o.id = holders.id
   ORDER BY o.created_at DESC, o.id DESC LIMIT $2`,
  HOLDER_COLUMNS,
);

/** The ids of a person's orders (the erasure's work list, each order then erased in a transaction of its own). */
export const PERSONAL_DATA_HOLDER_IDS = sql<{ id: string }>(
  'order-personal-data-holder-ids',
  `WITH holders AS MATERIALIZED (SELECT id FROM orders WHERE personal_data_keys @> ARRAY[$1::text])
   SELECT id FROM holders ORDER BY id LIMIT $2`,
  { id: true },
);

/** Orders stored before `$1` that still hold personal data, oldest first (`ix_orders_personal_data_held`). */
export const PERSONAL_DATA_PAST_RETENTION = sql<{ id: string }>(
  'order-personal-data-past-retention',
  `SELECT id FROM orders WHERE personal_data_erased_at IS NULL AND created_at < $1 ORDER BY created_at LIMIT $2`,
  { id: true },
);

/** Orders stored before lookup keys were kept, locked for the backfill (rows a writer holds are left for a later batch). */
export const UNKEYED_ORDERS = sql<{ id: string; payload: Record<string, unknown> }>(
  'order-unkeyed-personal-data',
  `SELECT id, payload FROM orders WHERE personal_data_keys IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED`,
  { id: true, payload: true },
);

/** Their keys, each order's space-separated (`$2[i]` for `$1[i]`). */
export const SET_PERSONAL_DATA_KEYS = sql(
  'order-set-personal-data-keys',
  `UPDATE orders o SET personal_data_keys = string_to_array(k.keys, ' ')
   FROM unnest($1::uuid[], $2::text[]) AS k(id, keys) WHERE o.id = k.id AND o.personal_data_keys IS NULL`,
);

export const UNKEYED_COUNT = sql<{ unkeyed: string }>(
  'order-unkeyed-personal-data-count',
  'SELECT count(*) AS unkeyed FROM orders WHERE personal_data_keys IS NULL',
  { unkeyed: true },
);

/** One order locked for an erasure: nobody writes it until the erasure's transaction ends. */
export const LOCK_PERSONAL_DATA_HOLDER = sql<
  HolderRow & { personal_data_keys: string[] | null; webhook_last_response: WebhookLastResponse | null }
>(
  'order-lock-personal-data-holder',
  `SELECT id, order_id, status, created_at, payload, enriched_payload, personal_data_keys, webhook_last_response FROM orders
   WHERE id = $1 FOR UPDATE`,
  { ...HOLDER_COLUMNS, personal_data_keys: true, webhook_last_response: true },
);

/**
 * Orders locked for an erasure of several at once (the retention job), in id order so that two such batches never wait
 * on each other crosswise; an order erased meanwhile is left out.
 */
export const LOCK_PERSONAL_DATA_HOLDERS = sql<
  HolderRow & { personal_data_keys: string[] | null; webhook_last_response: WebhookLastResponse | null }
>(
  'order-lock-personal-data-holders',
  `SELECT id, order_id, status, created_at, payload, enriched_payload, personal_data_keys, webhook_last_response FROM orders
   WHERE id = ANY($1::uuid[]) AND personal_data_erased_at IS NULL ORDER BY id FOR UPDATE`,
  { ...HOLDER_COLUMNS, personal_data_keys: true, webhook_last_response: true },
);

/** ERASE_PERSONAL_DATA for several orders in one statement (`$2[i]`, `$3[i]`, `$4[i]`: the documents of `$1[i]`). */
export const ERASE_PERSONAL_DATA_OF_MANY = sql(
  'order-erase-personal-data-of-many',
  `UPDATE orders o SET payload = e.payload::jsonb, enriched_payload = e.enriched::jsonb, webhook_last_response = e.last::jsonb,
     personal_data_keys = '{}', personal_data_erased_at = now()
   FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[]) AS e(id, payload, enriched, last) WHERE o.id = e.id`,
);

/**
 * An order's documents with its personal data erased: only the payloads change (no status, no history row: the
 * status-history trigger fires on status changes only); its lookup keys go, and the erasure's instant is kept.
 */
export const ERASE_PERSONAL_DATA = sql(
  'order-erase-personal-data',
  `UPDATE orders SET payload = $2::jsonb, enriched_payload = $3::jsonb, webhook_last_response = $4::jsonb, personal_data_keys = '{}',
     personal_data_erased_at = now()
   WHERE id = $1`,
);

function holderOf(row: HolderRow): PersonalDataHolder {
  return {
    id: row.id,
    orderId: row.order_id,
    status: row.status,
    createdAt: row.created_at,
    payload: row.payload,
    enrichedPayload: row.enriched_payload,
  };
}

/** An upsert's values, in the order of `upsertOrderSql`'s parameters. */
function upsertValues(order: OrderUpsert, actor: Actor): unknown[] {
  const untaxed = order.enrichedPayloadJson === null;
  return [
    order.orderId,
    order.status,
    order.payloadJson,
    order.enrichedPayloadJson,
    order.storeId,
    order.source,
    order.fiscalGroupId,
    actor.clientId,
    actor.via,
    actor.stores ?? null,
    // Each stored enrichment is a new webhook message with a new id ("One message, one id" in docs/webhook-retries.md).
    untaxed ? (order.taxInstant ?? new Date()) : newWebhookId(),
    order.personalDataKeys,
    untaxed ? null : (order.webhookOutboxInMs ?? null),
  ];
}

function upsertedOrderOf(row: UpsertedRow): UpsertedOrder {
  return {
    id: row.id,
    status: row.status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    webhookAttempts: row.webhook_attempts,
    webhookId: row.webhook_id,
  };
}

/**
 * The owner of the `orders` table and its status history: the order row's writes (the order path,
 * fulfillment, status changes) and its upkeep (counters, payload sizes). Its reads for the admin
 * routes are in OrderReadsRepository, forwarding's in OrderForwardingRepository, the dashboard's
 * in OrderStatsRepository.
 */
@Injectable()
export class OrdersRepository implements TaxedOrders {
  /**
   * Taxed upserts by group commit: under load, the orders of concurrent requests share a statement and a commit, about
   * a third less of PostgreSQL's CPU per order (docs/performance.md, "Orders stored together"). Two statements at a
   * time, so that one waits while the other runs, of at most 8 orders (larger batches lengthened the latency's tail);
   * orders share one when their writer's stores and their follow-up's values are the same, and a send of an orderId
   * that a statement under way holds waits until it has committed (two sends of an order are stored in the order they came).
   */
  private readonly taxedUpserts: GroupCommit<TaxedUpsert, UpsertedRow | undefined>;

  constructor(private readonly db: SqlRunner) {
    this.taxedUpserts = new GroupCommit(
      { maxBatch: 8, maxInFlight: 2, groupOf: (upsert) => upsert.group, keyOf: (upsert) => upsert.values[0] as string },
      { writeBatch: (batch) => this.upsertBatch(batch), writeOne: (upsert) => this.upsertOne(upsert) },
    );
  }

  /**
   * Stores the order, or returns null when the stored order must not be overwritten by it (see `upsertOrderSql`).
   * With `followUp` (taxed orders only), its writes commit in the same statement (see `upsertWithFollowUpStatement`).
   */
  async upsert(order: OrderUpsert, actor: Actor, followUp?: UpsertFollowUp): Promise<UpsertedOrder | null> {
    const untaxed = order.enrichedPayloadJson === null;
    const values = upsertValues(order, actor);
    const row = untaxed
      ? await this.db.row(UPSERT_UNTAXED, values)
      : await this.taxedUpserts.submit({ values, followUp, group: upsertGroup(values, followUp) });
    return row ? upsertedOrderOf(row) : null;
  }

  /** The same upsert in `manager`'s transaction, alone (outside the group commit): after `moveSquattedOrder`. */
  async upsertIn(manager: EntityManager, order: OrderUpsert, actor: Actor, followUp?: UpsertFollowUp): Promise<UpsertedOrder | null> {
    const values = upsertValues(order, actor);
    if (order.enrichedPayloadJson === null) {
      const row = await this.db.row(UPSERT_UNTAXED, values, manager);
      return row ? upsertedOrderOf(row) : null;
    }
    const { statement, values: all } = followUp ? upsertWithFollowUpStatement(values, followUp) : { statement: UPSERT, values };
    const row = await this.db.row(statement, all, manager);
    return row ? upsertedOrderOf(row) : null;
  }

  /** Under `manager`: moves aside the order a store-limited client stored first as `orderId` under another store than `storeId`. */
  async moveSquattedOrder(manager: EntityManager, orderId: string, storeId: string | null, actor: Actor): Promise<MovedOrder | undefined> {
    const row = await this.db.row(TAKE_ORDER_ID, [orderId, storeId, actor.clientId, actor.via], manager);
    return row
      ? {
          movedOrderId: row.moved_order_id,
          previousStatus: row.previous_status,
          storeId: row.store_id,
          intakeClientId: row.intake_client_id,
        }
      : undefined;
  }

  /** Alone: the upsert's own statement, with the follow-up's items when there is one. */
  private async upsertOne({ values, followUp }: TaxedUpsert): Promise<UpsertedRow | undefined> {
    if (!followUp) return this.db.row(UPSERT, values);
    const { statement, values: all } = upsertWithFollowUpStatement(values, followUp);
    return this.db.row(statement, all);
  }

  /** Distinct orders of one writer with the same follow-up: one statement; each one's row, or undefined where the guard held it back. */
  private async upsertBatch(batch: readonly TaxedUpsert[]): Promise<Array<UpsertedRow | undefined>> {
    const { statement, values } = upsertBatchStatement(
      batch.map((upsert) => upsert.values),
      batch[0]!.followUp,
    );
    const stored = new Map((await this.db.rows(statement, values)).map((row) => [row.order_id, row]));
    return batch.map((upsert) => stored.get(upsert.values[0] as string));
  }

  /** The orders holding a personal-data lookup key, newest first, at most `limit` (docs/personal-data.md). */
  async personalDataHolders(key: string, limit: number): Promise<PersonalDataHolder[]> {
    return (await this.db.rows(PERSONAL_DATA_HOLDERS, [key, limit])).map(holderOf);
  }

  /** The ids of at most `limit` orders still holding the key. */
  async personalDataHolderIds(key: string, limit: number): Promise<string[]> {
    return (await this.db.rows(PERSONAL_DATA_HOLDER_IDS, [key, limit])).map((row) => row.id);
  }

  /**
   * One backfill batch in `manager`'s transaction: at most `limit` orders without lookup keys, locked, given the keys
   * `keysOf` makes of their payload; how many.
   */
  async fillPersonalDataKeys(manager: EntityManager, limit: number, keysOf: (payload: Record<string, unknown>) => string): Promise<number> {
    const rows = await this.db.rows(UNKEYED_ORDERS, [limit], manager);
    if (rows.length === 0) return 0;
    await this.db.rows(SET_PERSONAL_DATA_KEYS, [rows.map((row) => row.id), rows.map((row) => keysOf(row.payload))], manager);
    return rows.length;
  }

  /** Orders still without lookup keys (the backfill's progress). */
  async unkeyedCount(): Promise<number> {
    return Number((await this.db.row(UNKEYED_COUNT, []))?.unkeyed ?? 0);
  }

  /** The ids of at most `limit` orders stored before `before` that still hold personal data, oldest first. */
  async personalDataPastRetention(before: Date, limit: number): Promise<string[]> {
    return (await this.db.rows(PERSONAL_DATA_PAST_RETENTION, [before, limit])).map((row) => row.id);
  }

  /** The order, locked in `manager`'s transaction, with its lookup keys; undefined when it is gone. */
  async lockPersonalDataHolder(manager: EntityManager, id: string): Promise<LockedPersonalDataHolder | undefined> {
    const row = await this.db.row(LOCK_PERSONAL_DATA_HOLDER, [id], manager);
    return row ? { ...holderOf(row), keys: row.personal_data_keys ?? [], webhookLastResponse: row.webhook_last_response } : undefined;
  }

  /** The orders of `ids` still holding personal data, locked in `manager`'s transaction, with their lookup keys. */
  async lockPersonalDataHolders(manager: EntityManager, ids: readonly string[]): Promise<LockedPersonalDataHolder[]> {
    return (await this.db.rows(LOCK_PERSONAL_DATA_HOLDERS, [ids], manager)).map((row) => ({
      ...holderOf(row),
      keys: row.personal_data_keys ?? [],
      webhookLastResponse: row.webhook_last_response,
    }));
  }

  /** Stores the erased documents of several orders in one statement of `manager`'s transaction (after `lockPersonalDataHolders`). */
  async storeErasedDocumentsOfMany(
    manager: EntityManager,
    erased: ReadonlyArray<Pick<LockedPersonalDataHolder, 'id' | 'payload' | 'enrichedPayload' | 'webhookLastResponse'>>,
  ): Promise<void> {
    const json = (document: unknown) => (document === null ? null : JSON.stringify(document));
    await this.db.rows(
      ERASE_PERSONAL_DATA_OF_MANY,
      [
        erased.map((order) => order.id),
        erased.map((order) => json(order.payload)),
        erased.map((order) => json(order.enrichedPayload)),
        erased.map((order) => json(order.webhookLastResponse)),
      ],
      manager,
    );
  }

  /** Stores the order's erased documents in `manager`'s transaction (after `lockPersonalDataHolder`). */
  async storeErasedDocuments(
    manager: EntityManager,
    id: string,
    erased: Pick<LockedPersonalDataHolder, 'payload' | 'enrichedPayload' | 'webhookLastResponse'>,
  ): Promise<void> {
    const json = (document: unknown) => (document === null ? null : JSON.stringify(document));
    await this.db.rows(
      ERASE_PERSONAL_DATA,
      [id, json(erased.payload), json(erased.enrichedPayload), json(erased.webhookLastResponse)],
      manager,
    );
  }

  async storedState(orderId: string): Promise<StoredOrderState | undefined> {
    const row = await this.db.row(STORED_STATE, [orderId]);
    return row
      ? {
          storeId: row.store_id,
          taxed: row.taxed,
          transferred: row.transferred,
          fiscalGroupId: row.fiscal_group_id,
          status: row.status,
          taxInstant: row.tax_instant,
        }
      : undefined;
  }

  /** Whether the order was new (false when its `orderId` was already stored); in `manager`'s transaction when given. */
  async insertIfAbsent(order: NewOrderInsert, actor: Actor, manager?: EntityManager): Promise<boolean> {
    const rows = await this.db.rows(
      INSERT_IF_ABSENT,
      [
        order.orderId,
        order.status,
        JSON.stringify(order.payload),
        order.storeId,
        order.source,
        actor.clientId,
        actor.via,
        order.label ?? '',
        actor.stores ?? null,
        order.personalDataKeys,
      ],
      manager,
    );
    return rows.length > 0;
  }

  /**
   * The order with this `orderId` (compared as text), locked in `manager`'s transaction; 404 when
   * there is none, and the same 404 when its store is not one of `stores` (null: every store), so
   * that a store-limited client learns nothing of other stores' orders.
   */
  async lock(manager: EntityManager, orderId: string, stores: readonly string[] | null = null): Promise<LockedOrder> {
    const row = await this.db.row(LOCK, [orderId, stores], manager);
    if (!row) throw ApiError.notFound(`Order ${orderId} not found`);
    return {
      id: row.id,
      orderId: row.order_id,
      status: row.status,
      storeId: row.store_id,
      payload: row.payload,
      enrichedPayload: row.enriched_payload,
      fiscalGroupId: row.fiscal_group_id,
      taxInstant: row.tax_instant,
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

  /**
   * Moves a locked order to another store (a transfer): it keeps that store from now on. False, nothing changed, when
   * the re-tax's revision is not the one in force at its tax instant (the caller reads the revisions again).
   */
  async moveStore(manager: EntityManager, order: LockedOrder, move: StoreMove, actor: Actor): Promise<boolean> {
    const moved = await this.db.rows(
      MOVE_STORE,
      [
        order.id,
        move.storeId,
        JSON.stringify(move.payload),
        move.enrichedPayload === null ? null : JSON.stringify(move.enrichedPayload),
        move.fiscalGroupId,
        actor.clientId,
        actor.via,
        move.fiscalGroupRevision,
        move.taxInstant,
      ],
      manager,
    );
    return moved.length > 0;
  }

  async revisionsNamedFrom(manager: EntityManager, groupId: string, from: Date): Promise<Set<number>> {
    return new Set((await this.db.rows(REVISIONS_NAMED_FROM, [groupId, from], manager)).map((row) => row.revision));
  }

  async latestTaxInstantAhead(manager: EntityManager, groupId: string): Promise<Date | null> {
    return (await this.db.row(LATEST_TAX_INSTANT_AHEAD, [groupId], manager))?.latest ?? null;
  }

  /** Moves the counters' deltas into the per-day, per-hour and per-orderId-fragment totals (see OrderCountFolder); how many delta rows moved. */
  async foldCounts(): Promise<number> {
    return Number((await this.db.row(FOLD_COUNTS))?.folded ?? 0);
  }

  /** Measures up to `limit` orders stored before `payload_bytes` existed (see OrderPayloadMeasurer); how many. */
  async measurePayloads(limit: number): Promise<number> {
    return (await this.db.rows(MEASURE_PAYLOADS, [limit])).length;
  }

  /** How many stored orders are still to be measured. */
  async unmeasuredPayloads(): Promise<number> {
    return Number((await this.db.row(UNMEASURED_PAYLOADS))?.unmeasured ?? 0);
  }
}
