import { clientToken } from '../support/http.js';
import { ApiClientEntity } from '../../src/auth/api-client.entity.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { failed, ok, type Schemas } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { eventually } from '../support/eventually.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { existingOrderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const OWN = '162';
const OTHER = '164';

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

/** Enrichment, forward and the new-order webhook for a client limited to stores; its changes reach its tokens within AUTH_CACHE_SECONDS. */
describe('a client limited to stores on the order intake (e2e)', () => {
  let t: TestApp;
  let everyStore: string;
  let pos: { clientId: string; secret: string; token: string };
  let platformPos: string;

  const rows = (orderId: string) => t.dataSource.getRepository(OrderEntity).countBy({ orderId });
  const loginToken = (clientId: string, secret: string) => clientToken(t.http, clientId, secret);
  const limitedClient = async (scopes: Array<'orders' | 'platform'>, stores: string[]) => {
    const created = ok(await t.api.POST('/api/admin/clients', { body: { name: `POS ${unique('c')}`, scopes, stores } }), 201);
    return { clientId: created.clientId, secret: created.secret, token: await loginToken(created.clientId, created.secret) };
  };
  const enrich = (token: string, body: object) => t.apiAs(token).POST('/api/enrich-order', { body: body as Schemas['OrderPayloadDto'] });

  beforeAll(async () => {
    // The forward's receiver is never reached: every forward here is refused before it.
    t = await bootTestApp({ AUTH_CACHE_SECONDS: '1', ORDER_WEBHOOK_URL: 'http://127.0.0.1:9/orders' });
    await seedFiscalData(t.http, await t.adminToken(), OWN);
    await seedFiscalData(t.http, await t.adminToken(), OTHER);
    everyStore = await t.tokenFor(['orders', 'platform']);
    pos = await limitedClient(['orders'], [OWN]);
    platformPos = (await limitedClient(['platform'], [OWN])).token;
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/enrich-order', () => {
    it('403 STORE_NOT_ALLOWED for another store, nothing stored', async () => {
      const orderId = unique('enrich-other');
      const answer = await enrich(pos.token, orderFor(orderId, OTHER));
      expect(failed(answer, 403)).toEqual({
        error: 'STORE_NOT_ALLOWED',
        message: `This client may not touch store "${OTHER}"; nothing was stored`,
        details: [{ field: 'store.id', problem: 'this client may not touch this store', orderId, storeId: OTHER }],
      });
      expectDeclaredError('POST', '/api/enrich-order', { status: 403, body: failed(answer, 403) });
      expect(await rows(orderId)).toBe(0);
    });

    it('names payload.store.id for a wrapped order, and refuses an order without a store', async () => {
      const wrapped = unique('enrich-wrapped');
      expect(failed(await enrich(pos.token, { payload: orderFor(wrapped, OTHER) }), 403).details).toEqual([
        expect.objectContaining({ field: 'payload.store.id', storeId: OTHER }),
      ]);
      const storeless = unique('enrich-storeless');
      const { store: _store, ...withoutStore } = orderFor(storeless, OWN);
      expect(failed(await enrich(pos.token, withoutStore), 403).details).toEqual([expect.objectContaining({ storeId: null })]);
      expect((await rows(wrapped)) + (await rows(storeless))).toBe(0);
    });

    it('taxes and stores its own store’s orders', async () => {
      const orderId = unique('enrich-own');
      expect(ok(await enrich(pos.token, orderFor(orderId, OWN)), 200).orderId).toBe(orderId);
      expect((await existingOrderRow(t.dataSource, orderId)).storeId).toBe(OWN);
    });

    it('403 for a re-send of an orderId stored under another store; the stored order is untouched', async () => {
      const orderId = unique('resend');
      ok(await enrich(everyStore, orderFor(orderId, OTHER)), 200);
      const before = await existingOrderRow(t.dataSource, orderId);

      const answer = await enrich(pos.token, orderFor(orderId, OWN));
      expect(failed(answer, 403)).toEqual({
        error: 'STORE_NOT_ALLOWED',
        message: `Order ${orderId} is stored under a store this client may not touch; nothing was stored`,
        details: [{ field: 'orderId', problem: 'the order is stored under a store this client may not touch', orderId, storeId: null }],
      });
      expectDeclaredError('POST', '/api/enrich-order', { status: 403, body: failed(answer, 403) });
      expect(await existingOrderRow(t.dataSource, orderId)).toEqual(before);
    });

    it('a re-send of its own store’s order is stored as usual', async () => {
      const orderId = unique('resend-own');
      const first = ok(await enrich(pos.token, orderFor(orderId, OWN)), 200);
      expect(ok(await enrich(pos.token, orderFor(orderId, OWN)), 200).orderDbId).toBe(first.orderDbId);
    });
  });

  describe('POST /api/enrich-order-forward', () => {
    it('403 STORE_NOT_ALLOWED for another store and for another store’s orderId, nothing stored or sent', async () => {
      const orderId = unique('forward-other');
      const answer = await t.apiAs(pos.token).POST('/api/enrich-order-forward', { body: orderFor(orderId, OTHER) });
      expectDeclaredError('POST', '/api/enrich-order-forward', { status: 403, body: failed(answer, 403) });
      expect(failed(answer, 403).error).toBe('STORE_NOT_ALLOWED');
      expect(await rows(orderId)).toBe(0);

      const stored = unique('forward-resend');
      ok(await enrich(everyStore, orderFor(stored, OTHER)), 200);
      const before = await existingOrderRow(t.dataSource, stored);
      const resend = await t.apiAs(pos.token).POST('/api/enrich-order-forward', { body: orderFor(stored, OWN) });
      expect(failed(resend, 403).details).toEqual([expect.objectContaining({ field: 'orderId', orderId: stored })]);
      expect(await existingOrderRow(t.dataSource, stored)).toEqual(before);
    });
  });

  describe('POST /api/domain-cliente/webhook/new-order', () => {
    const deliver = (token: string, body: Schemas['NewOrderRequestDto']) =>
      t.apiAs(token).POST('/api/domain-cliente/webhook/new-order', { body });

    it('403 in the OAuth shape for another store, nothing stored', async () => {
      const orderId = unique('hook-other');
      expect(failed(await deliver(platformPos, newOrder(orderId, OTHER)), 403)).toEqual({
        error: 'insufficient_scope',
        error_description: `This client may not touch store "${OTHER}"; nothing was stored`,
      });
      expect(await rows(orderId)).toBe(0);
    });

    it('403 for a repeat of an order_id stored under another store; its own repeats answer 200', async () => {
      const orderId = unique('hook-resend');
      ok(await deliver(everyStore, newOrder(orderId, OTHER)), 200);
      expect(failed(await deliver(platformPos, newOrder(orderId, OWN)), 403)).toEqual({
        error: 'insufficient_scope',
        error_description: `Order ${orderId} is stored under a store this client may not touch; nothing was stored`,
      });
      expect((await existingOrderRow(t.dataSource, orderId)).storeId).toBe(OTHER);

      const own = unique('hook-own');
      expect(ok(await deliver(platformPos, newOrder(own, OWN)), 200)).toEqual({ status: 'OK' });
      expect(ok(await deliver(platformPos, newOrder(own, OWN)), 200)).toEqual({ status: 'OK' });
      expect(await rows(own)).toBe(1);
    });
  });

  describe('changes reach tokens issued before them within AUTH_CACHE_SECONDS', () => {
    it('new stores, written by another instance, apply to the old token', async () => {
      const client = await limitedClient(['orders'], [OWN]);
      // Read once, so that this instance holds the client in its cache.
      expect(failed(await enrich(client.token, orderFor(unique('cache'), OTHER)), 403).error).toBe('STORE_NOT_ALLOWED');
      // Another instance's change: this one hears of it only by reading the client again.
      await t.dataSource.getRepository(ApiClientEntity).update({ clientId: client.clientId }, { stores: [OTHER] });
      await eventually(async () => expect((await enrich(client.token, orderFor(unique('cache'), OTHER))).response.status).toBe(200), {
        timeoutMs: 4_000,
        what: 'the new stores to reach the token',
      });
      expect(failed(await enrich(client.token, orderFor(unique('cache'), OWN)), 403).error).toBe('STORE_NOT_ALLOWED');
    });

    it('a client made unrestricted through the API reaches every store at once on this instance', async () => {
      const client = await limitedClient(['orders'], [OWN]);
      ok(
        await t.api.PATCH('/api/admin/clients/{clientId}', { params: { path: { clientId: client.clientId } }, body: { stores: [] } }),
        200,
      );
      ok(await enrich(client.token, orderFor(unique('widened'), OTHER)), 200);
    });

    it('deactivation, written by another instance, stops the old token', async () => {
      const client = await limitedClient(['orders'], [OWN]);
      ok(await enrich(client.token, orderFor(unique('active'), OWN)), 200);
      await t.dataSource.getRepository(ApiClientEntity).update({ clientId: client.clientId }, { active: false });
      await eventually(async () => expect((await enrich(client.token, orderFor(unique('inactive'), OWN))).response.status).toBe(401), {
        timeoutMs: 4_000,
        what: 'the deactivation to reach the token',
      });
    });
  });
});
