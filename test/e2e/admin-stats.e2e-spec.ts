import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { answer, WebhookReceiver } from '../support/webhook-receiver.js';

interface StatusCount {
  status: string;
  count: number;
}

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
    for (const orderId of ['a', 'b', 'c'].map((suffix) => unique(`stats-${suffix}`))) {
      expect((await t.http.post('/enrich-order', orderFor(orderId, taxedStore), { token: orders })).status).toBe(200);
    }
    receiver.respondWith(answer(200, 'ok'), answer(503, 'busy'));
    expect((await t.http.post('/enrich-order-forward', orderFor(unique('stats-fwd-ok'), taxedStore), { token: orders })).status).toBe(200);
    expect((await t.http.post('/enrich-order-forward', orderFor(unique('stats-fwd-503'), taxedStore), { token: orders })).status).toBe(502);

    // Stores without a group: 2 failed orders for one, 1 for another that gets a group afterwards.
    for (const orderId of [unique('stats-m1'), unique('stats-m2')]) {
      expect((await t.http.post('/enrich-order', orderFor(orderId, missingStore), { token: orders })).status).toBe(422);
    }
    expect((await t.http.post('/enrich-order', orderFor(unique('stats-l1'), laterConfigured), { token: orders })).status).toBe(422);
    await seedFiscalData(t.http, admin, laterConfigured);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('counts the orders per hour by status, every hour of the period present', async () => {
    const day = await t.http.get('/admin/stats/orders-per-hour', { token: admin });
    expect(day.status).toBe(200);
    expect(day.body.range).toBe('24h');
    expect(day.body.hours).toHaveLength(24);
    const week = await t.http.get('/admin/stats/orders-per-hour', { token: admin, query: { range: '7d' } });
    expect(week.body.hours).toHaveLength(168);

    // 3 ENRICHED + 1 FORWARDED + 1 FORWARD_FAILED + 3 ENRICHMENT_FAILED = 8 orders, all in the current hour
    // (or the one before, when the test straddles the hour: the sums hold either way).
    const expected = [
      { status: 'ENRICHED', count: 3 },
      { status: 'ENRICHMENT_FAILED', count: 3 },
      { status: 'FORWARDED', count: 1 },
      { status: 'FORWARD_FAILED', count: 1 },
    ];
    for (const body of [day.body, week.body]) {
      expect(body.totals).toEqual(expected);
      const hours = body.hours as { hour: string; total: number; statuses: StatusCount[] }[];
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
    const response = await t.http.get('/admin/stats/forwarding', { token: admin });
    expect(response.status).toBe(200);
    // Two attempts: one answered 200, one 503; the 503 scheduled one retry, not yet due.
    expect(response.body.outcomes).toEqual({ delivered: 1, rejected: 0, failed: 1, noAnswer: 0 });
    expect(response.body.retryQueue).toEqual({ due: 0, scheduled: 1 });
  });

  it('lists the stores missing a fiscal group, not those that have one now', async () => {
    const response = await t.http.get('/admin/stats/stores-missing-fiscal-group', { token: admin });
    expect(response.status).toBe(200);
    expect(response.body.range).toBe('7d');
    expect(response.body.total).toBe(1);
    expect(response.body.stores).toEqual([{ storeId: missingStore, failedOrders: 2, lastFailedAt: expect.any(String) }]);
    expect(Date.parse(response.body.stores[0].lastFailedAt)).toBeLessThanOrEqual(Date.now());

    // A group for the store takes it off the list.
    await seedFiscalData(t.http, admin, missingStore);
    const after = await t.http.get('/admin/stats/stores-missing-fiscal-group', { token: admin });
    expect(after.body).toMatchObject({ total: 0, stores: [] });
  });

  it('refuses a bad range and an unknown parameter (400), no token (401), a client without admin (403)', async () => {
    for (const path of ['/admin/stats/orders-per-hour', '/admin/stats/forwarding', '/admin/stats/stores-missing-fiscal-group']) {
      const bad = await t.http.get(path, { token: admin, query: { range: '30d' } });
      expect(bad.status).toBe(400);
      expect(bad.body).toMatchObject({ error: 'VALIDATION_FAILED', details: [expect.objectContaining({ field: 'range' })] });
      expect((await t.http.get(path, { token: admin, query: { since: 'yesterday' } })).status).toBe(400);
      expect((await t.http.get(path)).status).toBe(401);
      expect((await t.http.get(path, { token: orders })).status).toBe(403);
    }
  });
});
