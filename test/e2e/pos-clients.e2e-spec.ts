import { readFileSync } from 'node:fs';
import { ok, type ErrorBody, type PosAnswer, type Schemas } from '../support/api.js';
import type { HttpResponse } from '../support/http.js';
import { eventually } from '../support/eventually.js';
import { fiscalMatrix, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * The platform's real point-of-sale clients, replayed unchanged:
 * the KFC Ecuador POS (JSON, its own status labels, its delivery partner's objects, an empty
 * `shipping_address`) and the pickup tablet app (form bodies). Each request must succeed by
 * its client's own rule: HTTP 200 and `"status": "success"` for the POS, HTTP 200 for the app.
 */

const fixture = (name: string) => readFileSync(new URL(`../fixtures/pos/${name}`, import.meta.url), 'utf8');
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_TYPE = { 'content-type': 'application/json' };
const ORDER = '/api/order';

/** The POS's success test (MaxPoint): HTTP 200 and `status == "success"`. */
const posSucceeded = (answer: HttpResponse<PosAnswer>) => answer.status === 200 && answer.body.status === 'success';

describe('the platform’s point-of-sale clients, replayed (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let token: string;

  const enrich = async (orderId: string, storeId: string, extra: Record<string, unknown> = {}) => {
    const answer = await t.http.post(
      '/enrich-order',
      {
        orderId,
        source: 'kfc-ec',
        store: { id: storeId },
        order: { type: 'DELIVERY', products: [{ productId: 'pos-chicken', quantity: 1, price: { totalPrice: { total: 10 } } }], ...extra },
      },
      { token: admin },
    );
    expect(answer.status).toBe(200);
  };
  const detail = async (id: string) => ok(await t.apiAs(admin).GET('/api/admin/orders/{id}', { params: { path: { id } } }), 200);

  beforeAll(async () => {
    // The tablet app logs in as the development client of the README.
    t = await bootTestApp({ BOOTSTRAP_CLIENT_ID: '1001', BOOTSTRAP_CLIENT_SECRET: 'dev-secret-change-me' });
    admin = await t.adminToken();
    const sync = await t.createClient(['admin'], 'platform sync');
    const channels = await t.http.post(
      '/v3/channels-stores',
      {
        stores: [
          { storeId: '131', name: 'KFC Quicentro', storeCode: 'K131', storeChannels: [] },
          { storeId: '26', name: 'KFC El Bosque', storeCode: 'K026', storeChannels: [] },
        ],
        channels: [],
      },
      { headers: { authorization: `Basic ${Buffer.from(`${sync.clientId}:${sync.clientSecret}`).toString('base64')}` } },
    );
    expect(channels.status).toBe(200);
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'KFC',
        uf: 'SP',
        stores: [
          { store_id: '131', store_name: 'Quicentro' },
          { store_id: '26', store_name: 'El Bosque' },
        ],
        taxMatrix: fiscalMatrix(),
      },
      { token: admin },
    );
    expect(group.status).toBe(201);
    const category = await t.http.post(
      '/admin/product-fiscal-categories',
      { productId: 'pos-chicken', productName: 'Chicken', ncm: '21069090' },
      { token: admin },
    );
    expect(category.status).toBe(201);
  });
  afterAll(() => t.close());

  it('logs the tablet app in with its form body', async () => {
    const answer = await t.http.post<Schemas['LoginResponseDto']>('/authentication/login', undefined, {
      raw: fixture('pickup-app-login.form'),
      headers: FORM,
    });
    expect(answer.status).toBe(200);
    expect(typeof answer.body.accessToken).toBe('string');
    token = answer.body.accessToken;
  });

  it('accepts every status label of the POS, in order, and keeps each label in the history', async () => {
    const labels = JSON.parse(fixture('status-labels.json')) as Array<{ order_id: string; status: string }>;
    await enrich(labels[0]!.order_id, '131');
    const answers = [];
    for (const request of labels) answers.push(await t.http.post<PosAnswer>(`${ORDER}/status`, request, { token, headers: JSON_TYPE }));
    expect(answers.map(posSucceeded)).toEqual(labels.map(() => true));
    // Pedido Recibido → ACCEPTED, Por Asignar → READY, Asignado → READY (no change), En Camino → DISPATCHED, Entregado → DELIVERED.
    expect(answers.map((answer) => answer.body.orderStatus)).toEqual(['ACCEPTED', 'READY', 'READY', 'DISPATCHED', 'DELIVERED']);
    const history = (await detail(labels[0]!.order_id)).history;
    expect(history.map(({ status, label }) => [status, label])).toEqual([
      ['ENRICHED', null],
      ['ACCEPTED', 'Pedido Recibido'],
      ['READY', 'Por Asignar'],
      ['DISPATCHED', 'En Camino'],
      ['DELIVERED', 'Entregado'],
    ]);
  });

  it('applies the tracking label and keeps the delivery partner’s objects on the tracking record', async () => {
    const request = JSON.parse(fixture('tracking-with-partner.json')) as Schemas['TrackingRequestDto'];
    await enrich(String(request.order_id), '131');
    const answer = await t.http.post<PosAnswer>(`${ORDER}/tracking`, request, { token });
    expect(posSucceeded(answer)).toBe(true);
    expect(answer.body.orderStatus).toBe('READY');
    const order = await detail(String(request.order_id));
    expect(order.tracking).toHaveLength(1);
    expect(order.tracking[0]).toMatchObject({ status: 'Por Asignar', orderStatusApplied: true });
    expect(order.tracking[0].extra).toEqual({
      client_bringg: request.client_bringg,
      order_bringg: request.order_bringg,
      shared_location: request.shared_location,
    });
  });

  it('keeps unknown properties at every depth, in their place', async () => {
    const orderId = unique('pos-nested');
    await enrich(orderId, '131');
    const answer = await t.http.post<PosAnswer>(
      `${ORDER}/tracking`,
      {
        order_id: orderId,
        status: 'IN_TRANSIT',
        partner: 'bringg',
        trackingInfo: {
          trackingNumber: 'BR9',
          carrier: 'Loggi',
          shippingCoordinates: [{ latitude: '-0.18', longitude: '-78.46', accuracy: 5 }],
        },
      },
      { token },
    );
    expect(posSucceeded(answer)).toBe(true);
    const [record] = (await detail(orderId)).tracking;
    expect(record.trackingNumber).toBe('BR9');
    expect(record.shippingCoordinates).toEqual([{ latitude: '-0.18', longitude: '-78.46' }]);
    expect(record.extra).toEqual({ partner: 'bringg', trackingInfo: { carrier: 'Loggi', shippingCoordinates: [{ accuracy: 5 }] } });
  });

  it('transfers with the store codes and the empty shipping_address the POS always sends', async () => {
    const request = JSON.parse(fixture('transfer.json')) as Schemas['TransferRequestDto'];
    await enrich(String(request.order), '131');
    const answer = await t.http.put<PosAnswer>(`${ORDER}/transfer`, request, { token });
    expect(posSucceeded(answer)).toBe(true);
    const order = await detail(String(request.order));
    expect(order.storeId).toBe('26');
    expect(order.transfers[0]).toMatchObject({ fromStore: 'K131', toStore: 'K026', toStoreId: '26', shippingAddress: null, extra: null });
  });

  it('marks a pickup order dispatched from the tablet app’s form', async () => {
    const form = new URLSearchParams(fixture('pickup-app-dispatched.form'));
    await enrich(form.get('codigo_app')!, '131', { type: 'PICKUP' });
    const answer = await t.http.post<PosAnswer>(`${ORDER}/dispatched`, undefined, {
      token,
      raw: fixture('pickup-app-dispatched.form'),
      headers: FORM,
    });
    expect(answer.status).toBe(200);
    const order = await detail(form.get('codigo_app')!);
    expect(order.status).toBe('DISPATCHED');
    expect(order.dispatches[0].idTransaccion).toBe(form.get('id_transaccion'));
  });

  it('answers an unknown label with 400 listing the accepted values and naming the alias route, in both fields of the point-of-sale error shape', async () => {
    const orderId = unique('pos-unknown');
    await enrich(orderId, '131');
    const answer = await t.http.post<PosAnswer>(`${ORDER}/status`, { order_id: orderId, status: 'Esperando Pago' }, { token });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(answer.body.message);
    expect(answer.body.message).toContain('ACCEPTED');
    expect(answer.body.message).toContain('Por Asignar');
    expect(answer.body.message).toContain('/api/admin/status-aliases');
  });

  it('matches labels ignoring case, accents, spaces and separators', async () => {
    const orderId = unique('pos-fuzzy');
    await enrich(orderId, '131');
    for (const [label, status] of [
      ['  pedido_recibido ', 'ACCEPTED'],
      ['EN-PREPARACIÓN', 'IN_PREPARATION'],
      ['ready', 'READY'],
    ]) {
      const answer = await t.http.post<PosAnswer>(`${ORDER}/status`, { order_id: orderId, status: label }, { token });
      expect([label, answer.status, answer.body.orderStatus]).toEqual([label, 200, status]);
    }
  });

  it('applies a label sent with a new order by the platform webhook, and keeps it in the history', async () => {
    const orderId = unique('pos-webhook');
    const answer = await t.http.post(
      '/domain-cliente/webhook/new-order',
      {
        order_id: orderId,
        status: 'pedido recibido',
        customer: { email: 'ana@example.com' },
        items: [{ quantity: 1, price: 10 }],
        total: 10,
      },
      { token: admin },
    );
    expect(answer.status).toBe(200);
    const order = await detail(orderId);
    expect(order.status).toBe('ACCEPTED');
    expect(order.history.map(({ status, label }) => [status, label])).toEqual([['ACCEPTED', 'pedido recibido']]);
  });

  describe('GET/PUT /api/admin/status-aliases', () => {
    it('lists the default aliases', async () => {
      const answer = await t.http.get<Schemas['StatusAliasesDto']>('/admin/status-aliases', { token: admin });
      expect(answer.status).toBe(200);
      const table = Object.fromEntries(answer.body.aliases.map((alias) => [alias.label, alias.status]));
      expect(table).toEqual({
        'Pedido Recibido': 'ACCEPTED',
        'En Preparacion': 'IN_PREPARATION',
        'Por Asignar': 'READY',
        Asignado: 'READY',
        'En Camino': 'DISPATCHED',
        Entregado: 'DELIVERED',
        Anulada: 'CANCELLED',
        Anulado: 'CANCELLED',
        Cancelado: 'CANCELLED',
        Rechazado: 'REJECTED',
      });
    });

    it.each([
      ['an unknown status', [{ label: 'Listo', status: 'DONE' }], 'aliases.0.status'],
      ['an empty label', [{ label: ' ', status: 'READY' }], 'aliases.0.label'],
      [
        'two labels that match the same way',
        [
          { label: 'Listo', status: 'READY' },
          { label: 'LISTO ', status: 'DELIVERED' },
        ],
        'aliases.1.label',
      ],
      ['a label that is a status value', [{ label: 'in-preparation', status: 'READY' }], 'aliases.0.label'],
      ['an unknown property', { aliases: [], extra: 1 }, 'extra'],
    ])('refuses %s with 400 and changes nothing', async (_case, body, field) => {
      const answer = await t.http.put<ErrorBody>('/admin/status-aliases', Array.isArray(body) ? { aliases: body } : body, { token: admin });
      expect(answer.status).toBe(400);
      expect(answer.body.details?.map((detail) => detail.field)).toContain(field);
      expect((await t.http.get<Schemas['StatusAliasesDto']>('/admin/status-aliases', { token: admin })).body.aliases).toHaveLength(10);
    });

    it('replaces the table, and every instance uses the new table at once', async () => {
      const other = await bootTestApp({}, { databaseUrl: t.databaseUrl });
      try {
        const orderId = unique('pos-alias');
        await enrich(orderId, '131');
        const otherToken = await other.tokenFor(['orders']);
        // The other instance reads (and caches) the table before the change.
        expect(
          (await other.http.post<PosAnswer>(`${ORDER}/status`, { order_id: orderId, status: 'Listo para retirar' }, { token: otherToken }))
            .status,
        ).toBe(400);

        const current = (await t.http.get<Schemas['StatusAliasesDto']>('/admin/status-aliases', { token: admin })).body.aliases;
        const replaced = ok(
          await t.apiAs(admin).PUT('/api/admin/status-aliases', {
            body: { aliases: [...current, { label: 'Listo para retirar', status: 'READY' }] },
          }),
          200,
        );
        expect(replaced.aliases).toContainEqual({ label: 'Listo para retirar', status: 'READY' });

        // The other instance hears of the new alias through NOTIFY.
        await eventually(
          async () => {
            const answer = await other.http.post<PosAnswer>(
              `${ORDER}/status`,
              { order_id: orderId, status: 'listo para retirar' },
              { token: otherToken },
            );
            expect([answer.status, answer.body.orderStatus]).toEqual([200, 'READY']);
          },
          { what: 'the new alias to reach the other instance' },
        );
      } finally {
        await other.close();
      }
    });
  });
});
