import { NINETY_NINE_FOOD_ORDER_EXAMPLE } from '../../src/enrichment/ninety-nine-food/ninety-nine-food-order-example.js';
import { KEETA_ORDER_EXAMPLE, OPEN_DELIVERY_ORDER_EXAMPLE } from '../../src/enrichment/open-delivery/open-delivery-order-example.js';
import { RAPPI_ORDER_EXAMPLE } from '../../src/enrichment/rappi/rappi-order-example.js';
import type { ErrorBody } from '../support/api.js';
import { existingOrderRow, orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { forwardedPayload, WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * `?profile=rappi|99food|opendelivery|keeta` through the whole service, on the demo store and products: each
 * marketplace's example is mapped, taxed, stored and forwarded; notices are 422 NOT_AN_ORDER; 19-digit ids sent as
 * JSON numbers keep every digit; hostile documents are a 400 or a 422, never a 5xx.
 */
type Json = Record<string, any>;

const cents = (value: number | undefined) => Math.round((value ?? 0) * 100);
const netCents = (payload: Json) =>
  (payload.order.products as Json[])
    .flatMap((line) => [line, ...((line.modifierGroups ?? []) as Json[]).flatMap((group) => group.selectedModifiers as Json[])])
    .reduce((sum, item) => sum + cents(item.tax?.netAmount ?? item.tax?.ICMS_base), 0);
const sum = (entries: Array<{ amount: number }> | undefined) => (entries ?? []).reduce((total, entry) => total + cents(entry.amount), 0);

describe('POST /api/enrich-order?profile=<marketplace> (e2e)', () => {
  let t: TestApp;
  let orders: string;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ SEED_DEMO_DATA: 'true', ORDER_WEBHOOK_URL: receiver.url, WEBHOOK_RETRY_ENABLED: 'false' });
    orders = await t.tokenFor(['orders']);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const enrich = (profile: string, body: unknown, query: Record<string, string | boolean> = {}) =>
    t.http.post<Json>('/enrich-order', body, { token: orders, query: { profile, ...query } });

  it.each([
    // 25.90 × 2 + 3.50 × 1 × 2 + 6.50 × 2 = 71.80; − 5.00 (the store's, on the burger) + 7.90 (the store delivers) = 74.70.
    // Rappi's 2.00 off shipping is paid back to the store; its 1.99 service fee is its own.
    ['rappi', RAPPI_ORDER_EXAMPLE, 7470, 200, 199],
    // 2590 × 2 + 350 × 1 × 2 + 650 = 6530 cents; − 400 (the store's share of the coupon) = 6130; 99Food delivers.
    // 99Food's 600 of the coupon is paid back; its 199 service fee is its own.
    ['99food', NINETY_NINE_FOOD_ORDER_EXAMPLE, 6130, 600, 199],
    // 25.90 × 2 + 3.50 × 1 × 2 + 14.90 = 73.70; − 6.00 (MERCHANT) + 8.90 (received by the merchant) = 76.60.
    ['opendelivery', OPEN_DELIVERY_ORDER_EXAMPLE, 7660, 400, 199],
    ['keeta', KEETA_ORDER_EXAMPLE, 7660, 400, 199],
  ])('%s: its example is mapped and taxed on a dry run, nothing stored', async (profile, example, net, paidBack, platformFee) => {
    const response = await enrich(profile, example, { dryRun: true });
    expect(response.status).toBe(200);
    const payload = response.body.payload as Json;
    expect(payload.store.id).toBe('demo-store-1');
    expect(payload.source).toBe(profile);
    expect(netCents(payload)).toBe(net);
    expect(sum(payload.taxSummary.thirdPartyPayments)).toBe(paidBack);
    expect(sum((payload.taxSummary.outsideInvoice as Json[]).filter((entry) => entry.kind === 'OTHER_CHARGE') as never)).toBe(platformFee);
    expect(payload.taxSummary.warnings).toEqual([]);
    expect(payload.sourceOrder).toEqual(profile === 'keeta' ? OPEN_DELIVERY_ORDER_EXAMPLE : example);
    expect(await orderRow(t.dataSource, response.body.orderId as string)).toBeNull();
  });

  it('stores and forwards a Rappi order, its own document under sourceOrder', async () => {
    const response = await t.http.post<Json>('/enrich-order-forward', RAPPI_ORDER_EXAMPLE, { token: orders, query: { profile: 'rappi' } });
    expect(response.status).toBe(200);
    const row = await existingOrderRow(t.dataSource, '392625');
    expect(row.status).toBe('FORWARDED');
    expect(row.source).toBe('rappi');
    const sent = forwardedPayload(receiver.requests.at(-1)!) as Json;
    expect(sent.sourceOrder).toEqual(RAPPI_ORDER_EXAMPLE);
  });

  it('keeps a 99Food id of 19 digits sent as a JSON number, in the answer and the stored row', async () => {
    const raw = JSON.stringify(NINETY_NINE_FOOD_ORDER_EXAMPLE).replaceAll('"1152921547153933576"', '1152921547153933576');
    const response = await t.http.post<Json>('/enrich-order', undefined, {
      token: orders,
      query: { profile: '99food' },
      raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(response.body.orderId).toBe('1152921547153933576');
    expect((await existingOrderRow(t.dataSource, '1152921547153933576')).storeId).toBe('demo-store-1');
  });

  it('answers a notice with 422 NOT_AN_ORDER naming the field, nothing stored', async () => {
    const notice = await t.http.post<ErrorBody>(
      '/enrich-order',
      { ...RAPPI_ORDER_EXAMPLE, action: 'NEW_ORDER_SCHEDULED' },
      {
        token: orders,
        query: { profile: 'rappi' },
      },
    );
    expect(notice.status).toBe(422);
    expect(notice.body).toMatchObject({ error: 'NOT_AN_ORDER', details: [{ field: 'action' }] });
    const event = await enrich('opendelivery', { eventId: 'e-1', eventType: 'CANCELLED', orderId: 'x' });
    expect(event.status).toBe(422);
  });

  it("answers a 400 in the marketplace's words, and an order error found after mapping too", async () => {
    const broken = structuredClone(OPEN_DELIVERY_ORDER_EXAMPLE) as Json;
    broken.items[1].unitPrice = { value: 'NaN', currency: 'BRL' };
    const answer = await enrich('opendelivery', broken, { dryRun: true });
    expect(answer.status).toBe(400);
    expect((answer.body as ErrorBody).details).toEqual([expect.objectContaining({ field: 'items[1].unitPrice.value' })]);
  });

  describe('hostile documents: a 400 or a 422, never a 5xx', () => {
    it('10,000 options on one item: ORDER_TOO_LARGE naming the items in the document', async () => {
      const huge = structuredClone(OPEN_DELIVERY_ORDER_EXAMPLE) as Json;
      huge.items[0].options = Array.from({ length: 10_000 }, (_, index) => ({
        id: `o-${index}`,
        quantity: 1,
        unitPrice: { value: 0.01, currency: 'BRL' },
      }));
      const answer = await enrich('opendelivery', huge, { dryRun: true });
      expect(answer.status).toBe(422);
      expect((answer.body as ErrorBody).error).toBe('ORDER_TOO_LARGE');
      expect((answer.body as ErrorBody).details![0]!.field).toBe('items');
    });

    it.each([
      ['deep nesting', () => `${JSON.stringify(RAPPI_ORDER_EXAMPLE).slice(0, -1)},"extra":${'['.repeat(50_000)}${']'.repeat(50_000)}}`],
      ['numbers as text', () => JSON.stringify(RAPPI_ORDER_EXAMPLE).replace('"price":25.9', '"price":"twenty"')],
      ['1e308', () => JSON.stringify(RAPPI_ORDER_EXAMPLE).replace('"price":25.9', '"price":1e308')],
      ['NaN', () => JSON.stringify(RAPPI_ORDER_EXAMPLE).replace('"price":25.9', '"price":NaN')],
      [
        'an id past 2^53 as a number',
        () => JSON.stringify(RAPPI_ORDER_EXAMPLE).replace('"order_id":"392625"', '"order_id":98765432109876543210'),
      ],
    ])('%s', async (_case, body) => {
      const answer = await t.http.post<Json>('/enrich-order', undefined, {
        token: orders,
        query: { profile: 'rappi', dryRun: true },
        raw: body(),
        headers: { 'content-type': 'application/json' },
      });
      expect(answer.status).toBeLessThan(500);
      if (answer.status === 200) expect(answer.body.orderId).toBe('98765432109876543210');
      else expect([400, 413, 422]).toContain(answer.status);
    });
  });
});
