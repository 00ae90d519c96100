import { randomBytes } from 'node:crypto';
import { In } from 'typeorm';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { failed, ok, type ErrorBody, type Schemas } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { eventually } from '../support/eventually.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { deliveryRows, enrichedPayloadOf, existingOrderRow, orderRow, retryJobOf, statusHistory } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { answer, forwardedPayload, refusedUrl, verifySignature, WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

const forward = (t: TestApp, token: string, body: Schemas['OrderPayloadDto']) => t.apiAs(token).POST('/api/enrich-order-forward', { body });
const stored = (t: TestApp, orderId: string) => existingOrderRow(t.dataSource, orderId);
const deliveries = (t: TestApp, orderId: string) => deliveryRows(t.dataSource, orderId);

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
    const dryRun = ok(await t.apiAs(orders).POST('/api/enrich-order', { body: order(orderId), params: { query: { dryRun: true } } }), 200);

    expect(ok(await forward(t, orders, order(orderId)), 200)).toEqual({
      message: expect.stringContaining(`Order ${orderId} enriched, stored and forwarded`),
    });

    expect(receiver.requests).toHaveLength(1);
    const [received] = receiver.requests;
    expect(received!.method).toBe('POST');
    expect(received!.path).toBe('/hooks/orders');
    // Byte for byte the /enrich-order payload (serialized by the same JSON writer), but for the time of the calculation
    // and the tax instant (each request's receipt: the order carries no createdAt).
    const sent = forwardedPayload(received!);
    const expected = JSON.stringify({
      ...dryRun.payload,
      taxSummary: {
        ...dryRun.payload.taxSummary,
        calculatedAt: sent.taxSummary.calculatedAt,
        fiscalDocument: { ...dryRun.payload.taxSummary.fiscalDocument!, taxInstant: sent.taxSummary.fiscalDocument!.taxInstant },
      },
    });
    expect(received!.body).toBe(expected);
    // Burger 25.90: ICMS 18 % = 4.662 → 4.66; PIS/COFINS base 21.24: 0.13806 → 0.14, 0.6372 → 0.64; total 5.44
    expect(sent.taxSummary.totals.total_tax).toBe(5.44);
    const row = await stored(t, orderId);
    expect(sent).toEqual(row.enrichedPayload);

    expect(received!.headers['content-type']).toBe('application/json');
    expect(received!.headers['user-agent']).toMatch(/^order-tax-service\//);
    expect(received!.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(Math.abs(Number(received!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(received!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verifySignature(SECRET, received!.headers, received!.raw)).toBe(true);
    expect(verifySignature(SECRET, received!.headers, Buffer.from(received!.body.replace('5.44', '5.45')))).toBe(false);
    expect(verifySignature(`whsec_${randomBytes(32).toString('base64')}`, received!.headers, received!.raw)).toBe(false);

    expect(row).toMatchObject({ status: 'FORWARDED', webhookAttempts: 1 });
    expect(row.webhookLastResponse).toEqual({
      statusCode: 200,
      body: 'ok',
      durationMs: expect.any(Number),
      error: null,
      attemptedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const log = await deliveries(t, orderId);
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      attempt: 1,
      trigger: 'forward',
      webhookId: received!.headers['webhook-id'],
      url: receiver.url,
      statusCode: 200,
      responseBody: 'ok',
      error: null,
    });
    expect(log[0]!.requestHeaders).toEqual({
      'content-type': 'application/json',
      'user-agent': received!.headers['user-agent'],
      'webhook-id': received!.headers['webhook-id'],
      'webhook-timestamp': received!.headers['webhook-timestamp'],
      'webhook-signature': received!.headers['webhook-signature'],
    });
    expect(JSON.stringify(log[0])).not.toContain(SECRET.slice(6));

    const history = (await statusHistory(t.dataSource, orderId)).map(({ fromStatus, toStatus, via }) => ({ fromStatus, toStatus, via }));
    expect(history).toEqual([
      { fromStatus: null, toStatus: 'ENRICHED', via: 'POST /api/enrich-order-forward' },
      { fromStatus: 'ENRICHED', toStatus: 'FORWARDED', via: 'POST /api/enrich-order-forward' },
    ]);
  });

  it('sends the enriched payload alone when the body wraps the order under payload', async () => {
    const orderId = unique('wrapped');
    ok(await t.apiAs(orders).POST('/api/enrich-order-forward', { body: { payload: order(orderId) } }), 200);
    const sent = forwardedPayload(receiver.requests[0]!);
    expect(sent.orderId).toBe(orderId);
    expect(sent.payload).toBeUndefined();
    expect(sent.taxSummary.totals.total_tax).toBe(5.44);
  });

  it('answers 502 on a 500, keeps the order stored as FORWARD_FAILED, and counts every attempt', async () => {
    const orderId = unique('500');
    receiver.respondWith(answer(500, 'boom'), answer(500, 'boom again'));
    expect(failed(await forward(t, orders, order(orderId)), 502)).toEqual({
      error: 'WEBHOOK_DELIVERY_FAILED',
      message: expect.stringMatching(/answered 500 \(attempt 1\).*not retried/),
    });
    let row = await stored(t, orderId);
    expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 1 });
    expect(row.webhookLastResponse).toMatchObject({ statusCode: 500, body: 'boom', error: 'the receiver answered 500' });
    expect(enrichedPayloadOf(row).taxSummary.totals.total_tax).toBe(5.44);

    failed(await forward(t, orders, order(orderId)), 502);
    row = await stored(t, orderId);
    expect(row.webhookAttempts).toBe(2);
    expect(row.webhookLastResponse?.body).toBe('boom again');
    expect((await deliveries(t, orderId)).map((d) => [d.attempt, d.statusCode])).toEqual([
      [1, 500],
      [2, 500],
    ]);
    // Retries are off in this app: nothing queued.
    expect(await retryJobOf(t.dataSource, row.id)).toBeNull();
  });

  it('counts a 302 as a failure and does not follow it', async () => {
    const orderId = unique('302');
    receiver.respondWith(answer(302, '', { location: receiver.url.replace('/hooks/orders', '/elsewhere') }));
    expect(failed(await forward(t, orders, order(orderId)), 502).message).toMatch(/answered 302/);
    expect(receiver.requests).toHaveLength(1);
    const row = await stored(t, orderId);
    expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 1 });
    expect(row.webhookLastResponse?.statusCode).toBe(302);
  });

  it.each([200, 500])('stores only the first 4 KiB of a longer answer body (%s)', async (status) => {
    const orderId = unique(`long-${status}`);
    receiver.respondWith(answer(status, 'y'.repeat(2_000) + 'z'.repeat(200_000)));
    const response = await forward(t, orders, order(orderId));
    expect(response.response.status).toBe(status === 200 ? 200 : 502);
    const row = await stored(t, orderId);
    expect(row.webhookLastResponse?.body).toBe('y'.repeat(2_000) + 'z'.repeat(2_096));
    expect((await deliveries(t, orderId))[0]!.responseBody).toHaveLength(4096);
  });

  it('keeps a 422 a 422 and sends nothing when no fiscal group holds the store', async () => {
    const orderId = unique('422');
    expect(failed(await forward(t, orders, orderFor(orderId, 'store-without-group')), 422).error).toBe('FISCAL_GROUP_NOT_FOUND');
    expect(receiver.requests).toHaveLength(0);
    expect(await stored(t, orderId)).toMatchObject({ status: 'ENRICHMENT_FAILED', webhookAttempts: 0 });
  });

  it('answers 400 to a body without orderId and sends nothing', async () => {
    // A body outside the schema: sent raw.
    const response = await t.http.post<ErrorBody>('/enrich-order-forward', { store: { id: storeId } }, { token: orders });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('VALIDATION_FAILED');
    expect(receiver.requests).toHaveLength(0);
  });

  it('requires the orders scope', async () => {
    failed(await forward(t, admin, order(unique('scope'))), 403);
    expect(receiver.requests).toHaveLength(0);
  });

  it('forwards 50 distinct orders at once: 50 deliveries, each order counted exactly once', async () => {
    const ids = Array.from({ length: 50 }, (_, index) => unique(`burst-${index}`));
    const responses = await Promise.all(ids.map((orderId) => forward(t, orders, order(orderId))));
    expect(responses.map(({ response }) => response.status)).toEqual(Array(50).fill(200));
    expect(receiver.requests.map((request) => forwardedPayload(request).orderId).sort()).toEqual([...ids].sort());
    expect(new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size).toBe(50);
    const rows = await t.dataSource.getRepository(OrderEntity).findBy({ orderId: In(ids) });
    expect(rows).toHaveLength(50);
    expect(rows.every((row) => row.webhookAttempts === 1 && row.status === 'FORWARDED')).toBe(true);
    const logged = await t.dataSource.getRepository(WebhookDeliveryEntity).countBy({ orderDbId: In(rows.map((row) => row.id)) });
    expect(logged).toBe(50);
  });

  describe('POST /api/admin/orders/{id}/redeliver', () => {
    const redeliver = (id: string, token = admin) => t.apiAs(token).POST('/api/admin/orders/{id}/redeliver', { params: { path: { id } } });

    it('sends the stored enriched payload again with the same webhook-id, counted and logged as redeliver', async () => {
      const orderId = unique('redeliver');
      ok(await forward(t, orders, order(orderId)), 200);
      const row = await stored(t, orderId);

      expect(ok(await redeliver(orderId), 200)).toEqual({
        message: expect.stringMatching(new RegExp(`Order ${orderId} redelivered: the webhook answered 200 \\(attempt 2\\)`)),
        // What the console says in the reader's language, as fields rather than the English sentence.
        webhookStatusCode: 200,
        attempt: 2,
      });
      ok(await redeliver(row.id), 200);

      expect(receiver.requests).toHaveLength(3);
      const [forwarded, again, third] = receiver.requests;
      expect(again!.headers['webhook-id']).toBe(forwarded!.headers['webhook-id']);
      expect(third!.headers['webhook-id']).toBe(forwarded!.headers['webhook-id']);
      expect(forwardedPayload(again!)).toEqual(forwardedPayload(forwarded!));
      expect(verifySignature(SECRET, again!.headers, again!.raw)).toBe(true);

      const after = await stored(t, orderId);
      expect(after).toMatchObject({ webhookAttempts: 3, status: 'FORWARDED' });
      const log = await deliveries(t, orderId);
      expect(log.map((d) => [d.attempt, d.trigger])).toEqual([
        [1, 'forward'],
        [2, 'redeliver'],
        [3, 'redeliver'],
      ]);
      expect(await statusHistory(t.dataSource, orderId)).toHaveLength(2);
      // The order detail shows the delivery log and the last answer.
      const detail = ok(await t.apiAs(admin).GET('/api/admin/orders/{id}', { params: { path: { id: orderId } } }), 200);
      expect(detail.webhookAttempts).toBe(3);
      expect(detail.webhookLastResponse).toMatchObject({ statusCode: 200, error: null });
      expect(detail.deliveries.map((d) => [d.attempt, d.trigger, d.statusCode, d.webhookId])).toEqual([
        [1, 'forward', 200, forwarded!.headers['webhook-id']],
        [2, 'redeliver', 200, forwarded!.headers['webhook-id']],
        [3, 'redeliver', 200, forwarded!.headers['webhook-id']],
      ]);
      expect(JSON.stringify(detail.deliveries)).not.toContain(SECRET);
    });

    it('answers 502 and marks the order FORWARD_FAILED when the webhook refuses the redelivery', async () => {
      const orderId = unique('redeliver-500');
      ok(await forward(t, orders, order(orderId)), 200);
      receiver.respondWith(answer(503, 'maintenance'));
      expect(failed(await redeliver(orderId), 502)).toEqual({
        error: 'WEBHOOK_DELIVERY_FAILED',
        message: expect.stringContaining('answered 503 (attempt 2)'),
      });
      expect(await stored(t, orderId)).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 2 });
      expect((await statusHistory(t.dataSource, orderId)).at(-1)).toMatchObject({
        toStatus: 'FORWARD_FAILED',
        via: 'POST /api/admin/orders/:id/redeliver',
      });
    });

    it('answers 404 for an unknown order and 409 for an order without an enriched payload', async () => {
      failed(await redeliver('00000000-0000-4000-8000-000000000000'), 404);
      expect(failed(await redeliver('no-such-order'), 404).error).toBe('NOT_FOUND');

      const orderId = unique('unenriched');
      failed(await t.apiAs(orders).POST('/api/enrich-order', { body: orderFor(orderId, 'store-without-group') }), 422);
      const conflict = failed(await redeliver(orderId), 409);
      expect(conflict).toEqual({
        error: 'ORDER_NOT_ENRICHED',
        message: `Order ${orderId} has no enriched payload to send (status ENRICHMENT_FAILED): enrich it first (POST /api/enrich-order or /api/enrich-order-forward)`,
        details: [{ field: 'id', problem: 'the order has no enriched payload', orderId, status: 'ENRICHMENT_FAILED' }],
      });
      expectDeclaredError('POST', '/api/admin/orders/{id}/redeliver', { status: 409, body: conflict });
      expect(receiver.requests).toHaveLength(0);
    });

    it('requires the admin scope', async () => {
      const orderId = unique('redeliver-scope');
      ok(await forward(t, orders, order(orderId)), 200);
      failed(await redeliver(orderId, orders), 403);
      expect(receiver.requests).toHaveLength(1);
    });
  });

  it('exposes delivery counts and latency in /api/metrics', async () => {
    // Prometheus text: read raw.
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
        ok(await forward(t, orders, orderFor(unique('plain'), storeId)), 200);
        expect(verifySignature('a plain text secret', receiver.requests[0]!.headers, receiver.requests[0]!.raw)).toBe(true);

        // The receiver never answers: the service gives up with a 502 and closes the connection (how soon: bench:receiver-faults).
        let dropped = false;
        receiver.respondWith((_request, response) => response.once('close', () => (dropped = true)));
        const orderId = unique('hang');
        const response = await forward(t, orders, orderFor(orderId, storeId));
        expect(failed(response, 502).message).toMatch(/no complete answer within 300 ms/);
        await eventually(() => dropped, { what: 'the service to close the hung connection' });
        const row = await stored(t, orderId);
        expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 1 });
        expect(row.webhookLastResponse).toMatchObject({ statusCode: null, body: null, error: 'no complete answer within 300 ms' });
        expect(row.webhookLastResponse?.durationMs).toBeGreaterThanOrEqual(299);
      },
    );
  });

  it.each([
    ['a refused connection', async () => refusedUrl(), /ECONNREFUSED/],
    ['a host that does not resolve', async () => 'http://no-such-host.invalid/hooks/orders', /ENOTFOUND|EAI_AGAIN|no complete answer/],
  ])('answers 502 for %s and keeps the attempt', async (_label, url, error) => {
    await withApp({ ORDER_WEBHOOK_URL: await url(), ORDER_WEBHOOK_TIMEOUT_MS: '3000' }, async (t, orders, storeId) => {
      const orderId = unique('unreachable');
      expect(failed(await forward(t, orders, orderFor(orderId, storeId)), 502).error).toBe('WEBHOOK_DELIVERY_FAILED');
      const row = await stored(t, orderId);
      expect(row).toMatchObject({ status: 'FORWARD_FAILED', webhookAttempts: 1 });
      expect(row.webhookLastResponse?.statusCode).toBeNull();
      expect(row.webhookLastResponse?.error).toMatch(error);
      expect((await deliveries(t, orderId))[0]).toMatchObject({
        trigger: 'forward',
        statusCode: null,
        error: row.webhookLastResponse?.error,
      });
    });
  });

  it('answers 503 WEBHOOK_NOT_CONFIGURED and stores nothing when ORDER_WEBHOOK_URL is unset', async () => {
    await withApp({}, async (t, orders, storeId) => {
      const orderId = unique('unconfigured');
      expect(failed(await forward(t, orders, orderFor(orderId, storeId)), 503)).toEqual({
        error: 'WEBHOOK_NOT_CONFIGURED',
        message: expect.stringContaining('ORDER_WEBHOOK_URL'),
      });
      expect(await orderRow(t.dataSource, orderId)).toBeNull();

      ok(await t.apiAs(orders).POST('/api/enrich-order', { body: orderFor(orderId, storeId) }), 200);
      const admin = t.apiAs(await t.tokenFor(['admin']));
      failed(await admin.POST('/api/admin/orders/{id}/redeliver', { params: { path: { id: orderId } } }), 503);
      expect((await stored(t, orderId)).webhookAttempts).toBe(0);
      expect(receiver.requests).toHaveLength(0);
    });
  });
});
