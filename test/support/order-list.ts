import { ok, type QueryOf } from './api.js';
import { bootTestApp, type TestApp } from './test-app.js';

export type OrderListQuery = QueryOf<'/api/admin/orders'>;

/** The admin order list; `/admin/orders/{id}` is the detail. */
export const LIST = '/admin/orders';

export interface Fixture {
  orderId: string;
  storeId: string | null;
  source: string | null;
  status: string;
  attempts: number;
  /** Exactly as stored: RFC 3339 UTC with microseconds. */
  createdAt: string;
}

// Chosen so that every filter separates them: literal %, _ and \ in ids, equal createdAt (6 and 7),
// instants one microsecond and one millisecond apart, and several days for the day counters.
export const FIXTURES: Fixture[] = [
  {
    orderId: 'IFD-AAA111',
    storeId: 'store-a',
    source: 'ifood',
    status: 'DELIVERED',
    attempts: 1,
    createdAt: '2026-03-01T10:00:00.000000Z',
  },
  {
    orderId: 'IFD-aaa222',
    storeId: 'store-a',
    source: 'ifood',
    status: 'CANCELLED',
    attempts: 0,
    createdAt: '2026-03-01T23:59:59.999999Z',
  },
  {
    orderId: 'RAP-BBB333',
    storeId: 'store-b',
    source: 'rappi',
    status: 'DELIVERED',
    attempts: 3,
    createdAt: '2026-03-02T00:00:00.000000Z',
  },
  {
    orderId: 'RAP-50%OFF',
    storeId: 'store-b',
    source: 'rappi',
    status: 'FORWARD_FAILED',
    attempts: 5,
    createdAt: '2026-03-02T12:00:00.123456Z',
  },
  {
    orderId: 'RAP-50XOFF',
    storeId: 'store-b',
    source: 'rappi',
    status: 'FORWARDED',
    attempts: 1,
    createdAt: '2026-03-02T12:00:00.123457Z',
  },
  { orderId: 'WEB-A_B', storeId: 'store-c', source: 'site', status: 'DELIVERED', attempts: 2, createdAt: '2026-03-03T08:00:00.000000Z' },
  { orderId: 'WEB-AXB', storeId: 'store-c', source: 'site', status: 'DELIVERED', attempts: 2, createdAt: '2026-03-03T08:00:00.000000Z' },
  { orderId: 'WEB-C\\D', storeId: 'store-c', source: 'site', status: 'REJECTED', attempts: 7, createdAt: '2026-03-03T09:00:00.000000Z' },
  { orderId: 'WEB-CD', storeId: 'store-a', source: 'site', status: 'ENRICHED', attempts: 0, createdAt: '2026-03-04T00:00:00.000000Z' },
  { orderId: 'MS-BEFORE', storeId: 'store-d', source: null, status: 'RECEIVED', attempts: 0, createdAt: '2026-03-05T09:59:59.999000Z' },
  { orderId: 'MS-FROM', storeId: 'store-d', source: null, status: 'RECEIVED', attempts: 0, createdAt: '2026-03-05T10:00:00.000000Z' },
  { orderId: 'MS-TO', storeId: 'store-d', source: null, status: 'RECEIVED', attempts: 0, createdAt: '2026-03-05T11:00:00.000000Z' },
  { orderId: 'MS-AFTER', storeId: null, source: null, status: 'RECEIVED', attempts: 0, createdAt: '2026-03-05T11:00:00.001000Z' },
];

/**
 * Inserts an order row as the service stores it (the status history trigger records its first status).
 * Raw SQL on purpose: the fixtures' createdAt carry microseconds, which a JavaScript Date (and so the entity) cannot.
 */
export async function insertOrder(t: TestApp, fixture: Fixture): Promise<string> {
  const [row] = await t.dataSource.query<Array<{ id: string }>>(
    `INSERT INTO orders (order_id, status, payload, enriched_payload, webhook_attempts, store_id, source, webhook_last_response,
                         last_changed_by, last_changed_via, created_at, updated_at)
     VALUES ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8::jsonb, '1001', 'test fixture', $9::timestamptz, $9::timestamptz)
     RETURNING id`,
    [
      fixture.orderId,
      fixture.status,
      JSON.stringify({ orderId: fixture.orderId, source: fixture.source, store: { id: fixture.storeId } }),
      fixture.status === 'RECEIVED' ? null : JSON.stringify({ orderId: fixture.orderId, taxSummary: { totals: { total_tax: 1.5 } } }),
      fixture.attempts,
      fixture.storeId,
      fixture.source,
      fixture.attempts === 0
        ? null
        : JSON.stringify({ statusCode: 200, body: 'ok', durationMs: 12, error: null, attemptedAt: fixture.createdAt }),
      fixture.createdAt,
    ],
  );
  return row!.id;
}

export interface OrderListApp {
  t: TestApp;
  /** A token with the scope admin. */
  admin: string;
  /** orderId -> internal id of every fixture. */
  ids: Map<string, string>;
}

/** An app whose database holds exactly FIXTURES. */
export async function bootOrderListApp(): Promise<OrderListApp> {
  const t = await bootTestApp();
  const admin = await t.tokenFor(['admin']);
  const ids = new Map<string, string>();
  for (const fixture of FIXTURES) ids.set(fixture.orderId, await insertOrder(t, fixture));
  return { t, admin, ids };
}

/** The calls the tests repeat. `app` is called when a step runs, so the steps can be made at collection time. */
export function orderListSteps(app: () => OrderListApp) {
  return {
    /** The typed call: its `response`, and `data` or `error`. */
    list: (query: OrderListQuery = {}) => app().t.apiAs(app().admin).GET('/api/admin/orders', { params: { query } }),
    /** The page of a list call that must succeed. */
    page: async (query: OrderListQuery = {}) => ok(await app().t.apiAs(app().admin).GET('/api/admin/orders', { params: { query } }), 200),
    orderIds: (body: { items: Array<{ orderId: string }> }) => body.items.map((item) => item.orderId),
    /** The fixtures in the list's order: createdAt desc, then id desc (uuid order is the order of its lowercase text). */
    expected(keep: (fixture: Fixture) => boolean): string[] {
      const { ids } = app();
      return FIXTURES.filter(keep)
        .sort((a, b) =>
          a.createdAt === b.createdAt ? (ids.get(a.orderId)! < ids.get(b.orderId)! ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
        )
        .map((fixture) => fixture.orderId);
    },
    insert: (fixture: Fixture) => insertOrder(app().t, fixture),
  };
}
