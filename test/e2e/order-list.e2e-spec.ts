import { OrderCountFolder } from '../../src/orders/order-count-folder.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const LIST = '/admin/orders';

interface Fixture {
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
const FIXTURES: Fixture[] = [
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

describe('GET /api/admin/orders and /api/admin/orders/{id} (e2e)', () => {
  let t: TestApp;
  let admin: string;
  /** orderId -> internal id */
  const ids = new Map<string, string>();

  const list = (query: Record<string, string | number | undefined> = {}) => t.http.get(LIST, { token: admin, query });
  const orderIds = (body: { items: Array<{ orderId: string }> }) => body.items.map((item) => item.orderId);

  /** The fixtures in the list's order: createdAt desc, then id desc (uuid order is the order of its lowercase text). */
  function expected(keep: (fixture: Fixture) => boolean): string[] {
    return FIXTURES.filter(keep)
      .sort((a, b) =>
        a.createdAt === b.createdAt ? (ids.get(a.orderId)! < ids.get(b.orderId)! ? 1 : -1) : a.createdAt < b.createdAt ? 1 : -1,
      )
      .map((fixture) => fixture.orderId);
  }

  async function insert(fixture: Fixture): Promise<string> {
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

  beforeAll(async () => {
    t = await bootTestApp();
    admin = await t.tokenFor(['admin']);
    for (const fixture of FIXTURES) ids.set(fixture.orderId, await insert(fixture));
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the list', () => {
    it('returns every order, newest first, in the page envelope with every PersistedOrder field', async () => {
      const response = await list();
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect(Object.keys(response.body).sort()).toEqual(['items', 'page', 'pageSize', 'total', 'totalPages']);
      expect(response.body).toMatchObject({ total: 13, page: 1, pageSize: 20, totalPages: 1 });
      expect(orderIds(response.body)).toEqual(expected(() => true));
      const item = response.body.items.find((order: { orderId: string }) => order.orderId === 'RAP-50%OFF');
      expect(item).toEqual({
        id: ids.get('RAP-50%OFF'),
        orderId: 'RAP-50%OFF',
        status: 'FORWARD_FAILED',
        payload: { orderId: 'RAP-50%OFF', source: 'rappi', store: { id: 'store-b' } },
        enrichedPayload: { orderId: 'RAP-50%OFF', taxSummary: { totals: { total_tax: 1.5 } } },
        webhookAttempts: 5,
        storeId: 'store-b',
        source: 'rappi',
        webhookLastResponse: { statusCode: 200, body: 'ok', durationMs: 12, error: null, attemptedAt: '2026-03-02T12:00:00.123456Z' },
        createdAt: '2026-03-02T12:00:00.123456Z',
        updatedAt: '2026-03-02T12:00:00.123456Z',
      });
      const received = response.body.items.find((order: { orderId: string }) => order.orderId === 'MS-AFTER');
      expect(received).toMatchObject({ enrichedPayload: null, storeId: null, source: null, webhookLastResponse: null, webhookAttempts: 0 });
    });

    it('orders equal createdAt by id, descending', async () => {
      const response = await list({ storeId: 'store-c' });
      const [first, second] = [ids.get('WEB-A_B')!, ids.get('WEB-AXB')!].sort().reverse();
      expect(response.body.items.slice(1).map((item: { id: string }) => item.id)).toEqual([first, second]);
    });

    it.each([
      ['storeId', { storeId: 'store-b' }, (f: Fixture) => f.storeId === 'store-b'],
      ['source', { source: 'site' }, (f: Fixture) => f.source === 'site'],
      ['status', { status: 'DELIVERED' }, (f: Fixture) => f.status === 'DELIVERED'],
      ['minWebhookAttempts', { minWebhookAttempts: 3 }, (f: Fixture) => f.attempts >= 3],
      ['maxWebhookAttempts', { maxWebhookAttempts: 1 }, (f: Fixture) => f.attempts <= 1],
      ['min and max attempts equal', { minWebhookAttempts: 2, maxWebhookAttempts: 2 }, (f: Fixture) => f.attempts === 2],
      ['minWebhookAttempts 0 (everything)', { minWebhookAttempts: 0 }, () => true],
      ['an unknown store', { storeId: 'store-zzz' }, () => false],
    ])('filters by %s', async (_label, query, keep) => {
      const response = await list(query);
      expect(response.status).toBe(200);
      const want = expected(keep);
      expect(orderIds(response.body)).toEqual(want);
      expect(response.body.total).toBe(want.length);
      expect(response.body.totalPages).toBe(want.length === 0 ? 0 : 1);
    });

    describe('orderId: a case-insensitive substring with %, _ and \\ taken literally', () => {
      it.each([
        ['aaa', ['IFD-aaa222', 'IFD-AAA111']],
        ['AaA1', ['IFD-AAA111']],
        ['50%', ['RAP-50%OFF']],
        ['%', ['RAP-50%OFF']],
        ['A_B', ['WEB-A_B']],
        ['_', ['WEB-A_B']],
        ['\\', ['WEB-C\\D']],
        ['C\\D', ['WEB-C\\D']],
        ['off', ['RAP-50XOFF', 'RAP-50%OFF']],
        ['-', () => expected(() => true)],
        ['nothing-like-this', []],
      ])('%s', async (fragment, wanted) => {
        const want = typeof wanted === 'function' ? wanted() : wanted;
        const response = await list({ orderId: fragment });
        expect(response.status).toBe(200);
        expect(orderIds(response.body)).toEqual(want);
        expect(response.body.total).toBe(want.length);
      });
    });

    describe('createdFrom and createdTo: inclusive, at the exact instant', () => {
      it('includes orders created exactly at both bounds and excludes those 1 ms outside', async () => {
        const response = await list({ createdFrom: '2026-03-05T10:00:00.000Z', createdTo: '2026-03-05T11:00:00.000Z' });
        expect(orderIds(response.body)).toEqual(['MS-TO', 'MS-FROM']);
        expect(response.body.total).toBe(2);
      });

      it('is exact to the microsecond, as orders are stored', async () => {
        const response = await list({ createdFrom: '2026-03-02T00:00:00Z', createdTo: '2026-03-02T12:00:00.123456Z' });
        expect(orderIds(response.body)).toEqual(['RAP-50%OFF', 'RAP-BBB333']);
        // One microsecond earlier leaves the later bound's order out; a sub-microsecond bound never rounds it in.
        expect(orderIds((await list({ createdTo: '2026-03-02T12:00:00.123455999Z', createdFrom: '2026-03-02T00:00:00Z' })).body)).toEqual([
          'RAP-BBB333',
        ]);
        expect(orderIds((await list({ createdFrom: '2026-03-01T23:59:59.9999991Z', createdTo: '2026-03-02T00:00:00Z' })).body)).toEqual([
          'RAP-BBB333',
        ]);
      });

      it('applies the zone of the bound; a bound without a zone is UTC', async () => {
        const saoPaulo = await list({ createdFrom: '2026-03-01T21:00:00-03:00', createdTo: '2026-03-01T21:00:00.000000-0300' });
        expect(orderIds(saoPaulo.body)).toEqual(['RAP-BBB333']);
        const noZone = await list({ createdFrom: '2026-03-02T00:00:00', createdTo: '2026-03-02T00:00' });
        expect(orderIds(noZone.body)).toEqual(['RAP-BBB333']);
      });

      it('takes one bound alone', async () => {
        expect(orderIds((await list({ createdFrom: '2026-03-04T00:00:00Z' })).body)).toEqual(expected((f) => f.createdAt >= '2026-03-04T'));
        expect(orderIds((await list({ createdTo: '2026-03-01T23:59:59.999999Z' })).body)).toEqual(['IFD-aaa222', 'IFD-AAA111']);
      });

      it('counts ranges spanning whole days (per-day counters) and their partial ends exactly', async () => {
        const cases: Array<[Record<string, string>, (f: Fixture) => boolean]> = [
          [{ createdFrom: '2026-03-01T10:00:00Z', createdTo: '2026-03-04T00:00:00Z' }, (f) => f.createdAt <= '2026-03-04T00:00:00.000000Z'],
          [{ createdFrom: '2026-03-01T10:00:00.000001Z' }, (f) => f.createdAt > '2026-03-01T10:00:00.000000Z'],
          [
            { createdFrom: '2026-03-02T00:00:00Z', createdTo: '2026-03-03T23:59:59.999999Z' },
            (f) => f.createdAt.startsWith('2026-03-02') || f.createdAt.startsWith('2026-03-03'),
          ],
          [
            { createdTo: '2026-03-05T10:59:59.999999Z', status: 'RECEIVED' },
            (f) => f.status === 'RECEIVED' && f.createdAt < '2026-03-05T11',
          ],
          [{ createdFrom: '2026-02-01T00:00:00Z', createdTo: '2026-03-31T00:00:00Z', source: 'rappi' }, (f) => f.source === 'rappi'],
          [
            { createdFrom: '2026-03-01T00:00:00Z', createdTo: '2026-03-03T12:00:00Z', source: 'site', status: 'DELIVERED' },
            (f) => f.source === 'site' && f.status === 'DELIVERED',
          ],
        ];
        for (const [query, keep] of cases) {
          const response = await list(query);
          const want = expected(keep);
          expect([query, orderIds(response.body)]).toEqual([query, want]);
          expect([query, response.body.total]).toEqual([query, want.length]);
        }
      });
    });

    it('gets totals right under combined filters', async () => {
      const cases: Array<[Record<string, string | number>, (f: Fixture) => boolean]> = [
        [{ storeId: 'store-b', status: 'DELIVERED' }, (f) => f.storeId === 'store-b' && f.status === 'DELIVERED'],
        [
          { storeId: 'store-a', createdFrom: '2026-03-01T12:00:00Z', createdTo: '2026-03-04T00:00:00Z' },
          (f) => f.storeId === 'store-a' && f.createdAt > '2026-03-01T12',
        ],
        [{ source: 'rappi', orderId: 'off' }, (f) => f.source === 'rappi' && f.orderId.toLowerCase().includes('off')],
        [{ source: 'site', status: 'DELIVERED' }, (f) => f.source === 'site' && f.status === 'DELIVERED'],
        [
          { storeId: 'store-c', minWebhookAttempts: 2, maxWebhookAttempts: 2, createdTo: '2026-03-03T08:00:00Z' },
          (f) => f.storeId === 'store-c' && f.attempts === 2,
        ],
        [
          { status: 'RECEIVED', maxWebhookAttempts: 0, createdFrom: '2026-03-05T10:00:00Z' },
          (f) => f.status === 'RECEIVED' && f.createdAt >= '2026-03-05T10',
        ],
        [
          { storeId: 'store-b', source: 'rappi', status: 'FORWARD_FAILED', orderId: '%', minWebhookAttempts: 5 },
          (f) => f.orderId === 'RAP-50%OFF',
        ],
        [{ storeId: 'store-b', source: 'ifood' }, () => false],
      ];
      for (const [query, keep] of cases) {
        const response = await list(query);
        const want = expected(keep);
        expect([query, response.status, orderIds(response.body), response.body.total]).toEqual([query, 200, want, want.length]);
      }
    });

    it('pages through the list without gaps or repeats; totalPages = ceil(total / pageSize)', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const response = await list({ page, pageSize: 4 });
        expect(response.body).toMatchObject({ total: 13, page, pageSize: 4, totalPages: 4 });
        expect(response.body.items.length).toBe(page < 4 ? 4 : 1);
        seen.push(...orderIds(response.body));
      }
      expect(seen).toEqual(expected(() => true));
    });

    it('answers a page past the end with no items and the right total', async () => {
      const response = await list({ page: 99, pageSize: 5, storeId: 'store-b' });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ items: [], total: 3, page: 99, pageSize: 5, totalPages: 1 });
      const huge = await list({ page: 2147483647, pageSize: 100 });
      expect(huge.body).toEqual({ items: [], total: 13, page: 2147483647, pageSize: 100, totalPages: 1 });
    });

    it('answers an empty result with totalPages 0', async () => {
      expect((await list({ status: 'DISPATCHED' })).body).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 });
    });

    describe('refuses a bad query with 400 in the Error A shape', () => {
      it.each([
        ['page 0', { page: 0 }, 'page'],
        ['page x', { page: 'x' }, 'page'],
        ['page 1.5', { page: '1.5' }, 'page'],
        ['page 1e1', { page: '1e1' }, 'page'],
        ['page empty', { page: '' }, 'page'],
        ['page above 2147483647', { page: '2147483648' }, 'page'],
        ['pageSize 101', { pageSize: 101 }, 'pageSize'],
        ['pageSize 0', { pageSize: 0 }, 'pageSize'],
        ['an unknown status', { status: 'LOST' }, 'status'],
        ['a lower-case status', { status: 'delivered' }, 'status'],
        ['a createdFrom that is not a date', { createdFrom: 'yesterday' }, 'createdFrom'],
        ['a date without a time', { createdFrom: '2026-03-01' }, 'createdFrom'],
        ['an impossible date', { createdTo: '2026-02-30T00:00:00Z' }, 'createdTo'],
        ['hour 24', { createdTo: '2026-03-01T24:00:00Z' }, 'createdTo'],
        ['a month 13', { createdFrom: '2026-13-01T00:00:00Z' }, 'createdFrom'],
        ['createdFrom after createdTo', { createdFrom: '2026-03-02T00:00:00.000001Z', createdTo: '2026-03-02T00:00:00Z' }, 'createdFrom'],
        [
          'createdFrom after createdTo across zones',
          { createdFrom: '2026-03-01T22:00:00-03:00', createdTo: '2026-03-02T00:30:00Z' },
          'createdFrom',
        ],
        ['minWebhookAttempts above maxWebhookAttempts', { minWebhookAttempts: 3, maxWebhookAttempts: 2 }, 'minWebhookAttempts'],
        ['negative minWebhookAttempts', { minWebhookAttempts: -1 }, 'minWebhookAttempts'],
        ['negative maxWebhookAttempts', { maxWebhookAttempts: -2 }, 'maxWebhookAttempts'],
        ['non-integer minWebhookAttempts', { minWebhookAttempts: '1.5' }, 'minWebhookAttempts'],
        ['minWebhookAttempts 2.0', { minWebhookAttempts: '2.0' }, 'minWebhookAttempts'],
        ['non-numeric maxWebhookAttempts', { maxWebhookAttempts: 'many' }, 'maxWebhookAttempts'],
        ['an empty storeId', { storeId: '' }, 'storeId'],
        ['an empty orderId', { orderId: '' }, 'orderId'],
        ['an orderId over 100 characters', { orderId: 'x'.repeat(101) }, 'orderId'],
        ['an unknown parameter', { store: 'store-a' }, 'store'],
      ])('%s', async (_label, query, field) => {
        const response = await list(query as Record<string, string | number>);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('VALIDATION_FAILED');
        expect(typeof response.body.message).toBe('string');
        expect(response.body.details.map((detail: { field: string }) => detail.field)).toContain(field);
      });

      it('lists every problem at once', async () => {
        const response = await list({ page: 0, pageSize: 500, status: 'LOST' });
        expect(response.status).toBe(400);
        expect(response.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(['page', 'pageSize', 'status']);
      });

      it('refuses a repeated parameter', async () => {
        const response = await t.http.get(`${LIST}?status=DELIVERED&status=CANCELLED`, { token: admin });
        expect(response.status).toBe(400);
      });
    });

    it('needs the admin scope', async () => {
      expect((await t.http.get(LIST)).status).toBe(401);
      expect((await t.http.get(LIST, { token: await t.tokenFor(['orders']) })).status).toBe(403);
    });
  });

  describe('exact counts while orders change', () => {
    it('keeps the per-day counters right through updates, deletes and folding', async () => {
      const checks: Array<Record<string, string>> = [
        {},
        { status: 'DELIVERED' },
        { source: 'site' },
        { createdFrom: '2026-03-01T00:00:00Z', createdTo: '2026-03-03T23:59:59.999999Z', status: 'DELIVERED' },
      ];
      const totals = async () => Promise.all(checks.map(async (query) => (await list(query)).body.total));
      const countInSql = async () =>
        Promise.all(
          [
            `SELECT count(*) AS n FROM orders`,
            `SELECT count(*) AS n FROM orders WHERE status = 'DELIVERED'`,
            `SELECT count(*) AS n FROM orders WHERE source = 'site'`,
            `SELECT count(*) AS n FROM orders WHERE status = 'DELIVERED' AND created_at >= '2026-03-01T00:00:00Z' AND created_at < '2026-03-04T00:00:00Z'`,
          ].map(async (sql) => Number((await t.dataSource.query(sql))[0].n)),
        );

      const extra = await insert({
        orderId: 'TMP-1',
        storeId: 'store-x',
        source: 'site',
        status: 'DELIVERED',
        attempts: 1,
        createdAt: '2026-03-03T10:00:00Z',
      });
      await t.dataSource.query(`UPDATE orders SET status = 'DELIVERED', source = 'site' WHERE order_id = 'RAP-BBB333'`);
      await t.dataSource.query(`UPDATE orders SET created_at = '2026-03-10T00:00:00Z' WHERE order_id = 'WEB-A_B'`);
      await t.dataSource.query(`UPDATE orders SET webhook_attempts = webhook_attempts + 1 WHERE order_id = 'WEB-AXB'`);
      expect(await totals()).toEqual(await countInSql());
      expect(await totals()).toEqual([14, 5, 6, 4]);

      await t.app.get(OrderCountFolder).fold();
      const [{ pending }] = await t.dataSource.query(`SELECT count(*)::int AS pending FROM order_count_delta`);
      expect(pending).toBe(0);
      expect(await totals()).toEqual([14, 5, 6, 4]);

      await t.dataSource.query(`DELETE FROM orders WHERE id = $1`, [extra]);
      await t.dataSource.query(`UPDATE orders SET status = 'DELIVERED', source = 'rappi' WHERE order_id = 'RAP-BBB333'`);
      await t.dataSource.query(`UPDATE orders SET created_at = '2026-03-03T08:00:00Z' WHERE order_id = 'WEB-A_B'`);
      expect(await totals()).toEqual(await countInSql());
      expect(await totals()).toEqual([13, 4, 4, 4]);
    });
  });

  describe('the detail', () => {
    const detail = (id: string, token = admin) => t.http.get(`${LIST}/${encodeURIComponent(id)}`, { token });

    it('finds an order by its internal id and by its orderId, with every PersistedOrder field', async () => {
      const byId = await detail(ids.get('RAP-50%OFF')!);
      expect(byId.status).toBe(200);
      const byOrderId = await detail('RAP-50%OFF');
      expect(byOrderId.status).toBe(200);
      expect(byOrderId.body).toEqual(byId.body);
      expect(byId.body).toMatchObject({ id: ids.get('RAP-50%OFF'), orderId: 'RAP-50%OFF', status: 'FORWARD_FAILED', webhookAttempts: 5 });
      expect(Object.keys(byId.body).sort()).toEqual(
        [
          'id',
          'orderId',
          'status',
          'payload',
          'enrichedPayload',
          'webhookAttempts',
          'storeId',
          'source',
          'webhookLastResponse',
          'createdAt',
          'updatedAt',
          'history',
          'tracking',
          'transfers',
          'dispatches',
          'deliveries',
        ].sort(),
      );
      expect(byId.body).toMatchObject({ tracking: [], transfers: [], dispatches: [], deliveries: [] });
      expect((await detail(ids.get('RAP-50%OFF')!.toUpperCase())).body.id).toBe(ids.get('RAP-50%OFF'));
      expect((await detail('WEB-C\\D')).body.orderId).toBe('WEB-C\\D');
    });

    it('finds an order whose orderId looks like a UUID', async () => {
      const uuidLike = '0f0e0d0c-0b0a-4999-8888-777766665555';
      await insert({
        orderId: uuidLike,
        storeId: 'store-u',
        source: 'ifood',
        status: 'ENRICHED',
        attempts: 0,
        createdAt: '2026-01-01T00:00:00Z',
      });
      const response = await detail(uuidLike);
      expect(response.status).toBe(200);
      expect(response.body.orderId).toBe(uuidLike);
      await t.dataSource.query(`DELETE FROM orders WHERE order_id = $1`, [uuidLike]);
    });

    it('answers 404 for an unknown UUID or orderId, 400 for an id longer than any orderId', async () => {
      const unknownUuid = await detail('00000000-0000-4000-8000-000000000000');
      expect(unknownUuid.status).toBe(404);
      expect(unknownUuid.body.error).toBe('NOT_FOUND');
      expect((await detail('NO-SUCH-ORDER')).status).toBe(404);
      expect((await detail('rap-50%off')).status).toBe(404);
      const tooLong = await detail('x'.repeat(101));
      expect(tooLong.status).toBe(400);
      expect(tooLong.body.error).toBe('VALIDATION_FAILED');
      const longestOrderId = `${'%'.repeat(50)}${'é'.repeat(50)}`;
      await insert({
        orderId: longestOrderId,
        storeId: 'store-l',
        source: 'site',
        status: 'ENRICHED',
        attempts: 0,
        createdAt: '2026-01-02T00:00:00Z',
      });
      expect((await detail(longestOrderId)).body.orderId).toBe(longestOrderId);
      await t.dataSource.query(`DELETE FROM orders WHERE order_id = $1`, [longestOrderId]);
      expect((await detail('NO-SUCH-ORDER', await t.tokenFor(['orders']))).status).toBe(403);
    });

    it('shows the status history written by the trigger, oldest first', async () => {
      const id = await insert({
        orderId: 'HIST-1',
        storeId: 'store-h',
        source: 'ifood',
        status: 'ENRICHED',
        attempts: 0,
        createdAt: '2026-03-06T10:00:00Z',
      });
      await t.dataSource.query(
        `UPDATE orders SET status = 'FORWARDED', last_changed_by = NULL, last_changed_via = 'order webhook' WHERE id = $1`,
        [id],
      );
      await t.dataSource.query(
        `UPDATE orders SET status = 'ACCEPTED', last_changed_by = '2002', last_changed_via = 'POST /api/api/order/status' WHERE id = $1`,
        [id],
      );
      await t.dataSource.query(`UPDATE orders SET webhook_attempts = 1 WHERE id = $1`, [id]);
      const response = await detail('HIST-1');
      expect(response.status).toBe(200);
      const history = response.body.history as Array<{
        status: string;
        from: string | null;
        at: string;
        clientId: string | null;
        via: string;
      }>;
      expect(history.map(({ status, from, clientId, via }) => ({ status, from, clientId, via }))).toEqual([
        { status: 'ENRICHED', from: null, clientId: '1001', via: 'test fixture' },
        { status: 'FORWARDED', from: 'ENRICHED', clientId: null, via: 'order webhook' },
        { status: 'ACCEPTED', from: 'FORWARDED', clientId: '2002', via: 'POST /api/api/order/status' },
      ]);
      expect(history.every((change) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(change.at))).toBe(true);
      expect([...history.map((change) => change.at)].sort()).toEqual(history.map((change) => change.at));
    });

    it('shows the tracking, transfer, dispatch and delivery logs, oldest first, in their documented shapes', async () => {
      const id = ids.get('IFD-AAA111')!;
      const other = ids.get('IFD-aaa222')!;
      await t.dataSource.query(
        `INSERT INTO order_tracking (order_db_id, status, order_status_applied, trackurl, tracking_number, delivery_confirmation_code, shipping_coordinates, created_at, client_id) VALUES
           ($1, 'DELIVERED', true, 'https://t.example/2', 'BR2', '4821', '[{"latitude": "-23.5", "longitude": "-46.6"}]', '2026-03-01T12:00:00Z', '1001'),
           ($1, 'in transit', false, 'https://t.example/1', 'BR1', null, '[]', '2026-03-01T11:00:00Z', '1001'),
           ($2, 'DISPATCHED', true, 'https://t.example/x', 'BRX', null, '[]', '2026-03-01T11:00:00Z', '1001')`,
        [id, other],
      );
      await t.dataSource.query(
        `INSERT INTO order_transfer (order_db_id, from_store, to_store, from_store_id, to_store_id, processed_by, transfer_reason, shipping_address, refiscalized, created_at, client_id)
         VALUES ($1, 'S1', 'S2', 'store-1', 'store-2', 'Maria', 'Kitchen closed', '{"city": "São Paulo"}', false, '2026-03-01T10:00:00Z', '1001')`,
        [id],
      );
      await t.dataSource.query(
        `INSERT INTO order_dispatch (order_db_id, id_transaccion, created_at, client_id) VALUES ($1, 'TX-1', '2026-03-01T13:00:00Z', '1001')`,
        [id],
      );
      await t.dataSource.query(
        `INSERT INTO webhook_delivery (order_db_id, attempt, trigger, webhook_id, url, request_headers, status_code, response_body, duration_ms, error, attempted_at)
         VALUES ($1, 2, 'retry', 'msg_x', 'http://r.example/h', '{"webhook-id": "msg_x"}', 200, 'ok', 12, null, '2026-03-01T09:00:02Z'),
                ($1, 1, 'forward', 'msg_x', 'http://r.example/h', '{"webhook-id": "msg_x"}', 500, 'no', 15, null, '2026-03-01T09:00:00Z')`,
        [id],
      );
      const response = await detail(id);
      expect(response.status).toBe(200);
      expect(response.body.tracking).toEqual([
        {
          status: 'in transit',
          orderStatusApplied: false,
          trackurl: 'https://t.example/1',
          trackingNumber: 'BR1',
          deliveryConfirmationCode: null,
          shippingCoordinates: [],
          at: '2026-03-01T11:00:00.000000Z',
          clientId: '1001',
          extra: null,
        },
        {
          status: 'DELIVERED',
          orderStatusApplied: true,
          trackurl: 'https://t.example/2',
          trackingNumber: 'BR2',
          deliveryConfirmationCode: '4821',
          shippingCoordinates: [{ latitude: '-23.5', longitude: '-46.6' }],
          at: '2026-03-01T12:00:00.000000Z',
          clientId: '1001',
          extra: null,
        },
      ]);
      expect(response.body.transfers).toEqual([
        {
          fromStore: 'S1',
          toStore: 'S2',
          fromStoreId: 'store-1',
          toStoreId: 'store-2',
          processedBy: 'Maria',
          transferReason: 'Kitchen closed',
          shippingAddress: { city: 'São Paulo' },
          refiscalized: false,
          fromFiscalGroupId: null,
          toFiscalGroupId: null,
          at: '2026-03-01T10:00:00.000000Z',
          clientId: '1001',
          extra: null,
        },
      ]);
      expect(response.body.dispatches).toEqual([
        { idTransaccion: 'TX-1', at: '2026-03-01T13:00:00.000000Z', clientId: '1001', extra: null },
      ]);
      expect(
        response.body.deliveries.map((delivery: { attempt: number; trigger: string; statusCode: number }) => [
          delivery.attempt,
          delivery.trigger,
          delivery.statusCode,
        ]),
      ).toEqual([
        [1, 'forward', 500],
        [2, 'retry', 200],
      ]);
      expect(response.body.deliveries[0]).toEqual({
        attempt: 1,
        trigger: 'forward',
        webhookId: 'msg_x',
        url: 'http://r.example/h',
        requestHeaders: { 'webhook-id': 'msg_x' },
        statusCode: 500,
        responseBody: 'no',
        durationMs: 15,
        error: null,
        attemptedAt: '2026-03-01T09:00:00.000000Z',
      });
      // Another order's rows do not show.
      expect((await detail(other)).body.transfers).toEqual([]);
    });
  });
});
