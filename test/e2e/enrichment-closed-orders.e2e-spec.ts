import { randomBytes } from 'node:crypto';
import { failed, ok, type Schemas } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { bootFulfillmentApp, fulfillmentSteps, NO_GROUP, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { unique } from '../support/orders.js';
import { auditEventsOf } from '../support/audit.js';
import { deliveryRows, retryJobOf } from '../support/rows.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Closed orders are closed: a re-send of an order stored as DELIVERED, CANCELLED or REJECTED to either enrichment route
 * is 409 ORDER_CLOSED, with nothing stored and nothing sent; a dry run still computes.
 *
 * The order: one f-burger of 25.90 in Pinheiros (group A, ICMS 18 %): ICMS 25.90 × 18 % = 4.662 → 4.66;
 * PIS/COFINS base 25.90 − 4.66 = 21.24; PIS 21.24 × 0.65 % = 0.13806 → 0.14; COFINS 21.24 × 3 % = 0.6372 → 0.64;
 * total 4.66 + 0.14 + 0.64 = 5.44.
 */
describe('A re-send of a closed order (e2e)', () => {
  let receiver: WebhookReceiver;
  let f: FulfillmentApp;
  const steps = fulfillmentSteps(() => f);

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    f = await bootFulfillmentApp({
      ORDER_WEBHOOK_URL: receiver.url,
      ORDER_WEBHOOK_SECRET: `whsec_${randomBytes(32).toString('base64')}`,
      ORDER_WEBHOOK_TIMEOUT_MS: '5000',
    });
  });
  afterAll(async () => {
    await f.t.close();
    await receiver.close();
  });
  beforeEach(() => receiver.reset());

  const burgerOrder = (orderId: string, storeId = PINHEIROS): Schemas['OrderPayloadDto'] => ({
    orderId,
    store: { id: storeId },
    customer: { name: 'Changed by the re-send' },
    order: { products: [{ productId: 'f-burger', quantity: 2, price: { totalPrice: { total: 51.8 } } }] },
  });
  const enrich = (body: Schemas['OrderPayloadDto'], dryRun = false) =>
    f.t.apiAs(f.orders).POST('/api/enrich-order', { body, params: { query: dryRun ? { dryRun: true } : {} } });
  const forward = (body: Schemas['OrderPayloadDto']) => f.t.apiAs(f.orders).POST('/api/enrich-order-forward', { body });

  /** An order enriched in Pinheiros (one burger, 25.90), then closed by the point of sale. */
  async function closedOrder(prefix: string, status: 'DELIVERED' | 'CANCELLED' | 'REJECTED'): Promise<string> {
    const orderId = unique(prefix);
    await steps.enrichedOrder(orderId);
    await steps.setStatus(orderId, status);
    return orderId;
  }

  it.each(['DELIVERED', 'CANCELLED', 'REJECTED'] as const)(
    'POST /api/enrich-order of a %s order answers 409 ORDER_CLOSED and stores nothing',
    async (status) => {
      const orderId = await closedOrder('closed-enrich', status);
      const before = await steps.row(orderId);
      const history = await steps.history(orderId);

      const refused = failed(await enrich(burgerOrder(orderId)), 409);
      expect(refused).toEqual({
        error: 'ORDER_CLOSED',
        message: `Order ${orderId} is closed (${status}); nothing was stored or sent`,
        details: [{ field: 'orderId', problem: `the order is closed (${status})`, orderId, status }],
      });
      expectDeclaredError('POST', '/api/enrich-order', { status: 409, body: refused });
      expect(await steps.row(orderId)).toEqual(before);
      expect(await steps.history(orderId)).toEqual(history);
    },
  );

  it('refuses a re-send to a store without fiscal group too, without storing it as ENRICHMENT_FAILED', async () => {
    const orderId = await closedOrder('closed-nogroup', 'DELIVERED');
    const before = await steps.row(orderId);

    expect(failed(await enrich(burgerOrder(orderId, NO_GROUP)), 409).error).toBe('ORDER_CLOSED');
    expect(await steps.row(orderId)).toEqual(before);
  });

  it('POST /api/enrich-order-forward of a closed order answers 409 ORDER_CLOSED, sends nothing and queues no retry', async () => {
    const orderId = await closedOrder('closed-forward', 'CANCELLED');
    const before = await steps.row(orderId);

    const refused = failed(await forward(burgerOrder(orderId)), 409);
    expect(refused).toMatchObject({ error: 'ORDER_CLOSED', details: [{ orderId, status: 'CANCELLED' }] });
    expectDeclaredError('POST', '/api/enrich-order-forward', { status: 409, body: refused });
    expect(await steps.row(orderId)).toEqual(before);
    expect(receiver.requests).toHaveLength(0);
    expect(await deliveryRows(f.t.dataSource, orderId)).toHaveLength(0);
    expect(await retryJobOf(f.t.dataSource, before.id)).toBeNull();
  });

  it('a dry run of a closed order still computes and answers as usual, storing nothing', async () => {
    const orderId = await closedOrder('closed-dry', 'DELIVERED');
    const before = await steps.row(orderId);

    const dry = ok(await enrich(burgerOrder(orderId), true), 200);
    // Two burgers, 51.80: ICMS 51.80 × 18 % = 9.324 → 9.32; base 51.80 − 9.32 = 42.48;
    // PIS 42.48 × 0.65 % = 0.27612 → 0.28; COFINS 42.48 × 3 % = 1.2744 → 1.27; total 9.32 + 0.28 + 1.27 = 10.87.
    expect(dry.orderDbId).toBeNull();
    expect(dry.payload.taxSummary.totals).toMatchObject({ ICMS_value: 9.32, PIS_value: 0.28, COFINS_value: 1.27, total_tax: 10.87 });
    expect(await steps.row(orderId)).toEqual(before);
  });

  it('an open order is re-sent as before', async () => {
    const orderId = unique('open-resend');
    await steps.enrichedOrder(orderId);
    await steps.setStatus(orderId, 'READY');

    ok(await enrich(burgerOrder(orderId)), 200);
    expect((await steps.row(orderId)).payload).toMatchObject({ customer: { name: 'Changed by the re-send' } });
  });

  it('a redelivery of a closed order is sent as before and audited as redeliver-closed; of an open one, as redeliver', async () => {
    const admin = await f.t.tokenFor(['admin']);
    const redeliver = (orderId: string) => f.t.apiAs(admin).POST('/api/admin/orders/{id}/redeliver', { params: { path: { id: orderId } } });
    const closed = await closedOrder('closed-redeliver', 'DELIVERED');
    const open = unique('open-redeliver');
    await steps.enrichedOrder(open);

    ok(await redeliver(closed), 200);
    ok(await redeliver(open), 200);

    expect(receiver.requests).toHaveLength(2);
    const actions = async (orderId: string) =>
      (await auditEventsOf(f.t.dataSource, 'order', orderId)).map((event) => [event.action, event.changes]);
    expect(await actions(closed)).toEqual([
      ['change-status', { status: { before: 'ENRICHED', after: 'DELIVERED' } }],
      ['redeliver-closed', { webhookAttempts: { before: 0, after: 1 } }],
    ]);
    expect(await actions(open)).toEqual([
      ['redeliver', { webhookAttempts: { before: 0, after: 1 }, status: { before: 'ENRICHED', after: 'FORWARDED' } }],
    ]);
  });
});
