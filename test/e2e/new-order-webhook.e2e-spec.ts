import { bootTestApp, type TestApp } from '../support/test-app.js';

const PATH = '/domain-cliente/webhook/new-order';
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

function clientIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sub as string;
}

const newOrder = (orderId: string | number, overrides: Record<string, unknown> = {}) => ({
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

  const rows = async (orderId: string) => t.dataSource.query('SELECT * FROM orders WHERE order_id = $1', [orderId]);
  const history = async (orderId: string) =>
    t.dataSource.query(
      `SELECT h.from_status, h.to_status, h.client_id, h.via FROM order_status_history h JOIN orders o ON o.id = h.order_db_id
       WHERE o.order_id = $1 ORDER BY h.id`,
      [orderId],
    );

  beforeAll(async () => {
    t = await bootTestApp();
    platform = await t.tokenFor(['platform']);
  });
  afterAll(async () => {
    await t.close();
  });

  it('401 invalid_token without a token (Error C, WWW-Authenticate: Bearer)', async () => {
    const response = await t.http.post(PATH, newOrder(unique('anon')));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(response.body).toEqual({ error: 'invalid_token', error_description: expect.any(String) });
  });

  it('403 insufficient_scope with a token lacking platform', async () => {
    const orderId = unique('scope');
    const response = await t.http.post(PATH, newOrder(orderId), { token: await t.tokenFor(['orders', 'admin']) });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: 'insufficient_scope', error_description: expect.stringContaining('platform') });
    expect(await rows(orderId)).toEqual([]);
  });

  it('stores the order as RECEIVED with source platform-webhook and the body as payload; 200 { status: "OK" }', async () => {
    const orderId = unique('new');
    const body = newOrder(orderId, { deliveryAddress: { street: 'Rua Augusta', number: '1500' } });
    const response = await t.http.post(PATH, body, { token: platform });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'OK' });
    const [row] = await rows(orderId);
    expect(row).toMatchObject({ status: 'RECEIVED', source: 'platform-webhook', enriched_payload: null, webhook_attempts: 0 });
    expect(row.payload).toEqual(body);
    expect(await history(orderId)).toEqual([
      { from_status: null, to_status: 'RECEIVED', client_id: clientIdOf(platform), via: 'POST /api/domain-cliente/webhook/new-order' },
    ]);
  });

  it('stores a sent status when it is an order status, and a numeric order_id as text', async () => {
    const response = await t.http.post(PATH, newOrder(700000 + process.pid, { status: 'ACCEPTED', store: { id: 1201 } }), {
      token: platform,
    });
    expect(response.status).toBe(200);
    const [row] = await rows(String(700000 + process.pid));
    expect(row).toMatchObject({ status: 'ACCEPTED', store_id: '1201' });
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
      const response = await t.http.post(PATH, newOrder(orderId, change), { token: platform });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body).sort()).toEqual(['error', 'error_description']);
      expect(response.body.error).toBe('invalid_request');
      expect(response.body.error_description).toContain(field);
      expect(await rows(orderId)).toEqual([]);
    });

    it('for malformed JSON and for a body that is not an object', async () => {
      for (const raw of ['{"order_id": "x"', '[1,2]']) {
        const response = await t.http.post(PATH, undefined, { token: platform, raw, headers: { 'content-type': 'application/json' } });
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('invalid_request');
      }
    });
  });

  it('20 concurrent deliveries of one order_id: every one answers 200 and one row is stored', async () => {
    const orderId = unique('retry');
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.http.post(PATH, newOrder(orderId), { token: platform })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    expect(answers.every((answer) => answer.body.status === 'OK')).toBe(true);
    expect(await rows(orderId)).toHaveLength(1);
    expect(await history(orderId)).toHaveLength(1);
  });

  it('a repeat does not reset a status that moved on, nor the stored payload', async () => {
    const orderId = unique('moved');
    expect((await t.http.post(PATH, newOrder(orderId), { token: platform })).status).toBe(200);
    const accepted = await t.http.post(
      '/api/order/status',
      { order_id: orderId, status: 'ACCEPTED' },
      { token: await t.tokenFor(['orders']) },
    );
    expect(accepted.status).toBe(200);

    const repeat = await t.http.post(PATH, newOrder(orderId, { status: 'RECEIVED', total: 99 }), { token: platform });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ status: 'OK' });
    const stored = await rows(orderId);
    expect(stored).toHaveLength(1);
    expect(stored[0].status).toBe('ACCEPTED');
    expect(stored[0].payload.total).toBe(58.3);
    expect((await history(orderId)).map((entry: { to_status: string }) => entry.to_status)).toEqual(['RECEIVED', 'ACCEPTED']);
  });
});
