import { FILL_ORDERS_SQL } from '../support/order-fill.js';
import { parseIsoDateTime } from '../../src/common/iso-date-time.js';
import { orderCountQuery, orderPageQuery, type OrderListFilter, type SqlQuery } from '../../src/orders/order-list.sql.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}

const us = (text: string) => parseIsoDateTime(text)! / 1000n;

/**
 * The plans of the exact SQL the list route runs (orderPageQuery / orderCountQuery), on
 * 5,000 generated orders (the bench:orders generator, fixed seed) after VACUUM ANALYZE:
 * each selective filter must be served by its index, never by a sequential scan of orders.
 */
describe('GET /api/admin/orders query plans (e2e)', () => {
  let t: TestApp;
  let storeId: string;
  let fragment: string;
  let day: string;
  let shortNumber: string;

  async function plan(query: SqlQuery): Promise<PlanNode[]> {
    const [row] = await t.dataSource.query<Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>>(
      `EXPLAIN (FORMAT JSON) ${query.sql}`,
      query.params,
    );
    return flatten(row!['QUERY PLAN'][0]!.Plan);
  }

  const onOrders = (nodes: PlanNode[]) => nodes.filter((node) => node['Relation Name'] === 'orders');
  const seqScansOfOrders = (nodes: PlanNode[]) => onOrders(nodes).filter((node) => node['Node Type'] === 'Seq Scan');
  const indexesUsed = (nodes: PlanNode[]) => [...new Set(nodes.flatMap((node) => (node['Index Name'] ? [node['Index Name']] : [])))];

  // Raw SQL throughout: this file is about the database's own plans (the generated fill, its statistics, EXPLAIN).
  beforeAll(async () => {
    t = await bootTestApp();
    await t.dataSource.transaction(async (manager) => {
      await manager.query('SELECT setseed(0.25)');
      await manager.query(FILL_ORDERS_SQL, [1, 5000]);
    });
    await t.dataSource.query('SELECT fold_order_counts() + fold_order_id_fragment_counts()');
    // The iFood orders as the profile stores them, with iFood's short number (4 digits, repeated across orders as iFood's are).
    await t.dataSource.query(
      `UPDATE orders SET payload = payload || jsonb_build_object('sourceOrder', jsonb_build_object('id', order_id, ` +
        `'displayId', lpad((abs(hashtext(order_id)) % 10000)::text, 4, '0'))) WHERE source = 'ifood'`,
    );
    await t.dataSource.query('VACUUM ANALYZE orders');
    [{ store_id: storeId }] = await t.dataSource.query<Array<{ store_id: string }>>(
      `SELECT store_id FROM orders GROUP BY store_id ORDER BY count(*) DESC, store_id LIMIT 1`,
    );
    const [{ order_id: orderId }] = await t.dataSource.query<Array<{ order_id: string }>>(
      `SELECT order_id FROM orders ORDER BY order_id LIMIT 1 OFFSET 2500`,
    );
    fragment = orderId.slice(6, 13).toLowerCase();
    [{ short_number: shortNumber }] = await t.dataSource.query<Array<{ short_number: string }>>(
      `SELECT marketplace_order_number AS short_number FROM orders WHERE marketplace_order_number IS NOT NULL ORDER BY order_id LIMIT 1`,
    );
    [{ day }] = await t.dataSource.query<Array<{ day: string }>>(
      `SELECT to_char((now() - interval '10 days') AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day`,
    );
  }, 120_000);
  afterAll(async () => {
    await t.close();
  });

  type Shape = [
    label: string,
    filter: () => OrderListFilter,
    page: number,
    pageIndexes: string[],
    countIndexes: string[] | 'counters only',
  ];
  const shapes: Shape[] = [
    ['store', () => ({ storeId }), 1, ['ix_orders_store_created'], ['ix_orders_store_created']],
    ['store, deep page', () => ({ storeId }), 2, ['ix_orders_store_created'], ['ix_orders_store_created']],
    ['store + status', () => ({ storeId, status: 'DELIVERED' }), 1, ['ix_orders_store_created'], ['ix_orders_store_created']],
    [
      'store + date range',
      () => ({ storeId, createdFromUs: us(`${day}T00:00:00Z`) - 7n * 86_400_000_000n, createdToUs: us(`${day}T23:59:59.999999Z`) }),
      1,
      ['ix_orders_store_created'],
      ['ix_orders_store_created'],
    ],
    ['orderId fragment (7 characters)', () => ({ orderId: fragment }), 1, ['ix_orders_order_id_trgm'], ['ix_orders_order_id_trgm']],
    [
      'orderId fragment (3 characters) + store',
      () => ({ orderId: fragment.slice(0, 3), storeId }),
      1,
      ['ix_orders_store_created', 'ix_orders_order_id_trgm'],
      ['ix_orders_store_created', 'ix_orders_order_id_trgm'],
    ],
    // Too short for trigrams: the page filters the newest entries of the creation index, which carries
    // order_id; the count sums the per-fragment counters.
    ['orderId fragment (2 characters) alone', () => ({ orderId: fragment.slice(0, 2) }), 1, ['ix_orders_created'], 'counters only'],
    [
      'orderId fragment (1 character) alone, deep page',
      () => ({ orderId: fragment.slice(0, 1) }),
      3,
      ['ix_orders_created'],
      'counters only',
    ],
    // Too short for trigrams: filtered inside the store index, which carries order_id.
    [
      'orderId fragment (2 characters) + store',
      () => ({ orderId: fragment.slice(0, 2), storeId }),
      1,
      ['ix_orders_store_created'],
      ['ix_orders_store_created'],
    ],
    [
      'date range within a day',
      () => ({ createdFromUs: us(`${day}T06:00:00Z`), createdToUs: us(`${day}T18:00:00Z`) }),
      1,
      ['ix_orders_created'],
      ['ix_orders_created'],
    ],
    [
      'date range over whole days with partial ends',
      () => ({ createdFromUs: us(`${day}T06:00:00Z`) - 3n * 86_400_000_000n, createdToUs: us(`${day}T18:00:00Z`) }),
      1,
      ['ix_orders_created'],
      ['ix_orders_created'],
    ],
    [
      'status + date range over whole days',
      () => ({ status: 'CANCELLED', createdFromUs: us(`${day}T06:00:00Z`) - 3n * 86_400_000_000n, createdToUs: us(`${day}T18:00:00Z`) }),
      1,
      ['ix_orders_status_created', 'ix_orders_created'],
      ['ix_orders_status_created'],
    ],
    [
      'webhook attempts >= 3',
      () => ({ minWebhookAttempts: 3 }),
      1,
      ['ix_orders_attempts_created', 'ix_orders_created'],
      ['ix_orders_attempts_created'],
    ],
    [
      'webhook attempts <= 0',
      () => ({ maxWebhookAttempts: 0 }),
      1,
      ['ix_orders_attempts_created', 'ix_orders_created'],
      ['ix_orders_attempts_created'],
    ],
    ['a rare status', () => ({ status: 'REJECTED' }), 1, ['ix_orders_status_created'], 'counters only'],
    ['a rare source, deep page', () => ({ source: 'site' }), 10, ['ix_orders_source_created'], 'counters only'],
    // Page 3 of 5,000 rows skips 0.8 % of the table, as page 500 does of a million.
    ['no filter, deep page', () => ({}), 3, ['ix_orders_created'], 'counters only'],
    ['no filter, first page', () => ({}), 1, ['ix_orders_created'], 'counters only'],
    // The search box: each of its exact matches is an index condition, ORed as bitmaps.
    [
      'search: a marketplace short number',
      () => ({ search: { text: shortNumber, internalId: false, customerKeys: [] } }),
      1,
      ['ix_orders_marketplace_number'],
      ['ix_orders_marketplace_number'],
    ],
    [
      'search: a customer key too (an admin)',
      () => ({ search: { text: shortNumber, internalId: false, customerKeys: ['0123456789abcdef0123456789abcdef'] } }),
      1,
      ['ix_orders_personal_data_keys'],
      ['ix_orders_personal_data_keys'],
    ],
  ];

  it.each(shapes)('%s: served by its index, no sequential scan of orders', async (_label, filter, page, pageIndexes, countIndexes) => {
    const pageNodes = await plan(orderPageQuery(filter(), page, 20));
    expect(seqScansOfOrders(pageNodes)).toEqual([]);
    expect(indexesUsed(pageNodes).filter((index) => pageIndexes.includes(index))).not.toEqual([]);

    const count = orderCountQuery(filter());
    const countNodes = await plan(count);
    expect(seqScansOfOrders(countNodes)).toEqual([]);
    if (countIndexes === 'counters only') {
      expect(count.strategy).toBe('counters');
      expect(onOrders(countNodes)).toEqual([]);
    } else {
      expect(indexesUsed(countNodes).filter((index) => countIndexes.includes(index))).not.toEqual([]);
    }
  });

  it('counts by the route agree with count(*) for every shape', async () => {
    for (const [label, filter] of shapes) {
      const count = orderCountQuery(filter());
      const [{ total }] = await t.dataSource.query<Array<{ total: string }>>(count.sql, count.params);
      // minWebhookAttempts >= 0 holds for every order and forces a plain count(*) over orders.
      const direct = orderCountQuery({ ...filter(), minWebhookAttempts: filter().minWebhookAttempts ?? 0 });
      const [{ total: expected }] = await t.dataSource.query<Array<{ total: string }>>(direct.sql, direct.params);
      expect([label, direct.strategy, Number(total)]).toEqual([label, 'orders', Number(expected)]);
    }
  });
});
