import { expectDeclaredError } from '../support/declared-errors.js';
import { randomBytes } from 'node:crypto';
import { orderFor, seedFiscalData, storedOrder, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { answer, hang, refusedUrl, verifySignature, WebhookReceiver } from '../support/webhook-receiver.js';

const FORWARD = '/enrich-order-forward';
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

async function deliveries(t: TestApp, orderDbId: string) {
  return t.dataSource.query('SELECT * FROM webhook_delivery WHERE order_db_id = $1 ORDER BY attempt', [orderDbId]);
}

describe('POST /api/enrich-order-forward (e2e, real receiver)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let orders: string;
  let admin: string;
  const storeId = unique('fwd-store');
  const order = (orderId: string) => orderFor(orderId, storeId);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url, ORDER_WEBHOOK_SECRET: SECRET, ORDER_WEBHOOK_TIMEOUT_MS: '5000' });
    orders = await t.tokenFor(['orders']);
    admin = await t.tokenFor(['admin']);
    await seedFiscalData(t.http, await t.tokenFor(['admin']), storeId);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });
  beforeEach(() => receiver.reset());

  it('POSTs exactly the enriched payload, signed, and answers 200 { message } with the order FORWARDED', async () => {
    const orderId = unique('exact');
    const dryRun = await t.http.post('/enrich-order', order(orderId), { token: orders, query: { dryRun: 'true' } });
    expect(dryRun.status).toBe(200);

    const response = await t.http.post(FORWARD, order(orderId), { token: orders });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: expect.stringContaining(`Order ${orderId} enriched, stored and forwarded`) });

    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received!.method).toBe('POST');
    expect(received!.path).toBe('/hooks/orders');
    // Byte for byte the /enrich-order payload (serialized by the same JSON writer), but for the time of the calculation.
    const sent = JSON.parse(received!.body);
    const expected = JSON.stringify({
      ...dryRun.body.payload,
      taxSummary: { ...dryRun.body.payload.taxSummary, calculatedAt: sent.taxSummary.calculatedAt },
    });
    expect(received!.body).toBe(expected);
    // Burger 25.90: ICMS 18 % = 4.662 → 4.66; PIS/COFINS base 21.24: 0.13806 → 0.14, 0.6372 → 0.64; total 5.44
    expect(sent.taxSummary.totals.total_tax).toBe(5.44);
    const row = await storedOrder(t, orderId);
    expect(sent).toEqual(row.enriched_payload);

    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers['user-agent']).toMatch(/^order-tax-service\//);
    expect(received!.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(Math.abs(Number(received!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(received!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifySignature(SECRET, received!.headers, received!.raw)).toBe(true);
    expect(verifySignature(SECRET, received!.headers, Buffer.from(received!.body.replace('5.44', '5.45')))).toBe(false);
    expect(verifySignature(`whsec_${randomBytes(32).toString('base64')}`, received!.headers, received!.raw)).toBe(false);

    expect(row).toMatchObject({ status: 'FORWARDED', webhook_attempts: 1 });
    expect(row.webhook_last_response).toEqual({
      statusCode: 200,
      body: 'ok',
      durationMs: expect.any(Number),
      error: null,
      attemptedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const log = await deliveries(t, row.id);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      attempt: 1,
      trigger: 'forward',
      webhook_id: received!.headers['webhook-id'],
      url: receiver.url,
      status_code: 200,
      response_body: 'ok',
      error: null,
    });
    expect(log[0].request_headers).toEqual({
      'content-type': 'application/json',
      'user-agent': received!.headers['user-agent'],
      'webhook-id': received!.headers['webhook-id'],
      'webhook-timestamp': received!.headers['webhook-timestamp'],
      'webhook-signature': received!.headers['webhook-signature'],
    });
    expect(JSON.stringify(log[0])).not.toContain(SECRET.slice(6));

    const history = await t.dataSource.query(
      'SELECT from_status, to_status, via FROM order_status_history WHERE order_db_id = $1 ORDER BY id',
      [row.id],
    );
    expect(history).toEqual([
      { from_status: null, to_status: 'ENRICHED', via: 'POST /api/enrich-order-forward' },
      { from_status: 'ENRICHED', to_status: 'FORWARDED', via: 'POST /api/enrich-order-forward' },
    ]);
  });

  it('sends the enriched payload alone when the body wraps the order under payload', async () => {
    const orderId = unique('wrapped');
    expect((await t.http.post(FORWARD, { payload: order(orderId) }, { token: orders })).status).toBe(200);
    const sent = JSON.parse(receiver.requests[0]!.body);
    expect(sent.orderId).toBe(orderId);
    expect(sent.payload).toBeUndefined();
    expect(sent.taxSummary.totals.total_tax).toBe(5.44);
  });

  it('answers 502 on a 500, keeps the order stored as FORWARD_FAILED, and counts every attempt', async () => {
    const orderId = unique('500');
    receiver.respondWith(answer(500, 'boom'), answer(500, 'boom again'));
    const first = await t.http.post(FORWARD, order(orderId), { token: orders });
    expect(first.status).toBe(502);
    expect(first.body).toEqual({
      error: 'WEBHOOK_DELIVERY_FAILED',
      message: expect.stringMatching(/answered 500 \(attempt 1\).*not retried/),
    });
    let row = await storedOrder(t, orderId);
    expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhook_attempts: 1 });
    expect(row.webhook_last_response).toMatchObject({ statusCode: 500, body: 'boom', error: 'the receiver answered 500' });
    expect(row.enriched_payload.taxSummary.totals.total_tax).toBe(5.44);

    expect((await t.http.post(FORWARD, order(orderId), { token: orders })).status).toBe(502);
    row = await storedOrder(t, orderId);
    expect(row.webhook_attempts).toBe(2);
    expect(row.webhook_last_response.body).toBe('boom again');
    expect((await deliveries(t, row.id)).map((d: { attempt: number; status_code: number }) => [d.attempt, d.status_code])).toEqual([
      [1, 500],
      [2, 500],
    ]);
    // Retries are off in this app: nothing queued.
    expect(await t.dataSource.query('SELECT * FROM webhook_retry_job WHERE order_db_id = $1', [row.id])).toEqual([]);
  });

  it('counts a 302 as a failure and does not follow it', async () => {
    const orderId = unique('302');
    receiver.respondWith(answer(302, '', { location: receiver.url.replace('/hooks/orders', '/elsewhere') }));
    const response = await t.http.post(FORWARD, order(orderId), { token: orders });
    expect(response.status).toBe(502);
    expect(response.body.message).toMatch(/answered 302/);
    expect(receiver.requests).toHaveLength(1);
    const row = await storedOrder(t, orderId);
    expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhook_attempts: 1 });
    expect(row.webhook_last_response.statusCode).toBe(302);
  });

  it.each([200, 500])('stores only the first 4 KiB of a longer answer body (%s)', async (status) => {
    const orderId = unique(`long-${status}`);
    receiver.respondWith(answer(status, 'y'.repeat(2_000) + 'z'.repeat(200_000)));
    const response = await t.http.post(FORWARD, order(orderId), { token: orders });
    expect(response.status).toBe(status === 200 ? 200 : 502);
    const row = await storedOrder(t, orderId);
    expect(row.webhook_last_response.body).toBe('y'.repeat(2_000) + 'z'.repeat(2_096));
    expect((await deliveries(t, row.id))[0].response_body).toHaveLength(4096);
  });

  it('keeps a 422 a 422 and sends nothing when no fiscal group holds the store', async () => {
    const orderId = unique('422');
    const response = await t.http.post(FORWARD, orderFor(orderId, 'store-without-group'), { token: orders });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe('FISCAL_GROUP_NOT_FOUND');
    expect(receiver.requests).toHaveLength(0);
    expect(await storedOrder(t, orderId)).toMatchObject({ status: 'ENRICHMENT_FAILED', webhook_attempts: 0 });
  });

  it('answers 400 to a body without orderId and sends nothing', async () => {
    const response = await t.http.post(FORWARD, { store: { id: storeId } }, { token: orders });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('VALIDATION_FAILED');
    expect(receiver.requests).toHaveLength(0);
  });

  it('requires the orders scope', async () => {
    expect((await t.http.post(FORWARD, order(unique('scope')), { token: admin })).status).toBe(403);
    expect(receiver.requests).toHaveLength(0);
  });

  it('forwards 50 distinct orders at once: 50 deliveries, each order counted exactly once', async () => {
    const ids = Array.from({ length: 50 }, (_, index) => unique(`burst-${index}`));
    const responses = await Promise.all(ids.map((orderId) => t.http.post(FORWARD, order(orderId), { token: orders })));
    expect(responses.map((response) => response.status)).toEqual(Array(50).fill(200));
    expect(receiver.requests.map((request) => JSON.parse(request.body).orderId).sort()).toEqual([...ids].sort());
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(50);
    const rows = await t.dataSource.query(
      `SELECT o.webhook_attempts, o.status, (SELECT count(*)::int FROM webhook_delivery d WHERE d.order_db_id = o.id) AS logged
       FROM orders o WHERE o.order_id = ANY($1)`,
      [ids],
    );
    expect(rows).toHaveLength(50);
    expect(
      rows.every((row: { webhook_attempts: number; status: string; logged: number }) => row.webhook_attempts === 1 && row.logged === 1),
    ).toBe(true);
    expect(rows.every((row: { status: string }) => row.status === 'FORWARDED')).toBe(true);
  });

  describe('POST /api/admin/orders/{id}/redeliver', () => {
    const redeliver = (id: string, token = admin) => t.http.post(`/admin/orders/${encodeURIComponent(id)}/redeliver`, undefined, { token });

    it('sends the stored enriched payload again with the same webhook-id, counted and logged as redeliver', async () => {
      const orderId = unique('redeliver');
      expect((await t.http.post(FORWARD, order(orderId), { token: orders })).status).toBe(200);
      const row = await storedOrder(t, orderId);

      const byOrderId = await redeliver(orderId);
      expect(byOrderId.status).toBe(200);
      expect(byOrderId.body).toEqual({
        message: expect.stringMatching(new RegExp(`Order ${orderId} redelivered: the webhook answered 200 \\(attempt 2\\)`)),
      });
      const byUuid = await redeliver(row.id);
      expect(byUuid.status).toBe(200);

      expect(receiver.requests).toHaveLength(3);
      const [forwarded, again, third] = receiver.requests;
      expect(again!.headers['webhook-id']).toBe(forwarded!.headers['webhook-id']);
      expect(third!.headers['webhook-id']).toBe(forwarded!.headers['webhook-id']);
      expect(JSON.parse(again!.body)).toEqual(JSON.parse(forwarded!.body));
      expect(verifySignature(SECRET, again!.headers, again!.raw)).toBe(true);

      const after = await storedOrder(t, orderId);
      expect(after).toMatchObject({ webhook_attempts: 3, status: 'FORWARDED' });
      const log = await deliveries(t, row.id);
      expect(log.map((d: { attempt: number; trigger: string }) => [d.attempt, d.trigger])).toEqual([
        [1, 'forward'],
        [2, 'redeliver'],
        [3, 'redeliver'],
      ]);
      const history = await t.dataSource.query('SELECT via, client_id FROM order_status_history WHERE order_db_id = $1 ORDER BY id', [
        row.id,
      ]);
      expect(history).toHaveLength(2);
      // The order detail shows the delivery log and the last answer.
      const detail = await t.http.get(`/admin/orders/${orderId}`, { token: admin });
      expect(detail.body.webhookAttempts).toBe(3);
      expect(detail.body.webhookLastResponse).toMatchObject({ statusCode: 200, error: null });
      expect(
        detail.body.deliveries.map((d: { attempt: number; trigger: string; statusCode: number; webhookId: string }) => [
          d.attempt,
          d.trigger,
          d.statusCode,
          d.webhookId,
        ]),
      ).toEqual([
        [1, 'forward', 200, forwarded!.headers['webhook-id']],
        [2, 'redeliver', 200, forwarded!.headers['webhook-id']],
        [3, 'redeliver', 200, forwarded!.headers['webhook-id']],
      ]);
      expect(JSON.stringify(detail.body.deliveries)).not.toContain(SECRET);
    });

    it('answers 502 and marks the order FORWARD_FAILED when the webhook refuses the redelivery', async () => {
      const orderId = unique('redeliver-500');
      expect((await t.http.post(FORWARD, order(orderId), { token: orders })).status).toBe(200);
      receiver.respondWith(answer(503, 'maintenance'));
      const response = await redeliver(orderId);
      expect(response.status).toBe(502);
      expect(response.body).toEqual({ error: 'WEBHOOK_DELIVERY_FAILED', message: expect.stringContaining('answered 503 (attempt 2)') });
      const row = await storedOrder(t, orderId);
      expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhook_attempts: 2 });
      const history = await t.dataSource.query('SELECT to_status, via FROM order_status_history WHERE order_db_id = $1 ORDER BY id', [
        row.id,
      ]);
      expect(history.at(-1)).toEqual({ to_status: 'FORWARD_FAILED', via: 'POST /api/admin/orders/:id/redeliver' });
    });

    it('answers 404 for an unknown order and 409 for an order without an enriched payload', async () => {
      expect((await redeliver('00000000-0000-4000-8000-000000000000')).status).toBe(404);
      const unknown = await redeliver('no-such-order');
      expect(unknown.status).toBe(404);
      expect(unknown.body.error).toBe('NOT_FOUND');

      const orderId = unique('unenriched');
      expect((await t.http.post('/enrich-order', orderFor(orderId, 'store-without-group'), { token: orders })).status).toBe(422);
      const conflict = await redeliver(orderId);
      expect(conflict.status).toBe(409);
      expect(conflict.body).toEqual({
        error: 'ORDER_NOT_ENRICHED',
        message: `Order ${orderId} has no enriched payload to send (status ENRICHMENT_FAILED): enrich it first (POST /api/enrich-order or /api/enrich-order-forward)`,
        details: [{ field: 'id', problem: 'the order has no enriched payload', orderId, status: 'ENRICHMENT_FAILED' }],
      });
      expectDeclaredError('POST', '/api/admin/orders/{id}/redeliver', conflict);
      expect(receiver.requests).toHaveLength(0);
    });

    it('requires the admin scope', async () => {
      const orderId = unique('redeliver-scope');
      await t.http.post(FORWARD, order(orderId), { token: orders });
      expect((await redeliver(orderId, orders)).status).toBe(403);
      expect(receiver.requests).toHaveLength(1);
    });
  });

  it('exposes delivery counts and latency in /api/metrics', async () => {
    const metrics = await t.http.get('/metrics');
    expect(metrics.status).toBe(200);
    const delivered = /webhook_deliveries_total\{trigger="forward",outcome="delivered"\} (\d+)/.exec(metrics.text);
    expect(Number(delivered?.[1])).toBeGreaterThanOrEqual(50);
    expect(metrics.text).toMatch(/webhook_deliveries_total\{trigger="forward",outcome="rejected"\} \d+/);
    expect(metrics.text).toMatch(/webhook_delivery_duration_seconds_bucket\{le="0.1",trigger="forward",outcome="delivered"\} \d+/);
    expect(metrics.text).toMatch(/webhook_retry_queue_depth\{state="due"\} 0/);
  });
});

describe('forwarding failures without an answer (e2e)', () => {
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(() => receiver.reset());

  async function withApp(env: Record<string, string>, work: (t: TestApp, orders: string, storeId: string) => Promise<void>) {
    const t = await bootTestApp(env);
    try {
      const storeId = unique('store');
      await seedFiscalData(t.http, await t.tokenFor(['admin']), storeId);
      await work(t, await t.tokenFor(['orders']), storeId);
    } finally {
      await t.close();
    }
  }

  it('gives up on a receiver that hangs after ORDER_WEBHOOK_TIMEOUT_MS (502), and signs with a plain-text secret', async () => {
    await withApp(
      { ORDER_WEBHOOK_URL: receiver.url, ORDER_WEBHOOK_TIMEOUT_MS: '300', ORDER_WEBHOOK_SECRET: 'a plain text secret' },
      async (t, orders, storeId) => {
        // A plain secret signs with its UTF-8 bytes.
        expect((await t.http.post(FORWARD, orderFor(unique('plain'), storeId), { token: orders })).status).toBe(200);
        expect(verifySignature('a plain text secret', receiver.requests[0]!.headers, receiver.requests[0]!.raw)).toBe(true);

        receiver.respondWith(hang);
        const orderId = unique('hang');
        const started = Date.now();
        const response = await t.http.post(FORWARD, orderFor(orderId, storeId), { token: orders });
        const took = Date.now() - started;
        expect(response.status).toBe(502);
        expect(response.body.message).toMatch(/no complete answer within 300 ms/);
        expect(took).toBeGreaterThanOrEqual(300);
        expect(took).toBeLessThan(300 + 1500);
        const row = await storedOrder(t, orderId);
        expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhook_attempts: 1 });
        expect(row.webhook_last_response).toMatchObject({ statusCode: null, body: null, error: 'no complete answer within 300 ms' });
        expect(row.webhook_last_response.durationMs).toBeGreaterThanOrEqual(299);
      },
    );
  });

  it.each([
    ['a refused connection', async () => refusedUrl(), /ECONNREFUSED/],
    ['a host that does not resolve', async () => 'http://no-such-host.invalid/hooks/orders', /ENOTFOUND|EAI_AGAIN|no complete answer/],
  ])('answers 502 for %s and keeps the attempt', async (_label, url, error) => {
    await withApp({ ORDER_WEBHOOK_URL: await url(), ORDER_WEBHOOK_TIMEOUT_MS: '3000' }, async (t, orders, storeId) => {
      const orderId = unique('unreachable');
      const response = await t.http.post(FORWARD, orderFor(orderId, storeId), { token: orders });
      expect(response.status).toBe(502);
      expect(response.body.error).toBe('WEBHOOK_DELIVERY_FAILED');
      const row = await storedOrder(t, orderId);
      expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhook_attempts: 1 });
      expect(row.webhook_last_response.statusCode).toBeNull();
      expect(row.webhook_last_response.error).toMatch(error);
      expect((await deliveries(t, row.id))[0]).toMatchObject({
        trigger: 'forward',
        status_code: null,
        error: row.webhook_last_response.error,
      });
    });
  });

  it('answers 503 WEBHOOK_NOT_CONFIGURED and stores nothing when ORDER_WEBHOOK_URL is unset', async () => {
    await withApp({}, async (t, orders, storeId) => {
      const orderId = unique('unconfigured');
      const response = await t.http.post(FORWARD, orderFor(orderId, storeId), { token: orders });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: 'WEBHOOK_NOT_CONFIGURED', message: expect.stringContaining('ORDER_WEBHOOK_URL') });
      expect(await storedOrder(t, orderId)).toBeUndefined();

      expect((await t.http.post('/enrich-order', orderFor(orderId, storeId), { token: orders })).status).toBe(200);
      const redelivery = await t.http.post(`/admin/orders/${orderId}/redeliver`, undefined, { token: await t.tokenFor(['admin']) });
      expect(redelivery.status).toBe(503);
      expect((await storedOrder(t, orderId)).webhook_attempts).toBe(0);
      expect(receiver.requests).toHaveLength(0);
    });
  });
});
