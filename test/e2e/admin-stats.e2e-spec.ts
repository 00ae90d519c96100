import { failed, ok, type ErrorBody } from '../support/api.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { answer, WebhookReceiver } from '../support/webhook-receiver.js';

/** The dashboard's aggregates, against orders written through the API on a fresh database. */
describe('GET /api/admin/stats/… (e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let admin: string;
  let orders: string;
  const taxedStore = unique('stats-store');
  const missingStore = unique('stats-missing');
  const laterConfigured = unique('stats-later');

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    // Retries are left to a schedule far away: the queue keeps what the failed forwards scheduled.
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url, WEBHOOK_RETRY_ENABLED: 'true', WEBHOOK_RETRY_SCHEDULE: '1h' });
    admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
    await seedFiscalData(t.http, admin, taxedStore);

    // 3 taxed orders, 2 forwarded: one answered 200, one 503 (a retry is scheduled).
    const pos = t.apiAs(orders);
    const enrich = (orderId: string, storeId: string) => pos.POST('/api/enrich-order', { body: orderFor(orderId, storeId) });
    for (const orderId of ['a', 'b', 'c'].map((suffix) => unique(`stats-${suffix}`))) ok(await enrich(orderId, taxedStore), 200);
    receiver.respondWith(answer(200, 'ok'), answer(503, 'busy'));
    ok(await pos.POST('/api/enrich-order-forward', { body: orderFor(unique('stats-fwd-ok'), taxedStore) }), 200);
    failed(await pos.POST('/api/enrich-order-forward', { body: orderFor(unique('stats-fwd-503'), taxedStore) }), 502);

    // Stores without a group: 2 failed orders for one, 1 for another that gets a group afterwards.
    for (const orderId of [unique('stats-m1'), unique('stats-m2')]) failed(await enrich(orderId, missingStore), 422);
    failed(await enrich(unique('stats-l1'), laterConfigured), 422);
    await seedFiscalData(t.http, admin, laterConfigured);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('counts the orders per hour by status, every hour of the period present', async () => {
    const perHour = async (range?: '24h' | '7d') =>
      ok(await t.apiAs(admin).GET('/api/admin/stats/orders-per-hour', { params: { query: range ? { range } : {} } }), 200);
    const day = await perHour();
    expect(day.range).toBe('24h');
    expect(day.hours).toHaveLength(24);
    const week = await perHour('7d');
    expect(week.hours).toHaveLength(168);

    // 3 ENRICHED + 1 FORWARDED + 1 FORWARD_FAILED + 3 ENRICHMENT_FAILED = 8 orders, all in the current hour
    // (or the one before, when the test straddles the hour: the sums hold either way).
    const expected = [
      { status: 'ENRICHED', count: 3 },
      { status: 'ENRICHMENT_FAILED', count: 3 },
      { status: 'FORWARDED', count: 1 },
      { status: 'FORWARD_FAILED', count: 1 },
    ];
    for (const body of [day, week]) {
      expect(body.totals).toEqual(expected);
      const hours = body.hours;
      expect(hours.reduce((sum, hour) => sum + hour.total, 0)).toBe(8);
      // Consecutive whole UTC hours, the current one last.
      for (let i = 1; i < hours.length; i++) {
        expect(Date.parse(hours[i]!.hour) - Date.parse(hours[i - 1]!.hour)).toBe(3_600_000);
      }
      expect(hours.at(-1)!.hour).toBe(new Date(Math.floor(Date.parse(body.to) / 3_600_000) * 3_600_000).toISOString());
      expect(hours.filter((hour) => hour.total === 0).every((hour) => hour.statuses.length === 0)).toBe(true);
    }
  });

  it('gives the forward outcomes and the retry queue', async () => {
    const response = ok(await t.apiAs(admin).GET('/api/admin/stats/forwarding'), 200);
    // Two attempts: one answered 200, one 503; the 503 scheduled one retry, not yet due.
    expect(response.outcomes).toEqual({ delivered: 1, rejected: 0, failed: 1, noAnswer: 0 });
    expect(response.retryQueue).toEqual({ due: 0, scheduled: 1 });
  });

  it('lists the stores missing a fiscal group, not those that have one now', async () => {
    const missing = async () => ok(await t.apiAs(admin).GET('/api/admin/stats/stores-missing-fiscal-group'), 200);
    const response = await missing();
    expect(response.range).toBe('7d');
    expect(response.total).toBe(1);
    expect(response.stores).toEqual([{ storeId: missingStore, failedOrders: 2, lastFailedAt: expect.any(String) }]);
    expect(Date.parse(response.stores[0]!.lastFailedAt)).toBeLessThanOrEqual(Date.now());

    // A group for the store takes it off the list.
    await seedFiscalData(t.http, admin, missingStore);
    expect(await missing()).toMatchObject({ total: 0, stores: [] });
  });

  it('refuses a bad range and an unknown parameter (400), no token (401), a client without admin (403)', async () => {
    for (const path of ['/admin/stats/orders-per-hour', '/admin/stats/forwarding', '/admin/stats/stores-missing-fiscal-group']) {
      // Queries outside the schema, and each route alike: sent raw.
      const bad = await t.http.get<ErrorBody>(path, { token: admin, query: { range: '30d' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'range' })] });
      expect((await t.http.get(path, { token: admin, query: { since: 'yesterday' } })).status).toBe(400);
      expect((await t.http.get(path)).status).toBe(401);
      expect((await t.http.get(path, { token: orders })).status).toBe(403);
    }
  });
});
