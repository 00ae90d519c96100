import { ok } from '../support/api.js';
import {
  bootChannelsApp,
  channelsSteps,
  FIXTURE_URL,
  PATH,
  readJson,
  richExpected,
  richRequest,
  type ChannelsApp,
} from '../support/channels.js';
import type { TestApp } from '../support/test-app.js';

describe('stores and sales channels (e2e)', () => {
  let app: ChannelsApp;
  let t: TestApp;
  let bearer: string;
  const { post, read } = channelsSteps(() => app);

  beforeAll(async () => {
    app = await bootChannelsApp();
    ({ t, bearer } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the platform request', () => {
    it('is accepted as is and answered with a fresh token for the client', async () => {
      const response = await post(readJson(FIXTURE_URL));
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ accessToken: expect.any(String) });
      const fresh = t.apiAs(response.body.accessToken);
      expect(ok(await fresh.GET('/api/authentication/me'), 200).scopes).toEqual(['admin']);
      // The fresh token opens GET too.
      ok(await fresh.GET('/api/v3/channels-stores'), 200);
    });

    it('round-trips through GET: unknown properties kept, numbers as numbers, 1.9999 exact, latitude text kept', async () => {
      const sample = readJson(FIXTURE_URL);
      expect((await post(sample)).status).toBe(200);
      const response = await t.http.get(PATH, { token: bearer });
      expect(response.status).toBe(200);
      expect(response.text).toContain('"shippingCost":1.9999');
      expect(response.body).toEqual({
        vendorId: '10',
        stores: [
          {
            name: 'EL HORNERO GONZALEZ SUAREZ TESTSSS',
            active: true,
            default: true,
            storeId: 1,
            vendorId: 10,
            storeCode: '1',
            services: [],
            schedules: sample.stores[0].schedules,
            schedulesByChannel: [],
            taxesInfo: { taxRate: null, vatRatePercentage: 12 },
            contactInfo: { phone: '1700-005005', address: 'GONZALEZ SUAREZ N 32-62 Y JACINTO BEJARANO' },
            // cookTime and minimumOrder are typed as text by the spec: the numbers sent come back as text.
            deliveryInfo: { cookTime: '30', deliveryId: 1, minimumOrder: '6', shippingCost: 1.9999 },
            locationInfo: { city: 'QUITO', latitude: '-0.194983', longitude: '-78.478709' },
            storeChannels: ['HORNERO-DOMICILE'],
            fiscalGroupId: null,
          },
        ],
        channels: [
          {
            active: true,
            channel: 'Domicilio App',
            vendorId: null,
            channelId: 'HORNERO-DOMICILE',
            channelReferenceName: null,
            additionalInfo: { mediaId: null, mediaName: null, relatedLists: [] },
            ecommerceChannelId: '1',
          },
        ],
      });
      expect(sample.stores[0].schedules).toHaveLength(7);
    });
  });

  it('round-trips a richer real-like request through GET', async () => {
    expect((await post(richRequest())).status).toBe(200);
    expect(await read()).toEqual(richExpected());
  });

  it('accepts numeric strings where the spec says integer or number and stores them as numbers', async () => {
    const request = {
      stores: [
        {
          storeId: '0042',
          vendorId: '1350',
          taxesInfo: { taxRate: '9.25', vatRatePercentage: '18' },
          deliveryInfo: { deliveryId: '3', minimumOrder: '25.50', shippingCost: '1.9999' },
          storeChannels: ['C'],
        },
        { storeId: 43, vendorId: 1350, taxesInfo: { taxRate: 9.25 }, deliveryInfo: { deliveryId: 3, minimumOrder: 7, shippingCost: 2 } },
      ],
      channels: [{ channelId: 'C', vendorId: '77' }],
    };
    expect((await post(request)).status).toBe(200);
    const { stores, channels } = await read();
    expect(stores.map((store) => [store.storeId, store.vendorId, store.taxesInfo, store.deliveryInfo])).toEqual([
      [42, 1350, { taxRate: 9.25, vatRatePercentage: 18 }, { cookTime: null, deliveryId: 3, minimumOrder: '25.50', shippingCost: 1.9999 }],
      [43, 1350, { taxRate: 9.25, vatRatePercentage: null }, { cookTime: null, deliveryId: 3, minimumOrder: '7', shippingCost: 2 }],
    ]);
    expect(channels[0].vendorId).toBe(77);
    // The columns' own text in PostgreSQL (numeric scale, no float rounding on the way): read raw.
    const [row] = await t.dataSource.query<Array<Record<string, string>>>(
      `SELECT store_id::text, vendor_id::text, shipping_cost::text FROM store WHERE store_id = 42`,
    );
    expect(row).toEqual({ store_id: '42', vendor_id: '1350', shipping_cost: '1.9999' });
  });

  it('normalizes days to upper case and H:MM times to HH:MM', async () => {
    const request = {
      stores: [
        {
          storeId: 1,
          schedules: [{ day: 'monday', startTime: '9:05', endTime: '23:59' }],
          schedulesByChannel: [
            { channelId: 'C', schedules: [{ day: 'Special', startTime: '0:00', endTime: '6:30', startDate: '2026-01-01' }] },
          ],
        },
      ],
      channels: [{ channelId: 'C' }],
    };
    expect((await post(request)).status).toBe(200);
    const [store] = (await read()).stores;
    expect(store.schedules).toEqual([{ day: 'MONDAY', startTime: '09:05', endTime: '23:59' }]);
    expect(store.schedulesByChannel).toEqual([
      { channelId: 'C', schedules: [{ day: 'SPECIAL', startTime: '00:00', endTime: '06:30', startDate: '2026-01-01', endDate: null }] },
    ]);
  });

  describe('fiscalGroupId', () => {
    it('is the id of the fiscal group holding the store, null for the others', async () => {
      expect((await post({ stores: [{ storeId: '501' }, { storeId: 502 }], channels: [] })).status).toBe(200);
      // A real group claiming store "501"; store 502 belongs to none.
      const created = await t.api.POST('/api/admin/fiscal-groups', {
        body: { name: 'Grupo SP', uf: 'SP', stores: [{ store_id: '501', store_name: 'Loja 501' }], taxMatrix: {} },
      });
      const groupId = ok(created, 201).id;
      const { stores } = await read();
      expect(stores.map((store) => [store.storeId, store.fiscalGroupId])).toEqual([
        [501, groupId],
        [502, null],
      ]);
    });
  });
});
