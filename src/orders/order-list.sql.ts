import { isoUtc, jsonObjectSql } from '../database/sql-json.js';
import type { PersistedOrderDto } from './dto/persisted-order.dto.js';
import { ORDER_DETAIL_MAX_BYTES, ORDER_LIST_ITEM_MAX_BYTES, ORDER_LIST_PAGE_MAX_BYTES, PAYLOAD_OMITTED } from './order-size-bounds.js';
import { formatMicrosUtc, formatUtcDay, US_PER_DAY, utcDayOf } from '../common/iso-date-time.js';

/**
 * The SQL of the admin order list, built from a filter set. Pure: the route runs exactly
 * what these functions return, and the query-plan test EXPLAINs the same text.
 *
 * Plans (see migration OrderListIndexes1763760000000):
 * - the page: the ids of the page come from an index-only scan of the index that fits the
 *   filters (its order is `created_at DESC, id DESC`, so no sort, and OFFSET skips index
 *   entries, not heap rows); only the rows of the page are read from the table;
 * - the count: filters on source, status and creation time only are summed from the
 *   per-day counters `order_count_day` + `order_count_delta` (written by a trigger, exact
 *   and transactional), plus index counts of the partial days at the ends of a date range;
 *   an orderId fragment of 1 or 2 characters alone is summed from the per-fragment counters
 *   `order_id_fragment_count` + `order_id_fragment_delta` (migration OrderIdFragmentCounts);
 *   any other filter counts index entries (index-only) or trigram matches.
 */

export interface OrderListFilter {
  storeId?: string;
  source?: string;
  status?: string;
  /** Substring of orderId, case-insensitive, taken literally. */
  orderId?: string;
  /** Inclusive lower bound, microseconds since the epoch (already rounded up to a stored instant). */
  createdFromUs?: bigint;
  /** Inclusive upper bound, microseconds since the epoch (already rounded down to a stored instant). */
  createdToUs?: bigint;
  minWebhookAttempts?: number;
  maxWebhookAttempts?: number;
  /** The search box: orders whose identifier, store or (for an admin) customer is exactly this. */
  search?: OrderSearch;
}

/**
 * What the search box's text finds, each an exact match served by its own index: the orderId (`uq_orders_order_id`),
 * the internal id when the text is a UUID (the primary key), the marketplace's order number
 * (`ix_orders_marketplace_number`), the store (`ix_orders_store_created`) and the customer's personal-data lookup keys
 * (`ix_orders_personal_data_keys`; given for an admin only).
 */
export interface OrderSearch {
  text: string;
  /** The text is a UUID: it may be an internal id. */
  internalId: boolean;
  /** The lookup keys of the customer the text may be; empty for a caller who may not search customers. */
  customerKeys: string[];
}

export interface SqlQuery {
  sql: string;
  params: unknown[];
}

export type CountStrategy = 'counters' | 'orders';

/**
 * A PersistedOrder as JSON, built by PostgreSQL: the stored JSON documents are copied into the
 * response as text instead of being parsed into objects and serialised again by the service.
 * Keys in the order of the spec; dates RFC 3339 UTC with the database's microseconds. With
 * `omitted`, the payloads are null and `payloadOmitted` carries that SQL text.
 */
export function persistedOrderJson(alias: string, omitted?: string): string {
  return jsonObjectSql<PersistedOrderDto>({
    id: `${alias}.id`,
    orderId: `${alias}.order_id`,
    status: `${alias}.status`,
    payload: omitted ? 'NULL' : `${alias}.payload`,
    enrichedPayload: omitted ? 'NULL' : `${alias}.enriched_payload`,
    webhookAttempts: `${alias}.webhook_attempts`,
    storeId: `${alias}.store_id`,
    source: `${alias}.source`,
    marketplaceOrderNumber: `${alias}.marketplace_order_number`,
    webhookLastResponse: `${alias}.webhook_last_response`,
    createdAt: isoUtc(`${alias}.created_at`),
    updatedAt: isoUtc(`${alias}.updated_at`),
    payloadOmitted: omitted,
  });
}

/**
 * The full order as JSON text when its payloads' text is not over `max` bytes, else NULL (never
 * converted). An order not measured yet (stored before `payload_bytes`) is judged by its stored size.
 */
function fullOrderTextWhenStorable(alias: string, max: number): string {
  const stored = `pg_column_size(${alias}.payload) + coalesce(pg_column_size(${alias}.enriched_payload), 0)`;
  return `CASE WHEN coalesce(${alias}.payload_bytes, ${stored}) <= ${max} THEN ${persistedOrderJson(alias)}::text END`;
}

/** One order of the detail, within ORDER_DETAIL_MAX_BYTES: a row `{ persisted }` (json). */
export function orderDetailSelect(alias: string): string {
  return (
    `SELECT CASE WHEN octet_length(built.full_text) <= ${ORDER_DETAIL_MAX_BYTES} THEN built.full_text::json ` +
    `ELSE ${persistedOrderJson(alias, `'${PAYLOAD_OMITTED.detail}'`)} END AS persisted ` +
    `FROM orders ${alias} CROSS JOIN LATERAL (SELECT ${fullOrderTextWhenStorable(alias, ORDER_DETAIL_MAX_BYTES)} AS full_text) AS built`
  );
}

/** `%`, `_` and `\` of a fragment matched literally inside `%...%` (with `ESCAPE '\'`). */
export function containsPattern(fragment: string): string {
  return `%${fragment.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

class Params {
  readonly values: unknown[] = [];
  private readonly byKey = new Map<string, string>();

  /** A placeholder for the value; the same key reuses its placeholder. */
  add(key: string, value: unknown, cast = ''): string {
    let placeholder = this.byKey.get(key);
    if (!placeholder) {
      this.values.push(value);
      placeholder = `$${this.values.length}`;
      this.byKey.set(key, placeholder);
    }
    return `${placeholder}${cast}`;
  }
}

interface CreatedRange {
  /** created_at >= */
  from?: bigint;
  /** created_at <= */
  to?: bigint;
  /** created_at < */
  before?: bigint;
}

function timestamp(params: Params, us: bigint): string {
  return params.add(`ts:${us}`, formatMicrosUtc(us), '::timestamptz');
}

/** The WHERE conditions on `orders` for a filter; the creation-time range is given separately (the count splits it). */
function orderConditions(filter: OrderListFilter, params: Params, range: CreatedRange): string[] {
  const conditions: string[] = [];
  if (filter.storeId !== undefined) conditions.push(`store_id = ${params.add('storeId', filter.storeId)}`);
  if (filter.source !== undefined) conditions.push(`source = ${params.add('source', filter.source)}`);
  if (filter.status !== undefined) conditions.push(`status = ${params.add('status', filter.status)}`);
  if (filter.orderId !== undefined) conditions.push(`order_id ILIKE ${params.add('orderId', containsPattern(filter.orderId))} ESCAPE '\\'`);
  if (filter.search !== undefined) conditions.push(searchCondition(filter.search, params));
  if (range.from !== undefined) conditions.push(`created_at >= ${timestamp(params, range.from)}`);
  if (range.to !== undefined) conditions.push(`created_at <= ${timestamp(params, range.to)}`);
  if (range.before !== undefined) conditions.push(`created_at < ${timestamp(params, range.before)}`);
  if (filter.minWebhookAttempts !== undefined)
    conditions.push(`webhook_attempts >= ${params.add('minWebhookAttempts', filter.minWebhookAttempts, '::integer')}`);
  if (filter.maxWebhookAttempts !== undefined)
    conditions.push(`webhook_attempts <= ${params.add('maxWebhookAttempts', filter.maxWebhookAttempts, '::integer')}`);
  return conditions;
}

/** Any of the search's exact matches: each an index condition, so PostgreSQL ORs their bitmaps. */
function searchCondition(search: OrderSearch, params: Params): string {
  const text = params.add('search', search.text);
  const matches = [`order_id = ${text}`, `marketplace_order_number = ${text}`, `store_id = ${text}`];
  if (search.internalId) matches.push(`id = ${params.add('searchId', search.text, '::uuid')}`);
  if (search.customerKeys.length > 0) matches.push(`personal_data_keys && ${params.add('customerKeys', search.customerKeys, '::text[]')}`);
  return `(${matches.join(' OR ')})`;
}

function where(conditions: string[]): string {
  return conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';
}

/**
 * One page of orders, newest first (`created_at DESC, id DESC`), as one row `{ items }`: the JSON
 * array text, never larger than ORDER_LIST_PAGE_MAX_BYTES plus the orders without payloads.
 */
export function orderPageQuery(filter: OrderListFilter, page: number, pageSize: number): SqlQuery {
  const params = new Params();
  const conditions = orderConditions(filter, params, { from: filter.createdFromUs, to: filter.createdToUs });
  const limit = params.add('limit', pageSize, '::integer');
  const offset = params.add('offset', String((page - 1) * pageSize), '::bigint');
  const newestFirst = 'created_at DESC, id DESC';
  const pageIds = `SELECT id, created_at FROM orders${where(conditions)} ORDER BY ${newestFirst} LIMIT ${limit} OFFSET ${offset}`;
  // Each order's full text when it fits one item. OFFSET 0 keeps the lateral subquery whole: inlined, its
  // expression was evaluated at each use of full_text, converting the payloads to text twice per order.
  const built =
    `SELECT page.id, page.created_at, o.order_id, o.status, o.webhook_attempts, o.store_id, o.source, o.marketplace_order_number, o.webhook_last_response, o.updated_at, ` +
    `CASE WHEN octet_length(full_text) <= ${ORDER_LIST_ITEM_MAX_BYTES} THEN full_text END AS item ` +
    `FROM (${pageIds}) AS page JOIN orders o ON o.id = page.id ` +
    `CROSS JOIN LATERAL (SELECT ${fullOrderTextWhenStorable('o', ORDER_LIST_ITEM_MAX_BYTES)} AS full_text OFFSET 0) AS whole`;
  // The page keeps payloads while the running total fits; the forms without payloads are built only for the orders shown so.
  const withoutPayloads = (omitted: string) => `${persistedOrderJson('sized', `'${omitted}'`)}::text`;
  const sized =
    `SELECT *, sum(coalesce(octet_length(item), octet_length(${persistedOrderJson('built', `'${PAYLOAD_OMITTED.item}'`)}::text))) ` +
    `OVER (ORDER BY ${newestFirst}) AS running_bytes FROM (${built}) AS built`;
  const sql =
    `SELECT coalesce('[' || string_agg(CASE WHEN item IS NULL THEN ${withoutPayloads(PAYLOAD_OMITTED.item)} ` +
    `WHEN running_bytes <= ${ORDER_LIST_PAGE_MAX_BYTES} THEN item ELSE ${withoutPayloads(PAYLOAD_OMITTED.page)} END, ',' ORDER BY ${newestFirst}) || ']', '[]') AS items ` +
    `FROM (${sized}) AS sized`;
  return { sql, params: params.values };
}

/** Filters that the per-day counters can answer: source, status and creation time. */
export function countableFromCounters(filter: OrderListFilter): boolean {
  return (
    filter.storeId === undefined &&
    filter.orderId === undefined &&
    filter.search === undefined &&
    filter.minWebhookAttempts === undefined &&
    filter.maxWebhookAttempts === undefined
  );
}

/**
 * An orderId fragment whose matches the per-fragment counters hold: 1 or 2 ASCII characters. ILIKE looks
 * for lower(fragment) in lower(order_id); lower() keeps an ASCII character one character under every
 * collation, so lower(fragment) is itself one of the counted substrings of 1 or 2 characters.
 */
const COUNTED_FRAGMENT = /^\p{ASCII}{1,2}$/u;

/** The filter is an orderId fragment of 1 or 2 ASCII characters and nothing else. */
export function countableFromFragmentCounters(filter: OrderListFilter): boolean {
  const { orderId, ...others } = filter;
  return orderId !== undefined && COUNTED_FRAGMENT.test(orderId) && Object.values(others).every((value) => value === undefined);
}

/**
 * The exact number of orders matching a filter, as one row `{ total }` (bigint text).
 *
 * With counters: whole UTC days inside the range come from `order_count_day` and the
 * not-yet-folded `order_count_delta`; the partial days at the ends (before the first whole
 * day, after the last one) are counted in `orders` through an index. A range shorter than
 * one whole day is counted in `orders` directly.
 */
export function orderCountQuery(filter: OrderListFilter): SqlQuery & { strategy: CountStrategy } {
  const params = new Params();
  const from = filter.createdFromUs;
  const to = filter.createdToUs;
  // First whole day: the day of `from` if `from` is its midnight, else the next one.
  const firstWholeDay = from === undefined ? undefined : utcDayOf(from) + (from % US_PER_DAY === 0n ? 0n : 1n);
  // Day after the last whole day: the day holding the instant just after `to`.
  const endWholeDay = to === undefined ? undefined : utcDayOf(to + 1n);
  const wholeDays = firstWholeDay === undefined || endWholeDay === undefined || firstWholeDay < endWholeDay;

  if (countableFromFragmentCounters(filter)) {
    // The folded totals by fragment, plus the orders written since the last fold, matched as the list matches them.
    const fragment = params.add('fragment', filter.orderId);
    const pattern = params.add('orderId', containsPattern(filter.orderId!));
    const sql =
      `SELECT (coalesce((SELECT n FROM order_id_fragment_count WHERE fragment = lower(${fragment})), 0) + ` +
      `(SELECT coalesce(sum(n), 0) FROM order_id_fragment_delta WHERE order_id ILIKE ${pattern} ESCAPE '\\'))::bigint AS total`;
    return { sql, params: params.values, strategy: 'counters' };
  }
  if (!countableFromCounters(filter) || !wholeDays) {
    const conditions = orderConditions(filter, params, { from, to });
    return { sql: `SELECT count(*) AS total FROM orders${where(conditions)}`, params: params.values, strategy: 'orders' };
  }

  const counterConditions: string[] = [];
  if (filter.source !== undefined) counterConditions.push(`source = ${params.add('source', filter.source)}`);
  if (filter.status !== undefined) counterConditions.push(`status = ${params.add('status', filter.status)}`);
  if (firstWholeDay !== undefined) counterConditions.push(`day >= ${params.add('firstDay', formatUtcDay(firstWholeDay), '::date')}`);
  if (endWholeDay !== undefined) counterConditions.push(`day < ${params.add('endDay', formatUtcDay(endWholeDay), '::date')}`);
  const parts = [
    `(SELECT coalesce(sum(n), 0) FROM order_count_day${where(counterConditions)})`,
    `(SELECT coalesce(sum(n), 0) FROM order_count_delta${where(counterConditions)})`,
  ];
  if (from !== undefined && firstWholeDay! * US_PER_DAY > from) {
    parts.push(`(SELECT count(*) FROM orders${where(orderConditions(filter, params, { from, before: firstWholeDay! * US_PER_DAY }))})`);
  }
  if (to !== undefined && endWholeDay! * US_PER_DAY <= to) {
    parts.push(`(SELECT count(*) FROM orders${where(orderConditions(filter, params, { from: endWholeDay! * US_PER_DAY, to }))})`);
  }
  return { sql: `SELECT (${parts.join(' + ')})::bigint AS total`, params: params.values, strategy: 'counters' };
}

/** Where the order export stopped: the last order it wrote (the list's order, newest first). */
export interface OrderExportCursor {
  /** `created_at` as microsecond UTC text, as the export's rows carry it. */
  createdAt: string;
  id: string;
}

/**
 * The next `limit` orders of the export of the list's filters, after `cursor`, newest first as the list: a keyset page
 * (the list's index, no OFFSET), so that an export of a million orders reads each index entry once. Each row carries the
 * figures of `taxSummary.totals` as text (null where the order has none).
 */
export function orderExportQuery(filter: OrderListFilter, cursor: OrderExportCursor | undefined, limit: number): SqlQuery {
  const params = new Params();
  const conditions = orderConditions(filter, params, { from: filter.createdFromUs, to: filter.createdToUs });
  if (cursor) {
    conditions.push(
      `(created_at, id) < (${params.add('cursorAt', cursor.createdAt, '::timestamptz')}, ${params.add('cursorId', cursor.id, '::uuid')})`,
    );
  }
  const total = (name: string) => `enriched_payload #>> '{taxSummary,totals,${name}}' AS ${name.toLowerCase()}`;
  const sql =
    `SELECT id, order_id, status, store_id, source, webhook_attempts, fiscal_group_id::text AS fiscal_group_id, ` +
    `${isoUtc('created_at')} AS created_at, enriched_payload #>> '{taxSummary,uf}' AS uf, ` +
    `${['base', 'ICMS_value', 'FCP_value', 'PIS_value', 'COFINS_value', 'total_tax'].map(total).join(', ')} ` +
    `FROM orders${where(conditions)} ORDER BY created_at DESC, id DESC LIMIT ${params.add('limit', limit, '::integer')}`;
  return { sql, params: params.values };
}
