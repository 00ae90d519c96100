import { bootTestApp, type TestApp } from '../support/test-app.js';

const ORDER = '/api/order';
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** The client id (`sub`) a token was issued to. */
function clientIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sub as string;
}

/** Store ids are numeric: the channels configuration keys stores by an integer `storeId`. */
const PINHEIROS = '1201'; // code BN-PIN, fiscal group A (ICMS 18 %)
const MOEMA = '1202'; // code BN-MOE, fiscal group B (ICMS 12 %)
const VILA_MARIANA = '1203'; // code BN-VM, fiscal group A too
const NO_GROUP = '1299'; // code BN-NOFISCAL, no fiscal group

const burgerRule = (icmsRate: number) => ({
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: icmsRate,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
});

/** Error D: the same sentence in `error` and `message` (contract §3). */
const errorD = (sentence: string) => ({ error: sentence, message: sentence });

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let t: TestApp;
  let orders: string;
  let ordersClient: string;
  let groupA: string;
  let groupB: string;

  const row = async (orderId: string) => (await t.dataSource.query('SELECT * FROM orders WHERE order_id = $1', [orderId]))[0];
  const history = async (orderId: string) =>
    (await t.dataSource.query(
      `SELECT h.from_status, h.to_status, h.client_id, h.via FROM order_status_history h JOIN orders o ON o.id = h.order_db_id
       WHERE o.order_id = $1 ORDER BY h.id`,
      [orderId],
    )) as Array<{ from_status: string | null; to_status: string; client_id: string | null; via: string }>;
  const tracking = async (orderId: string) =>
    t.dataSource.query(`SELECT k.* FROM order_tracking k JOIN orders o ON o.id = k.order_db_id WHERE o.order_id = $1 ORDER BY k.id`, [
      orderId,
    ]);
  const transfers = async (orderId: string) =>
    t.dataSource.query(`SELECT x.* FROM order_transfer x JOIN orders o ON o.id = x.order_db_id WHERE o.order_id = $1 ORDER BY x.id`, [
      orderId,
    ]);
  const dispatches = async (orderId: string) =>
    t.dataSource.query(`SELECT d.* FROM order_dispatch d JOIN orders o ON o.id = d.order_db_id WHERE o.order_id = $1 ORDER BY d.id`, [
      orderId,
    ]);

  /** An order enriched through POST /api/enrich-order: one burger of 25.90. */
  async function enrichedOrder(orderId: string, storeId = PINHEIROS, extra: Record<string, unknown> = {}): Promise<void> {
    const response = await t.http.post(
      '/enrich-order',
      {
        orderId,
        source: 'ifood',
        store: { id: storeId, name: 'Bella Napoli' },
        customer: { name: 'Ana' },
        order: { products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
        payments: [{ method: 'PIX', value: 25.9 }],
        ...extra,
      },
      { token: orders },
    );
    expect([200, 422]).toContain(response.status);
  }

  async function setStatus(orderId: string, status: string) {
    const response = await t.http.post(`${ORDER}/status`, { order_id: orderId, status }, { token: orders });
    expect(response.status).toBe(200);
  }

  beforeAll(async () => {
    t = await bootTestApp();
    const admin = await t.tokenFor(['admin']);
    orders = await t.tokenFor(['orders']);
    ordersClient = clientIdOf(orders);

    const createGroup = async (name: string, icmsRate: number, stores: string[]) => {
      const response = await t.http.post(
        '/admin/fiscal-groups',
        {
          name,
          uf: 'SP',
          taxRegime: 'LUCRO_PRESUMIDO',
          stores: stores.map((store_id) => ({ store_id, store_name: `Store ${store_id}` })),
          taxMatrix: burgerRule(icmsRate),
        },
        { token: admin },
      );
      expect(response.status).toBe(201);
      return response.body.id as string;
    };
    groupA = await createGroup('Group A', 18, [PINHEIROS, VILA_MARIANA]);
    groupB = await createGroup('Group B', 12, [MOEMA]);
    expect(
      (
        await t.http.post(
          '/admin/product-fiscal-categories',
          { productId: 'f-burger', productName: 'Burger', ncm: '21069090' },
          { token: admin },
        )
      ).status,
    ).toBe(201);

    const sync = await t.createClient(['admin'], 'platform sync');
    const channels = await t.http.post(
      '/v3/channels-stores',
      {
        stores: [
          { storeId: PINHEIROS, name: 'Pinheiros', storeCode: 'BN-PIN', storeChannels: [] },
          { storeId: MOEMA, name: 'Moema', storeCode: 'BN-MOE', storeChannels: [] },
          { storeId: VILA_MARIANA, name: 'Vila Mariana', storeCode: 'BN-VM', storeChannels: [] },
          { storeId: NO_GROUP, name: 'Without fiscal group', storeCode: 'BN-NOFISCAL', storeChannels: [] },
          { storeId: '1301', name: 'Twin one', storeCode: 'DUP', storeChannels: [] },
          { storeId: '1302', name: 'Twin two', storeCode: 'DUP', storeChannels: [] },
        ],
        channels: [],
      },
      { headers: { authorization: `Basic ${Buffer.from(`${sync.clientId}:${sync.clientSecret}`).toString('base64')}` } },
    );
    expect(channels.status).toBe(200);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('POST /api/api/order/status', () => {
    it('moves the order forward and answers { message, status: "success", orderStatus }', async () => {
      const orderId = unique('st');
      await enrichedOrder(orderId);
      const response = await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'ACCEPTED' }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} changed from ENRICHED to ACCEPTED`,
        status: 'success',
        orderStatus: 'ACCEPTED',
      });
      expect((await row(orderId)).status).toBe('ACCEPTED');

      // Skipping ranks is allowed.
      const skip = await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'DISPATCHED' }, { token: orders });
      expect(skip.body).toMatchObject({ status: 'success', orderStatus: 'DISPATCHED' });
    });

    it('accepts the order id as a number (compared as text)', async () => {
      const orderId = String(880000 + process.pid);
      await enrichedOrder(orderId);
      const response = await t.http.post(`${ORDER}/status`, { order_id: Number(orderId), status: 'IN_PREPARATION' }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body.orderStatus).toBe('IN_PREPARATION');
    });

    it('answers 200 and writes nothing when the status is already the current one', async () => {
      const orderId = unique('same');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'READY');
      const before = await history(orderId);
      const response = await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'READY' }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} is already READY; nothing changed`,
        status: 'success',
        orderStatus: 'READY',
      });
      expect(await history(orderId)).toEqual(before);
    });

    it('409 for a move backwards, naming both statuses; the order keeps its status', async () => {
      const orderId = unique('back');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'READY');
      const response = await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'IN_PREPARATION' }, { token: orders });
      expect(response.status).toBe(409);
      expect(response.body).toEqual(errorD(`Order ${orderId}: cannot change from READY back to IN_PREPARATION`));
      expect((await row(orderId)).status).toBe('READY');
    });

    it.each(['DELIVERED', 'CANCELLED', 'REJECTED'])('409 for any move out of %s', async (terminal) => {
      const orderId = unique('term');
      await enrichedOrder(orderId);
      await setStatus(orderId, terminal);
      for (const status of ['ACCEPTED', 'READY', terminal === 'CANCELLED' ? 'REJECTED' : 'CANCELLED']) {
        const response = await t.http.post(`${ORDER}/status`, { order_id: orderId, status }, { token: orders });
        expect([status, response.status]).toEqual([status, 409]);
        expect(response.body.error).toContain(`from ${terminal} to ${status}`);
      }
      expect((await row(orderId)).status).toBe(terminal);
    });

    it('CANCELLED and REJECTED from a non-final status', async () => {
      const cancelled = unique('cancel');
      await enrichedOrder(cancelled);
      await setStatus(cancelled, 'DISPATCHED');
      await setStatus(cancelled, 'CANCELLED');
      const rejected = unique('reject');
      await enrichedOrder(rejected);
      await setStatus(rejected, 'REJECTED');
      expect([(await row(cancelled)).status, (await row(rejected)).status]).toEqual(['CANCELLED', 'REJECTED']);
    });

    it.each([
      ['an unknown status', { status: 'PENDING' }],
      ['a status that is not text', { status: 3 }],
      ['no status', { status: undefined }],
      ['no order_id', { order_id: undefined }],
      ['an empty order_id', { order_id: '' }],
      ['an order_id that is an object', { order_id: { id: 1 } }],
      ['a decimal order_id', { order_id: 12.5 }],
    ])('400 { error } for %s', async (_label, change) => {
      const orderId = unique('bad');
      const response = await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'ACCEPTED', ...change }, { token: orders });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error', 'message']);
      expect(typeof response.body.error).toBe('string');
    });

    it('404 { error } for an unknown order', async () => {
      const response = await t.http.post(`${ORDER}/status`, { order_id: 'nobody-ordered-this', status: 'ACCEPTED' }, { token: orders });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(errorD('Order nobody-ordered-this not found'));
    });

    it('401 and 403 in the Error D shape', async () => {
      const none = await t.http.post(`${ORDER}/status`, { order_id: 'x', status: 'ACCEPTED' });
      expect(none.status).toBe(401);
      expect(Object.keys(none.body)).toEqual(['error', 'message']);
      const platformOnly = await t.tokenFor(['platform', 'admin']);
      const forbidden = await t.http.post(`${ORDER}/status`, { order_id: 'x', status: 'ACCEPTED' }, { token: platformOnly });
      expect(forbidden.status).toBe(403);
      expect(Object.keys(forbidden.body)).toEqual(['error', 'message']);
    });
  });

  describe('POST /api/api/order/tracking', () => {
    const info = {
      trackurl: 'https://track.example.com/BR1',
      trackingNumber: 'BR1',
      deliveryConfirmationCode: '4821',
      shippingCoordinates: [
        { latitude: '-23.5629', longitude: '-46.6826' },
        { latitude: -23.57, longitude: -46.69 },
      ],
    };

    it('applies an order status by the rules and stores the tracking record', async () => {
      const orderId = unique('trk');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'READY');
      const response = await t.http.post(
        `${ORDER}/tracking`,
        { order_id: orderId, status: 'DISPATCHED', trackingInfo: info },
        { token: orders },
      );
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Tracking registered for order ${orderId}; order status changed from READY to DISPATCHED`,
        status: 'success',
        orderStatus: 'DISPATCHED',
      });
      expect((await row(orderId)).status).toBe('DISPATCHED');
      const [record] = await tracking(orderId);
      expect(record).toMatchObject({
        status: 'DISPATCHED',
        order_status_applied: true,
        trackurl: info.trackurl,
        tracking_number: 'BR1',
        delivery_confirmation_code: '4821',
        shipping_coordinates: info.shippingCoordinates,
        client_id: ordersClient,
      });
      expect((await history(orderId)).at(-1)).toEqual({
        from_status: 'READY',
        to_status: 'DISPATCHED',
        client_id: ordersClient,
        via: 'POST /api/api/order/tracking',
      });
    });

    it('keeps a carrier status on the tracking record only, and keeps every record (newest last)', async () => {
      const orderId = unique('carrier');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'DISPATCHED');
      const first = await t.http.post(
        `${ORDER}/tracking`,
        { order_id: orderId, status: 'IN_TRANSIT', trackingInfo: info },
        { token: orders },
      );
      expect(first.status).toBe(200);
      expect(first.body).toEqual({
        message: `Tracking registered for order ${orderId}; carrier status "IN_TRANSIT" kept on the tracking record`,
        status: 'success',
        orderStatus: 'DISPATCHED',
      });
      // Status matching ignores case (contract §7, revision 2): `delivered` is the order status DELIVERED.
      const second = await t.http.post(
        `${ORDER}/tracking`,
        { order_id: orderId, status: 'delivered', trackingInfo: { trackingNumber: 'BR2' } },
        { token: orders },
      );
      expect(second.body.orderStatus).toBe('DELIVERED');
      expect((await row(orderId)).status).toBe('DELIVERED');
      const records = await tracking(orderId);
      expect(
        records.map((record: { status: string; tracking_number: string; order_status_applied: boolean }) => [
          record.status,
          record.tracking_number,
          record.order_status_applied,
        ]),
      ).toEqual([
        ['IN_TRANSIT', 'BR1', false],
        ['delivered', 'BR2', true],
      ]);
      expect(records[1].shipping_coordinates).toEqual([]);
    });

    it('accepts the order id as a number and no trackingInfo; the current status again is 200', async () => {
      const orderId = String(890000 + process.pid);
      await enrichedOrder(orderId);
      await setStatus(orderId, 'DISPATCHED');
      const response = await t.http.post(`${ORDER}/tracking`, { order_id: Number(orderId), status: 'DISPATCHED' }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body.orderStatus).toBe('DISPATCHED');
      expect(await tracking(orderId)).toHaveLength(1);
    });

    it('409 for an order status the order cannot move to; nothing is stored', async () => {
      const orderId = unique('trk409');
      await enrichedOrder(orderId);
      await setStatus(orderId, 'DELIVERED');
      const response = await t.http.post(
        `${ORDER}/tracking`,
        { order_id: orderId, status: 'DISPATCHED', trackingInfo: info },
        { token: orders },
      );
      expect(response.status).toBe(409);
      expect(response.body).toEqual(errorD(`Order ${orderId}: cannot change from DELIVERED to DISPATCHED: DELIVERED is a final status`));
      expect(await tracking(orderId)).toEqual([]);
    });

    it.each([
      ['a latitude out of range', { trackingInfo: { shippingCoordinates: [{ latitude: '-95', longitude: '0' }] } }],
      ['a coordinate that is not a number', { trackingInfo: { shippingCoordinates: [{ latitude: 'north', longitude: '0' }] } }],
      ['a coordinate without longitude', { trackingInfo: { shippingCoordinates: [{ latitude: '1' }] } }],
      ['a numeric trackingNumber', { trackingInfo: { trackingNumber: 123 } }],
      ['no status', { status: undefined }],
      ['a blank status', { status: '  ' }],
    ])('400 { error } for %s', async (_label, change) => {
      const response = await t.http.post(`${ORDER}/tracking`, { order_id: 'x', status: 'IN_TRANSIT', ...change }, { token: orders });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error', 'message']);
    });

    it('404 for an unknown order', async () => {
      const response = await t.http.post(`${ORDER}/tracking`, { order_id: 'no-such-order', status: 'IN_TRANSIT' }, { token: orders });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(errorD('Order no-such-order not found'));
    });
  });

  describe('POST /api/api/order/dispatched', () => {
    it('dispatches a pickup order and stores id_transaccion once per transaction', async () => {
      const orderId = unique('pick');
      await enrichedOrder(orderId, PINHEIROS, { order: { type: 'takeout', products: [] } });
      await setStatus(orderId, 'READY');
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-1' }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} dispatched (transaction TX-1)`,
        status: 'success',
        orderStatus: 'DISPATCHED',
      });
      const repeat = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-1' }, { token: orders });
      expect(repeat.status).toBe(200);
      expect(repeat.body.orderStatus).toBe('DISPATCHED');
      const rows = await dispatches(orderId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ id_transaccion: 'TX-1', client_id: ordersClient });
      expect((await history(orderId)).at(-1)).toMatchObject({
        from_status: 'READY',
        to_status: 'DISPATCHED',
        via: 'POST /api/api/order/dispatched',
      });
    });

    it('accepts codigo_app and id_transaccion as numbers, and order.pickup true', async () => {
      const orderId = String(900000 + process.pid);
      await enrichedOrder(orderId, PINHEIROS, { order: { pickup: true, products: [] } });
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: Number(orderId), id_transaccion: 998877 }, { token: orders });
      expect(response.status).toBe(200);
      expect(response.body.orderStatus).toBe('DISPATCHED');
      expect((await dispatches(orderId))[0].id_transaccion).toBe('998877');
    });

    it('409 for a delivery order; nothing changes', async () => {
      const orderId = unique('delivery');
      await enrichedOrder(orderId, PINHEIROS, { deliveryType: 'DELIVERY' });
      await setStatus(orderId, 'READY');
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-2' }, { token: orders });
      expect(response.status).toBe(409);
      expect(Object.keys(response.body)).toEqual(['error', 'message']);
      expect(response.body.error).toContain('not a pickup order');
      expect((await row(orderId)).status).toBe('READY');
      expect(await dispatches(orderId)).toEqual([]);
    });

    it('409 for a cancelled pickup order', async () => {
      const orderId = unique('pickcancel');
      await enrichedOrder(orderId, PINHEIROS, { deliveryType: 'PICKUP' });
      await setStatus(orderId, 'CANCELLED');
      const response = await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-3' }, { token: orders });
      expect(response.status).toBe(409);
      expect(response.body.error).toContain('from CANCELLED to DISPATCHED');
      expect(await dispatches(orderId)).toEqual([]);
    });

    it('404 for an unknown order, 400 for a bad body', async () => {
      const missing = await t.http.post(`${ORDER}/dispatched`, { codigo_app: 'ghost', id_transaccion: 'TX' }, { token: orders });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorD('Order ghost not found'));
      for (const body of [{ codigo_app: 'ghost' }, { codigo_app: 'ghost', id_transaccion: '' }]) {
        const response = await t.http.post(`${ORDER}/dispatched`, body, { token: orders });
        expect(response.status).toBe(400);
        expect(Object.keys(response.body)).toEqual(['error', 'message']);
      }
    });
  });

  describe('PUT /api/api/order/transfer', () => {
    const transfer = (order: unknown, from: unknown, to: unknown, extra: Record<string, unknown> = {}) =>
      t.http.put(
        `${ORDER}/transfer`,
        { order, from_store: from, to_store: to, processed_by: 'Carla Mendes', transfer_reason: 'Oven out of order', ...extra },
        { token: orders },
      );

    it('re-enriches the order when the target store has another fiscal group (taxes change), in one go', async () => {
      const orderId = unique('xfer');
      await enrichedOrder(orderId, PINHEIROS);
      await setStatus(orderId, 'ACCEPTED');
      const before = await row(orderId);
      // Group A (18 %): ICMS 25.90 × 18 % = 4.662 → 4.66; PIS/COFINS base 25.90 − 4.66 = 21.24;
      // PIS 21.24 × 0.65 % = 0.13806 → 0.14; COFINS 21.24 × 3 % = 0.6372 → 0.64; total 5.44
      expect(before.enriched_payload.order.products[0].tax).toMatchObject({
        ICMS_value: 4.66,
        PIS_value: 0.14,
        COFINS_value: 0.64,
        total_tax: 5.44,
      });
      expect(before.fiscal_group_id).toBe(groupA);

      const address = { street: 'Av. Ibirapuera', number: '2927', city: 'São Paulo' };
      const response = await transfer(orderId, 'BN-PIN', 'BN-MOE', { shipping_address: address });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} transferred from store "${PINHEIROS}" to store "${MOEMA}"; taxes recalculated with fiscal group ${groupB}`,
        status: 'success',
        orderStatus: 'ACCEPTED',
      });

      const after = await row(orderId);
      expect(after).toMatchObject({ store_id: MOEMA, fiscal_group_id: groupB, status: 'ACCEPTED', id: before.id });
      expect(after.payload.store).toEqual({ id: MOEMA, name: 'Bella Napoli' });
      expect(after.payload.customer).toEqual({ name: 'Ana' });
      expect(after.enriched_payload.store.id).toBe(MOEMA);
      // Group B (12 %): ICMS 25.90 × 12 % = 3.108 → 3.11; PIS/COFINS base 25.90 − 3.11 = 22.79;
      // PIS 22.79 × 0.65 % = 0.148135 → 0.15; COFINS 22.79 × 3 % = 0.6837 → 0.68; total 3.11 + 0.15 + 0.68 = 3.94
      expect(after.enriched_payload.order.products[0].tax).toMatchObject({
        ICMS_rate: 12,
        ICMS_base: 25.9,
        ICMS_value: 3.11,
        PIS_base: 22.79,
        PIS_value: 0.15,
        COFINS_base: 22.79,
        COFINS_value: 0.68,
        total_tax: 3.94,
      });
      expect(after.enriched_payload.taxSummary).toMatchObject({
        fiscalGroupId: groupB,
        totals: { base: 25.9, ICMS_value: 3.11, PIS_value: 0.15, COFINS_value: 0.68, total_tax: 3.94 },
      });

      expect(await transfers(orderId)).toEqual([
        expect.objectContaining({
          from_store: 'BN-PIN',
          to_store: 'BN-MOE',
          from_store_id: PINHEIROS,
          to_store_id: MOEMA,
          processed_by: 'Carla Mendes',
          transfer_reason: 'Oven out of order',
          shipping_address: address,
          refiscalized: true,
          from_fiscal_group_id: groupA,
          to_fiscal_group_id: groupB,
          client_id: ordersClient,
        }),
      ]);
      // A transfer is not a status change: no history row.
      expect((await history(orderId)).map((entry) => entry.to_status)).toEqual(['ENRICHED', 'ACCEPTED']);
    });

    it('keeps the taxes when the target store has the same fiscal group (ids as numbers)', async () => {
      const orderId = String(910000 + process.pid);
      await enrichedOrder(orderId, PINHEIROS);
      const before = await row(orderId);
      const response = await transfer(Number(orderId), Number(PINHEIROS), Number(VILA_MARIANA), {
        shipping_address: 'Rua Domingos de Morais, 2000',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} transferred from store "${PINHEIROS}" to store "${VILA_MARIANA}"; same fiscal group, taxes unchanged`,
        status: 'success',
        orderStatus: 'ENRICHED',
      });
      const after = await row(orderId);
      expect(after).toMatchObject({ store_id: VILA_MARIANA, fiscal_group_id: groupA });
      expect(after.payload.store.id).toBe(VILA_MARIANA);
      expect(after.enriched_payload.store.id).toBe(VILA_MARIANA);
      // Not recomputed: the same figures and the same calculation time.
      expect(after.enriched_payload.taxSummary).toEqual(before.enriched_payload.taxSummary);
      expect(after.enriched_payload.order).toEqual(before.enriched_payload.order);
      expect(await transfers(orderId)).toEqual([
        expect.objectContaining({
          from_store: PINHEIROS,
          to_store: VILA_MARIANA,
          refiscalized: false,
          shipping_address: 'Rua Domingos de Morais, 2000',
        }),
      ]);
    });

    it('409 when from_store is not the order store (by id or by code); nothing changes', async () => {
      const orderId = unique('wrongfrom');
      await enrichedOrder(orderId, PINHEIROS);
      for (const from of [MOEMA, 'BN-MOE', 'UNKNOWN-CODE']) {
        const response = await transfer(orderId, from, VILA_MARIANA);
        expect([from, response.status]).toEqual([from, 409]);
        expect(response.body).toEqual(errorD(`from_store "${from}" is not the current store of order ${orderId} (store "${PINHEIROS}")`));
      }
      expect((await row(orderId)).store_id).toBe(PINHEIROS);
      expect(await transfers(orderId)).toEqual([]);
    });

    it('400 when to_store equals from_store, or names the current store otherwise', async () => {
      const orderId = unique('samestore');
      await enrichedOrder(orderId, PINHEIROS);
      const same = await transfer(orderId, PINHEIROS, Number(PINHEIROS));
      expect(same.status).toBe(400);
      expect(same.body).toEqual(errorD('to_store must differ from from_store'));
      const byCode = await transfer(orderId, PINHEIROS, 'BN-PIN');
      expect(byCode.status).toBe(400);
      expect(Object.keys(byCode.body)).toEqual(['error', 'message']);
    });

    it('409 when a taxed order would move to a store without a fiscal group; nothing changes', async () => {
      const orderId = unique('nofiscal');
      await enrichedOrder(orderId, PINHEIROS);
      const before = await row(orderId);
      const response = await transfer(orderId, 'BN-PIN', 'BN-NOFISCAL');
      expect(response.status).toBe(409);
      expect(response.body.error).toContain(`Store "${NO_GROUP}" has no fiscal group`);
      const after = await row(orderId);
      expect([after.store_id, after.enriched_payload]).toEqual([PINHEIROS, before.enriched_payload]);
      expect(await transfers(orderId)).toEqual([]);
    });

    it('an order without taxes moves to a store without a group as it is, and is enriched when it reaches a group', async () => {
      const orderId = unique('untaxed');
      await enrichedOrder(orderId, 'store-without-group'); // 422: stored as ENRICHMENT_FAILED
      expect((await row(orderId)).status).toBe('ENRICHMENT_FAILED');

      const first = await transfer(orderId, 'store-without-group', NO_GROUP);
      expect(first.status).toBe(200);
      expect(first.body.orderStatus).toBe('ENRICHMENT_FAILED');
      expect(await row(orderId)).toMatchObject({ store_id: NO_GROUP, enriched_payload: null, fiscal_group_id: null });

      const second = await transfer(orderId, 'BN-NOFISCAL', MOEMA);
      expect(second.status).toBe(200);
      expect(second.body.orderStatus).toBe('ENRICHED');
      const after = await row(orderId);
      expect(after).toMatchObject({ store_id: MOEMA, fiscal_group_id: groupB, status: 'ENRICHED' });
      // Group B, as above: 3.11 + 0.15 + 0.68 = 3.94
      expect(after.enriched_payload.taxSummary.totals.total_tax).toBe(3.94);
      expect((await transfers(orderId)).map((entry: { refiscalized: boolean }) => entry.refiscalized)).toEqual([false, true]);
      expect((await history(orderId)).at(-1)).toEqual({
        from_status: 'ENRICHMENT_FAILED',
        to_status: 'ENRICHED',
        client_id: ordersClient,
        via: 'PUT /api/api/order/transfer',
      });
    });

    it('409 for a store code shared by several stores, and for an order in a final status', async () => {
      const orderId = unique('dup');
      await enrichedOrder(orderId, PINHEIROS);
      const ambiguous = await transfer(orderId, PINHEIROS, 'DUP');
      expect(ambiguous.status).toBe(409);
      expect(ambiguous.body.error).toContain('belongs to several stores');
      await setStatus(orderId, 'DELIVERED');
      const final = await transfer(orderId, PINHEIROS, MOEMA);
      expect(final.status).toBe(409);
      expect(final.body).toEqual(errorD(`Order ${orderId} is DELIVERED, a final status: it cannot be transferred`));
    });

    it('404 for an unknown order, 400 for a bad body', async () => {
      const missing = await transfer('ghost-order', PINHEIROS, MOEMA);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorD('Order ghost-order not found'));
      for (const extra of [{ processed_by: undefined }, { transfer_reason: '' }, { shipping_address: ['x'] }]) {
        const response = await transfer('ghost-order', PINHEIROS, MOEMA, extra);
        expect(response.status).toBe(400);
        expect(Object.keys(response.body)).toEqual(['error', 'message']);
      }
    });
  });

  describe('GET /api/api/order/infoPayments', () => {
    const march = {
      p1: unique('pay-root'),
      p2: unique('pay-order'),
      p3: unique('pay-ar'),
      p4: unique('pay-june'),
      p5: unique('pay-none'),
    };

    beforeAll(async () => {
      const create = async (orderId: string, createdAt: string, extra: Record<string, unknown>) => {
        await enrichedOrder(orderId, PINHEIROS, extra);
        await t.dataSource.query('UPDATE orders SET created_at = $2 WHERE order_id = $1', [orderId, createdAt]);
      };
      await create(march.p1, '2025-03-01T10:00:00Z', {
        country: 'BR',
        account: 'ACC-1',
        sellerId: 55,
        payments: [{ method: 'CREDIT_CARD', value: 25.9 }],
      });
      await create(march.p2, '2025-03-02T18:00:00Z', {
        store: { id: PINHEIROS, country: 'BR', sellerId: '56', account: 'ACC-2' },
        payments: undefined,
        order: { products: [], payments: [{ method: 'PIX', value: 10 }] },
      });
      await create(march.p3, '2025-03-03T09:00:00Z', {
        country: 'AR',
        store: { id: PINHEIROS, country: 'BR' },
        payments: [{ method: 'CASH', value: 5 }],
      });
      await create(march.p4, '2025-06-30T12:00:00Z', { country: 'BR', payments: [{ method: 'PIX', value: 1 }] });
      await create(march.p5, '2025-03-04T09:00:00Z', { country: 'CL', payments: undefined });
    });

    const get = (query: Record<string, string | number | undefined>) => t.http.get(`${ORDER}/infoPayments`, { token: orders, query });

    it('lists the orders of the period, oldest first, with their payments', async () => {
      const response = await get({ startDate: '2025-03-01', endDate: '2025-03-31' });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        message: '4 order(s) between 2025-03-01 and 2025-03-31',
        status: 'success',
        total: 4,
        page: 1,
        pageSize: 20,
      });
      expect(response.body.items.map((item: { orderId: string }) => item.orderId)).toEqual([march.p1, march.p2, march.p3, march.p5]);
      const p1 = await row(march.p1);
      expect(response.body.items[0]).toEqual({
        orderId: march.p1,
        orderDbId: p1.id,
        storeId: PINHEIROS,
        createdAt: '2025-03-01T10:00:00.000Z',
        payments: [{ method: 'CREDIT_CARD', value: 25.9 }],
      });
      expect(response.body.items[1].payments).toEqual([{ method: 'PIX', value: 10 }]); // from order.payments
      expect(response.body.items[3].payments).toBeNull();
    });

    it('filters on country, account and sellerId: the root property, else the one under store', async () => {
      const ids = async (query: Record<string, string>) =>
        (await get({ startDate: '2025-03-01', endDate: '2025-03-31', ...query })).body.items.map(
          (item: { orderId: string }) => item.orderId,
        );
      expect(await ids({ country: 'BR' })).toEqual([march.p1, march.p2]); // p3 has root country AR
      expect(await ids({ country: 'AR' })).toEqual([march.p3]);
      expect(await ids({ sellerId: '55' })).toEqual([march.p1]); // a number in the payload, compared as text
      expect(await ids({ sellerId: '56' })).toEqual([march.p2]);
      expect(await ids({ account: 'ACC-2', country: 'BR' })).toEqual([march.p2]);
      expect(await ids({ country: 'US' })).toEqual([]);
    });

    it('pages, and answers an empty page past the end with the total', async () => {
      const second = await get({ startDate: '2025-03-01', endDate: '2025-03-31', page: 2, pageSize: 3 });
      expect(second.body).toMatchObject({ total: 4, page: 2, pageSize: 3 });
      expect(second.body.items.map((item: { orderId: string }) => item.orderId)).toEqual([march.p5]);
      const past = await get({ startDate: '2025-03-01', endDate: '2025-03-31', page: 9, pageSize: 3 });
      expect(past.body).toMatchObject({ total: 4, items: [] });
    });

    it('includes the whole end day for a date, and exact instants for date-times', async () => {
      const day = await get({ startDate: '2025-03-02', endDate: '2025-03-02' });
      expect(day.body.items.map((item: { orderId: string }) => item.orderId)).toEqual([march.p2]);
      const instants = await get({ startDate: '2025-03-01T10:00:00Z', endDate: '2025-03-02T17:59:59Z' });
      expect(instants.body.items.map((item: { orderId: string }) => item.orderId)).toEqual([march.p1]);
      const offset = await get({ startDate: '2025-06-30T08:00:00-03:00', endDate: '2025-06-30T09:00:00-03:00' });
      expect(offset.body.items.map((item: { orderId: string }) => item.orderId)).toEqual([march.p4]);
    });

    it.each([
      ['no startDate', { endDate: '2025-03-31' }, 'startDate'],
      ['no endDate', { startDate: '2025-03-01' }, 'endDate'],
      ['a date that does not exist', { startDate: '2025-02-30', endDate: '2025-03-31' }, 'startDate'],
      ['a date that is not ISO', { startDate: '01/03/2025', endDate: '2025-03-31' }, 'startDate'],
      ['startDate after endDate', { startDate: '2025-04-01', endDate: '2025-03-31' }, 'startDate: must not be later than endDate'],
      ['more than 93 days', { startDate: '2025-01-01', endDate: '2025-04-05' }, 'endDate: must be at most 93 days after startDate'],
      ['a page of 0', { startDate: '2025-03-01', endDate: '2025-03-31', page: 0 }, 'page'],
      ['a pageSize over 100', { startDate: '2025-03-01', endDate: '2025-03-31', pageSize: 101 }, 'pageSize'],
      ['an empty country', { startDate: '2025-03-01', endDate: '2025-03-31', country: '' }, 'country'],
      ['an unknown parameter', { startDate: '2025-03-01', endDate: '2025-03-31', store: '1' }, 'store'],
    ])('400 { error } for %s', async (_label, query, mentioned) => {
      const response = await get(query);
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error', 'message']);
      expect(response.body.error).toContain(mentioned);
    });

    it('accepts exactly 93 days', async () => {
      expect((await get({ startDate: '2025-01-01', endDate: '2025-04-04' })).status).toBe(200);
    });
  });

  it('records every status change of an order in its history, with the client and the route', async () => {
    const orderId = unique('hist');
    await enrichedOrder(orderId, PINHEIROS, { order: { type: 'PICKUP', products: [] } });
    await setStatus(orderId, 'ACCEPTED');
    expect((await t.http.post(`${ORDER}/tracking`, { order_id: orderId, status: 'IN_PREPARATION' }, { token: orders })).status).toBe(200);
    expect((await t.http.post(`${ORDER}/tracking`, { order_id: orderId, status: 'PACKING' }, { token: orders })).status).toBe(200);
    await setStatus(orderId, 'READY');
    expect((await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-H' }, { token: orders })).status).toBe(200);
    await setStatus(orderId, 'DELIVERED');
    expect((await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'CANCELLED' }, { token: orders })).status).toBe(409);

    const status = 'POST /api/api/order/status';
    expect(await history(orderId)).toEqual([
      { from_status: null, to_status: 'ENRICHED', client_id: ordersClient, via: 'POST /api/enrich-order' },
      { from_status: 'ENRICHED', to_status: 'ACCEPTED', client_id: ordersClient, via: status },
      { from_status: 'ACCEPTED', to_status: 'IN_PREPARATION', client_id: ordersClient, via: 'POST /api/api/order/tracking' },
      { from_status: 'IN_PREPARATION', to_status: 'READY', client_id: ordersClient, via: status },
      { from_status: 'READY', to_status: 'DISPATCHED', client_id: ordersClient, via: 'POST /api/api/order/dispatched' },
      { from_status: 'DISPATCHED', to_status: 'DELIVERED', client_id: ordersClient, via: status },
    ]);
  });

  it('serializes concurrent status changes of one order: each move is checked against the status it really follows', async () => {
    const orderId = unique('race');
    await enrichedOrder(orderId);
    await setStatus(orderId, 'READY');
    // Four moves at once, each under the row lock: a move after a final status is refused, so at most
    // DISPATCHED and then one final status are accepted.
    const answers = await Promise.all(
      ['DELIVERED', 'CANCELLED', 'DISPATCHED', 'REJECTED'].map((status) =>
        t.http.post(`${ORDER}/status`, { order_id: orderId, status }, { token: orders }),
      ),
    );
    const history_ = await history(orderId);
    // Every accepted change is a row whose from_status is the previous row's to_status.
    for (let index = 1; index < history_.length; index++) expect(history_[index]!.from_status).toBe(history_[index - 1]!.to_status);
    const accepted = answers.filter((answer) => answer.status === 200).length;
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    expect([1, 2]).toContain(accepted);
    expect(history_.length).toBe(2 + accepted); // ENRICHED, READY, then each accepted change
    expect(['DELIVERED', 'CANCELLED', 'REJECTED']).toContain((await row(orderId)).status);
  });

  it('shows every change made here on the order detail route: history, tracking, transfer, dispatch', async () => {
    const orderId = unique('detail');
    await enrichedOrder(orderId, PINHEIROS, {
      order: { type: 'PICKUP', products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
    });
    await setStatus(orderId, 'ACCEPTED');
    const tracked = await t.http.post(
      `${ORDER}/tracking`,
      {
        order_id: orderId,
        status: 'IN_PREPARATION',
        trackingInfo: { trackurl: 'https://t.example/1', trackingNumber: 'BR1', deliveryConfirmationCode: '77', shippingCoordinates: [] },
      },
      { token: orders },
    );
    expect(tracked.status).toBe(200);
    const moved = await t.http.put(
      `${ORDER}/transfer`,
      { order: orderId, from_store: PINHEIROS, to_store: VILA_MARIANA, processed_by: 'Maria', transfer_reason: 'Oven down' },
      { token: orders },
    );
    expect(moved.status).toBe(200);
    await setStatus(orderId, 'READY');
    expect((await t.http.post(`${ORDER}/dispatched`, { codigo_app: orderId, id_transaccion: 'TX-42' }, { token: orders })).status).toBe(
      200,
    );

    const detail = await t.http.get(`/admin/orders/${orderId}`, { token: await t.tokenFor(['admin']) });
    expect(detail.status).toBe(200);
    const client = clientIdOf(orders);
    expect(
      detail.body.history.map((entry: { status: string; from: string | null; via: string; clientId: string }) => [
        entry.from,
        entry.status,
        entry.via,
        entry.clientId,
      ]),
    ).toEqual([
      [null, 'ENRICHED', 'POST /api/enrich-order', client],
      ['ENRICHED', 'ACCEPTED', 'POST /api/api/order/status', client],
      ['ACCEPTED', 'IN_PREPARATION', 'POST /api/api/order/tracking', client],
      ['IN_PREPARATION', 'READY', 'POST /api/api/order/status', client],
      ['READY', 'DISPATCHED', 'POST /api/api/order/dispatched', client],
    ]);
    expect(detail.body.tracking).toEqual([
      expect.objectContaining({ status: 'IN_PREPARATION', orderStatusApplied: true, trackingNumber: 'BR1', clientId: client }),
    ]);
    expect(detail.body.transfers).toEqual([
      expect.objectContaining({
        fromStore: PINHEIROS,
        toStore: VILA_MARIANA,
        processedBy: 'Maria',
        transferReason: 'Oven down',
        refiscalized: false,
      }),
    ]);
    expect(detail.body.dispatches).toEqual([expect.objectContaining({ idTransaccion: 'TX-42', clientId: client })]);
    expect(detail.body.storeId).toBe(VILA_MARIANA);
    expect(detail.body.status).toBe('DISPATCHED');
  });
});
