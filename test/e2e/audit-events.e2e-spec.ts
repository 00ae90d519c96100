import { TokenService } from '../../src/auth/token.service.js';
import { order, orderPayload } from '../factories/index.js';
import { failed, ok, type QueryOf, type Schemas } from '../support/api.js';
import { basic, PATH as CHANNELS_PATH, variant } from '../support/channels.js';
import { unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

type AuditEvent = Schemas['AuditEventDto'];

/**
 * GET /api/admin/audit-events over HTTP: events written by real API calls (the actor and request id
 * of each call), the filters, newest first, the page envelope, and who may read it.
 */
describe('GET /api/admin/audit-events (e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let admin: { clientId: string; token: string };
  let pos: { clientId: string; token: string };
  let groupId: string;
  let startedAt: string;

  const clientWithToken = async (scopes: Parameters<TestApp['createClient']>[0], name: string) => {
    const { clientId } = await t.createClient(scopes, name);
    return { clientId, token: (await t.app.get(TokenService).issue(clientId, scopes)).accessToken };
  };
  const list = (query: QueryOf<'/api/admin/audit-events'>) => t.apiAs(admin.token).GET('/api/admin/audit-events', { params: { query } });

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url });
    admin = await clientWithToken(['admin'], 'Audit Admin');
    pos = await clientWithToken(['orders'], 'POS Quito 162');
    startedAt = new Date().toISOString();

    const store = unique('aud-store');
    const created = ok(
      await t.apiAs(admin.token).POST('/api/admin/fiscal-groups', {
        body: { name: 'Audited group', uf: 'SP', stores: [{ store_id: store, store_name: 'One' }], taxMatrix: {} },
        headers: { 'x-request-id': 'req-create-group' },
      }),
      201,
    );
    groupId = created.id;
    ok(
      await t.apiAs(admin.token).PUT('/api/admin/fiscal-groups/{id}', {
        params: { path: { id: groupId } },
        body: { name: 'Audited group (renamed)' },
        headers: { 'x-request-id': 'req-rename-group' },
      }),
      200,
    );
    // Refused (409: the store is held): no event.
    failed(
      await t.apiAs(admin.token).POST('/api/admin/fiscal-groups', {
        body: { name: 'Refused group', uf: 'SP', stores: [{ store_id: store, store_name: 'One' }], taxMatrix: {} },
      }),
      409,
    );
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('answers the events of real calls, newest first, with the actor, request id and address of each call', async () => {
    const page = ok(await list({ targetType: 'fiscal-group', targetId: groupId }), 200);
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 20, totalPages: 1 });
    expect(page.items.map((event: AuditEvent) => [event.action, event.requestId])).toEqual([
      ['update', 'req-rename-group'],
      ['create', 'req-create-group'],
    ]);
    expect(page.items[0]).toMatchObject({
      actor: { type: 'client', id: admin.clientId, name: 'Audit Admin' },
      target: { type: 'fiscal-group', id: groupId },
      changes: { name: { before: 'Audited group', after: 'Audited group (renamed)' } },
      address: '127.0.0.1',
    });
    const all = ok(await list({ pageSize: 100 }), 200);
    expect(all.items.some((event: AuditEvent) => event.changes.name?.after === 'Refused group')).toBe(false);
  });

  it('records the point of sale, the channel configuration and a redelivery with their own actors', async () => {
    const orderId = unique('aud-order');
    await order(t.dataSource, { orderId, status: 'ACCEPTED', enrichedPayload: orderPayload(orderId, 'store-x') });
    ok(
      await t.apiAs(pos.token).POST('/api/api/order/status', {
        body: { order_id: orderId, status: 'READY' },
        headers: { 'x-request-id': 'req-pos-ready' },
      }),
      200,
    );
    ok(await t.apiAs(admin.token).POST('/api/admin/orders/{id}/redeliver', { params: { path: { id: orderId } } }), 200);
    const events = ok(await list({ targetType: 'order', targetId: orderId }), 200).items;
    expect(events.map((event: AuditEvent) => [event.action, event.actor.name, event.changes])).toEqual([
      ['redeliver', 'Audit Admin', { webhookAttempts: { before: 0, after: 1 } }],
      ['change-status', 'POS Quito 162', { status: { before: 'ACCEPTED', after: 'READY' } }],
    ]);
    expect(events[1]!.requestId).toBe('req-pos-ready');

    const channelAdmin = await t.createClient(['admin'], 'Platform configurator');
    const posted = await t.http.post(CHANNELS_PATH, variant(1), {
      headers: { authorization: basic(channelAdmin.clientId, channelAdmin.clientSecret) },
    });
    expect(posted.status).toBe(200);
    const [configured] = ok(await list({ targetType: 'channel-configuration' }), 200).items;
    expect(configured).toMatchObject({
      action: 'replace',
      actor: { type: 'client', id: channelAdmin.clientId, name: 'Platform configurator' },
      target: { type: 'channel-configuration', id: 'all' },
    });
    expect(Object.keys(configured!.changes).some((field) => field.startsWith('stores.'))).toBe(true);
  });

  it('filters by actor, action and time, and pages with the order list envelope', async () => {
    const byPos = ok(await list({ actorType: 'client', actorId: pos.clientId }), 200);
    expect(byPos.items.map((event: AuditEvent) => event.action)).toEqual(['change-status']);
    expect(
      ok(await list({ action: 'create', targetType: 'fiscal-group' }), 200).items.map((event: AuditEvent) => event.target.id),
    ).toContain(groupId);
    expect(ok(await list({ from: '2999-01-01T00:00:00Z' }), 200)).toEqual({ items: [], total: 0, page: 1, pageSize: 20, totalPages: 0 });
    expect(ok(await list({ to: startedAt }), 200).total).toBe(0);

    const total = ok(await list({ from: startedAt }), 200).total;
    expect(total).toBeGreaterThanOrEqual(5);
    const second = ok(await list({ from: startedAt, pageSize: 2, page: 2 }), 200);
    expect(second).toMatchObject({ total, page: 2, pageSize: 2, totalPages: Math.ceil(total / 2) });
    const first = ok(await list({ from: startedAt, pageSize: 2, page: 1 }), 200);
    expect(first.items[1]!.at >= second.items[0]!.at).toBe(true);
  });

  it('refuses a bad filter (400) and a caller without admin (403)', async () => {
    const refused = await t.http.get<{ error: string; details: Array<{ field: string }> }>(
      '/admin/audit-events?from=yesterday&targetType=pizza',
      {
        token: admin.token,
      },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.details.map((detail) => detail.field).sort()).toEqual(['from', 'targetType']);
    // The last day of year 9999 is past the filters' range: a 400 naming the parameter, not a 500.
    const edge = await t.http.get<{ details: Array<{ field: string; problem: string }> }>('/admin/audit-events?to=9999-12-31T23:59:59Z', {
      token: admin.token,
    });
    expect(edge.status).toBe(400);
    expect(edge.body.details).toEqual([{ field: 'to', problem: expect.stringContaining('9999-12-30') }]);
    expect(failed(await t.apiAs(pos.token).GET('/api/admin/audit-events', {}), 403).error).toBe('FORBIDDEN');
    expect((await t.http.get('/admin/audit-events')).status).toBe(401);
  });
});
