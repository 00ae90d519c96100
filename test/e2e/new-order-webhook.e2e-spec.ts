import { OrderEntity } from '../../src/orders/order.entity.js';
import { failed, ok, type Schemas } from '../support/api.js';
import { clientIdOf } from '../support/fulfillment.js';
import { existingOrderRow, orderRow, statusHistory } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const PATH = '/domain-cliente/webhook/new-order';
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

const newOrder = (orderId: string | number, overrides: Record<string, unknown> = {}): Schemas['NewOrderRequestDto'] => ({
  order_id: orderId,
  status: 'NEW',
  customer: { id: 'CUST-5521', name: 'Ana Souza', email: 'ana.souza@example.com.br' },
  items: [
    { product_id: 'burger-01', quantity: 2, price: 25.9 },
    { product_id: 'cola-350', quantity: 1, price: 6.5 },
  ],
  total: 58.3,
  ...overrides,
});

describe('POST /api/domain-cliente/webhook/new-order (e2e)', () => {
  let t: TestApp;
  let platform: string;

  const rowCount = (orderId: string) => t.dataSource.getRepository(OrderEntity).countBy({ orderId });
  const history = async (orderId: string) =>
    (await statusHistory(t.dataSource, orderId)).map(({ fromStatus, toStatus, clientId, via }) => ({
      fromStatus,
      toStatus,
      clientId,
      via,
    }));
  /** `null`: without a token. */
  const deliver = (body: Schemas['NewOrderRequestDto'], token: string | null = platform) =>
    t.apiAs(token ?? undefined).POST('/api/domain-cliente/webhook/new-order', { body });

  beforeAll(async () => {
    t = await bootTestApp();
    platform = await t.tokenFor(['platform']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('401 invalid_token without a token (OAuth error shape, WWW-Authenticate: Bearer)', async () => {
    const answer = await deliver(newOrder(unique('anon')), null);
    expect(answer.response.headers.get('www-authenticate')).toBe('Bearer');
    expect(failed(answer, 401)).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
  });

  it('403 insufficient_scope with a token lacking platform', async () => {
    const orderId = unique('scope');
    expect(failed(await deliver(newOrder(orderId), await t.tokenFor(['orders', 'admin'])), 403)).toEqual({
      error: 'insufficient_scope',
      error_description: expect.stringContaining('platform'),
    });
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
  });

  it('stores the order as RECEIVED with source platform-webhook and the body as payload; 200 { status: "OK" }', async () => {
    const orderId = unique('new');
    const body = newOrder(orderId, { deliveryAddress: { street: 'Rua Augusta', number: '1500' } });
    expect(ok(await deliver(body), 200)).toEqual({ status: 'OK' });
    const row = await existingOrderRow(t.dataSource, orderId);
    expect(row).toMatchObject({ status: 'RECEIVED', source: 'platform-webhook', enrichedPayload: null, webhookAttempts: 0 });
    expect(row.payload).toEqual(body);
    expect(await history(orderId)).toEqual([
      { fromStatus: null, toStatus: 'RECEIVED', clientId: clientIdOf(platform), via: 'POST /api/domain-cliente/webhook/new-order' },
    ]);
  });

  it('stores a sent status when it is an order status, and a numeric order_id as text', async () => {
    ok(await deliver(newOrder(700000 + process.pid, { status: 'ACCEPTED', store: { id: 1201 } })), 200);
    expect(await existingOrderRow(t.dataSource, String(700000 + process.pid))).toMatchObject({ status: 'ACCEPTED', storeId: '1201' });
  });

  describe('400 invalid_request', () => {
    it.each([
      ['no order_id', { order_id: undefined }, 'order_id'],
      ['an empty order_id', { order_id: '' }, 'order_id'],
      ['a customer.email that is not an e-mail', { customer: { name: 'Ana', email: 'ana-at-example' } }, 'customer.email'],
      ['no customer', { customer: undefined }, 'customer'],
      ['empty items', { items: [] }, 'items'],
      ['a quantity of 0', { items: [{ product_id: 'x', quantity: 0, price: 1 }] }, 'items[0].quantity'],
      ['a negative price', { items: [{ product_id: 'x', quantity: 1, price: -1 }] }, 'items[0].price'],
      ['a negative total', { total: -0.01 }, 'total'],
      ['a total as text', { total: '58.30' }, 'total'],
    ])('for %s', async (_label, change, field) => {
      const orderId = unique('invalid');
      // Bodies outside the schema: sent raw, the answer read as the documented error body.
      const response = await t.http.post<Schemas['OAuthErrorResponseDto']>(PATH, newOrder(orderId, change), { token: platform });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
      expect(response.body.error).toBe('invalid_request');
      expect(response.body.error_description).toContain(field);
      expect(await orderRow(t.dataSource, orderId)).toBeNull();
    });

    it.each([
      ['ENRICHED', 'ENRICHED'],
      ['ENRICHMENT_FAILED', 'ENRICHMENT_FAILED'],
      ['FORWARDED', 'FORWARDED'],
      ['FORWARD_FAILED', 'FORWARD_FAILED'],
      ['forward-failed', 'FORWARD_FAILED'], // matched as statuses are: case, "_" and "-" aside
    ])('for a first status only the service gives (%s), storing nothing', async (sent, status) => {
      const orderId = unique('owned');
      expect(failed(await deliver(newOrder(orderId, { status: sent })), 400)).toEqual({
        error: 'invalid_request',
        error_description: `status "${sent}" (${status}) is given by this service only, after enrichment or forwarding: send RECEIVED or a fulfillment status`,
      });
      expect(await orderRow(t.dataSource, orderId)).toBeNull();
    });

    it('for malformed JSON and for a body that is not an object', async () => {
      for (const raw of ['{"order_id": "x"', '[1,2]']) {
        const response = await t.http.post<Schemas['OAuthErrorResponseDto']>(PATH, undefined, {
          token: platform,
          raw,
          headers: { 'content-type': 'application/json' },
        });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('invalid_request');
      }
    });
  });

  it('20 concurrent deliveries of one order_id: every one answers 200 and one row is stored', async () => {
    const orderId = unique('retry');
    const answers = await Promise.all(Array.from({ length: 20 }, async () => ok(await deliver(newOrder(orderId)), 200)));
    expect(answers.every((answer) => answer.status === 'OK')).toBe(true);
    expect(await rowCount(orderId)).toBe(1);
    expect(await history(orderId)).toHaveLength(1);
  });

  it('a repeat does not reset a status that moved on, nor the stored payload', async () => {
    const orderId = unique('moved');
    ok(await deliver(newOrder(orderId)), 200);
    const pos = t.apiAs(await t.tokenFor(['orders']));
    ok(await pos.POST('/api/api/order/status', { body: { order_id: orderId, status: 'ACCEPTED' } }), 200);

    expect(ok(await deliver(newOrder(orderId, { status: 'RECEIVED', total: 99 })), 200)).toEqual({ status: 'OK' });
    expect(await rowCount(orderId)).toBe(1);
    const stored = await existingOrderRow(t.dataSource, orderId);
    expect(stored.status).toBe('ACCEPTED');
    expect(stored.payload.total).toBe(58.3);
    expect((await history(orderId)).map((entry) => entry.toStatus)).toEqual(['RECEIVED', 'ACCEPTED']);
  });
});
