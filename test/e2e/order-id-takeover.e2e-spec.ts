import { OrderEntity } from '../../src/orders/order.entity.js';
import { failed, ok, type Schemas } from '../support/api.js';
import { auditEventsOf } from '../support/audit.js';
import { clientToken } from '../support/http.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { existingOrderRow, statusHistory, trackingRows } from '../support/rows.js';
import { orderTracking } from '../factories/index.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const SQUATTER_STORE = '162';
const PLATFORM_STORE = '164';

/** The webhook keeps properties it does not describe, `store` among them. */
const newOrder = (orderId: string, storeId: string): Schemas['NewOrderRequestDto'] =>
  ({
    order_id: orderId,
    status: 'NEW',
    store: { id: storeId },
    customer: { id: 'CUST-1', name: 'Ana Souza', email: 'ana.souza@example.com.br' },
    items: [{ product_id: 'rel-burger', quantity: 1, price: 25.9 }],
    total: 25.9,
  }) as Schemas['NewOrderRequestDto'];

/**
 * A store cannot squat another store's order id: an orderId that a store-limited client stored first under its own
 * store is taken by the platform's order for another store; the earlier order moves to `<orderId>#moved-<n>`, REJECTED,
 * with its history, audited and counted.
 */
describe('the platform takes an order id a store-limited client stored first (e2e)', () => {
  let t: TestApp;
  let platform: string;
  let squatter: { clientId: string; token: string };

  const rows = (orderId: string) => t.dataSource.getRepository(OrderEntity).countBy({ orderId });
  const enrich = (token: string, body: Schemas['OrderPayloadDto']) => t.apiAs(token).POST('/api/enrich-order', { body });
  const takenCount = async () => {
    // Prometheus text: read raw.
    const metrics = await t.http.get('/metrics');
    return [...metrics.text.matchAll(/^order_ids_taken_total\{via="[^"]*"\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  };
  /** The squatter's order, stored first under its own store; its database id. */
  const squat = async (orderId: string) => String(ok(await enrich(squatter.token, orderFor(orderId, SQUATTER_STORE)), 200).orderDbId);

  beforeAll(async () => {
    // The forward's receiver never answers: a forward is stored as FORWARD_FAILED and answered 502, as usual.
    t = await bootTestApp({ ORDER_WEBHOOK_URL: 'http://127.0.0.1:9/orders', WEBHOOK_RETRY_ENABLED: 'false' });
    await seedFiscalData(t.http, await t.adminToken(), SQUATTER_STORE);
    await seedFiscalData(t.http, await t.adminToken(), PLATFORM_STORE);
    platform = await t.tokenFor(['orders', 'platform']);
    const created = ok(
      await t.api.POST('/api/admin/clients', { body: { name: `POS ${unique('squatter')}`, scopes: ['orders'], stores: [SQUATTER_STORE] } }),
      201,
    );
    squatter = { clientId: created.clientId, token: await clientToken(t.http, created.clientId, created.secret) };
  });
  afterAll(async () => {
    await t.close();
  });

  /** The moved order: the squatter's row under the derived id, REJECTED, its history with it; and the audit event. */
  const expectMoved = async (orderId: string, squattedDbId: string, n = 1) => {
    const moved = await existingOrderRow(t.dataSource, `${orderId}#moved-${n}`);
    expect(moved).toMatchObject({ id: squattedDbId, storeId: SQUATTER_STORE, status: 'REJECTED', intakeClientId: squatter.clientId });
    expect((await statusHistory(t.dataSource, `${orderId}#moved-${n}`)).map((row) => row.toStatus)).toEqual(['ENRICHED', 'REJECTED']);
    const events = await auditEventsOf(t.dataSource, 'order', orderId);
    expect(events).toEqual([
      expect.objectContaining({
        action: 'take-order-id',
        actorType: 'client',
        changes: {
          orderId: { before: orderId, after: `${orderId}#moved-${n}` },
          status: { before: 'ENRICHED', after: 'REJECTED' },
          storeId: { before: SQUATTER_STORE, after: PLATFORM_STORE },
          clientId: { before: squatter.clientId, after: expect.any(String) },
        },
      }),
    ]);
  };

  it('enrich-order: the platform’s order is stored and answered as usual; the squatter’s moves to <orderId>#moved-1', async () => {
    const orderId = unique('taken-enrich');
    const squattedDbId = await squat(orderId);
    // A fulfillment record of the squatter's order: it refers to the order's database id, and moves with it.
    const tracking = await orderTracking(t.dataSource, { orderDbId: squattedDbId });
    const before = await takenCount();
    const dashboard = async () =>
      ok(await t.api.GET('/api/admin/stats/order-ids-taken', { params: { query: { range: '24h' } } }), 200).count;
    const shownBefore = await dashboard();

    const answer = ok(await enrich(platform, orderFor(orderId, PLATFORM_STORE)), 200);
    // Burger 25.90 + cola 6.00 on the seeded matrix (ICMS 18 %): total tax 5.44, as orderFor's comment works out.
    expect(answer.payload.taxSummary.totals.total_tax).toBe(5.44);
    expect(answer.orderDbId).not.toBe(squattedDbId);
    expect(await existingOrderRow(t.dataSource, orderId)).toMatchObject({
      id: answer.orderDbId,
      storeId: PLATFORM_STORE,
      status: 'ENRICHED',
      intakeClientId: null,
    });
    await expectMoved(orderId, squattedDbId);
    expect((await trackingRows(t.dataSource, `${orderId}#moved-1`)).map((row) => row.id)).toEqual([tracking.id]);
    expect(await trackingRows(t.dataSource, orderId)).toEqual([]);
    expect(await takenCount()).toBe(before + 1);
    expect(await dashboard()).toBe(shownBefore + 1);

    // The squatter cannot touch the id any more.
    expect(failed(await enrich(squatter.token, orderFor(orderId, SQUATTER_STORE)), 403).error).toBe('STORE_NOT_ALLOWED');
  });

  it('enrich-order-forward: the platform’s order takes the id and is forwarded as usual', async () => {
    const orderId = unique('taken-forward');
    const squattedDbId = await squat(orderId);
    const answer = await t.apiAs(platform).POST('/api/enrich-order-forward', { body: orderFor(orderId, PLATFORM_STORE) });
    expect(answer.response.status).toBe(502);
    expect(await existingOrderRow(t.dataSource, orderId)).toMatchObject({
      storeId: PLATFORM_STORE,
      status: 'FORWARD_FAILED',
      webhookAttempts: 1,
    });
    await expectMoved(orderId, squattedDbId);
  });

  it('the new-order webhook: stores the platform’s order (it answered 200 OK and stored nothing before)', async () => {
    const orderId = unique('taken-hook');
    const squattedDbId = await squat(orderId);
    const answer = await t.apiAs(platform).POST('/api/domain-cliente/webhook/new-order', { body: newOrder(orderId, PLATFORM_STORE) });
    expect(ok(answer, 200)).toEqual({ status: 'OK' });
    expect(await existingOrderRow(t.dataSource, orderId)).toMatchObject({ storeId: PLATFORM_STORE, source: 'platform-webhook' });
    await expectMoved(orderId, squattedDbId);
    // A repeat of the platform's delivery is a repeat: nothing moves again.
    expect(
      ok(await t.apiAs(platform).POST('/api/domain-cliente/webhook/new-order', { body: newOrder(orderId, PLATFORM_STORE) }), 200),
    ).toEqual({
      status: 'OK',
    });
    expect(await rows(`${orderId}#moved-2`)).toBe(0);
  });

  it('moves the order once when the platform sends it several times at once, through every route', async () => {
    const orderId = unique('taken-at-once');
    const squattedDbId = await squat(orderId);
    const hook = () => t.apiAs(platform).POST('/api/domain-cliente/webhook/new-order', { body: newOrder(orderId, PLATFORM_STORE) });
    const sends = [0, 1, 2, 3, 4, 5, 6, 7].map((n) => (n % 4 === 2 ? hook() : enrich(platform, orderFor(orderId, PLATFORM_STORE))));
    const answers = await Promise.all(sends);
    expect(answers.map((answer) => answer.response.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    expect(await rows(orderId)).toBe(1);
    expect((await existingOrderRow(t.dataSource, orderId)).storeId).toBe(PLATFORM_STORE);
    await expectMoved(orderId, squattedDbId);
    expect(await rows(`${orderId}#moved-2`)).toBe(0);
  });

  it('takes the first free derived id', async () => {
    const orderId = unique('taken-twice');
    // The squatter also holds the first derived id: the move takes the next one.
    await squat(`${orderId}#moved-1`);
    const squattedDbId = await squat(orderId);
    ok(await enrich(platform, orderFor(orderId, PLATFORM_STORE)), 200);
    await expectMoved(orderId, squattedDbId, 2);
  });

  it('moves nothing when the platform sends the order for the squatter’s own store: a re-send as usual', async () => {
    const orderId = unique('same-store');
    const squattedDbId = await squat(orderId);
    const answer = ok(await enrich(platform, orderFor(orderId, SQUATTER_STORE)), 200);
    expect(answer.orderDbId).toBe(squattedDbId);
    expect(await existingOrderRow(t.dataSource, orderId)).toMatchObject({ storeId: SQUATTER_STORE, intakeClientId: null });
    expect(await rows(`${orderId}#moved-1`)).toBe(0);
    expect(await auditEventsOf(t.dataSource, 'order', orderId)).toEqual([]);
  });

  it('leaves an order the platform stored first to the usual rules: another store’s client gets 403', async () => {
    const orderId = unique('platform-first');
    ok(await enrich(platform, orderFor(orderId, PLATFORM_STORE)), 200);
    expect(failed(await enrich(squatter.token, orderFor(orderId, SQUATTER_STORE)), 403).error).toBe('STORE_NOT_ALLOWED');
    expect((await existingOrderRow(t.dataSource, orderId)).storeId).toBe(PLATFORM_STORE);
  });
});
