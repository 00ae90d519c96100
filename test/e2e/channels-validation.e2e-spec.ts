import { bootChannelsApp, channelsSteps, expectError, PATH, type ChannelsAnswer, type ChannelsApp } from '../support/channels.js';
import type { TestApp } from '../support/test-app.js';

describe('stores and sales channels (e2e)', () => {
  let app: ChannelsApp;
  let t: TestApp;
  let admin: string;
  const { post } = channelsSteps(() => app);

  beforeAll(async () => {
    app = await bootChannelsApp();
    ({ t, admin } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('validation: each rule answers 400 Error B naming the problem', () => {
    /** A small valid request each case breaks in one place. */
    const base = (): any => ({
      stores: [
        {
          name: 'Loja 1',
          active: true,
          storeId: '1',
          vendorId: '10',
          storeCode: 'L1',
          services: [{ name: 'DELIVERY', active: true }],
          schedules: [{ day: 'MONDAY', startTime: '11:00', endTime: '22:00' }],
          schedulesByChannel: [
            {
              channelId: 'A',
              schedules: [
                { day: 'TUESDAY', startTime: '11:00', endTime: '22:00' },
                { day: 'SPECIAL', startTime: '12:00', endTime: '14:00', startDate: '2025-12-24', endDate: '2025-12-25' },
              ],
            },
          ],
          taxesInfo: { taxRate: 1, vatRatePercentage: 12 },
          contactInfo: { phone: '1', address: 'Rua 1' },
          deliveryInfo: { cookTime: '30', deliveryId: '1', minimumOrder: '6.00', shippingCost: 1.5 },
          locationInfo: { city: 'Quito', latitude: '-0.19', longitude: '-78.47' },
          storeChannels: ['A'],
        },
      ],
      channels: [
        {
          active: true,
          channel: 'App',
          vendorId: '10',
          channelId: 'A',
          additionalInfo: { relatedLists: [{ listId: 'L1', listName: 'Main' }] },
        },
        { active: true, channel: 'Phone', channelId: 'B' },
      ],
    });
    const store = (request: any) => request.stores[0];
    const schedule = (request: any) => request.stores[0].schedulesByChannel[0].schedules[0];
    const special = (request: any) => request.stores[0].schedulesByChannel[0].schedules[1];

    it('the base request is valid', async () => {
      expect((await post(base())).status).toBe(200);
    });

    const cases: Array<[string, (request: any) => unknown, string]> = [
      ['stores missing', (r) => delete r.stores, 'stores: is required and must be an array'],
      ['stores not an array', (r) => (r.stores = { 1: {} }), 'stores: must be an array'],
      ['channels not an array', (r) => (r.channels = 'A'), 'channels: must be an array'],
      ['a store not an object', (r) => r.stores.push('store'), 'stores[1]: must be an object'],
      ['storeId missing', (r) => delete store(r).storeId, 'stores[0].storeId: is required'],
      ['storeId not an integer', (r) => (store(r).storeId = '1a'), 'stores[0].storeId: must be a non-negative integer'],
      ['storeId a fraction', (r) => (store(r).storeId = 1.5), 'stores[0].storeId: must be a non-negative integer'],
      ['storeId repeated', (r) => r.stores.push({ storeId: 1 }), 'stores[1].storeId: duplicate storeId 1 (also stores[0])'],
      [
        'channelId repeated',
        (r) => r.channels.push({ channelId: 'A' }),
        'channels[2].channelId: duplicate channelId "A" (also channels[0])',
      ],
      ['channelId missing', (r) => delete r.channels[1].channelId, 'channels[1].channelId: is required'],
      ['channelId empty', (r) => (r.channels[1].channelId = ' '), 'channels[1].channelId: must not be empty'],
      [
        'storeChannels naming a channel not sent',
        (r) => (store(r).storeChannels = ['A', 'Z']),
        `stores[0].storeChannels[1]: channel "Z" is not in this request's channels`,
      ],
      [
        'storeChannels naming a channel twice',
        (r) => (store(r).storeChannels = ['A', 'B', 'A']),
        'stores[0].storeChannels[2]: duplicate channel "A" (also storeChannels[0])',
      ],
      [
        'schedulesByChannel naming a channel not sent',
        (r) => (store(r).schedulesByChannel[0].channelId = 'Z'),
        `stores[0].schedulesByChannel[0].channelId: channel "Z" is not in this request's channels`,
      ],
      [
        'day not a week day nor SPECIAL',
        (r) => (schedule(r).day = 'FUNDAY'),
        'stores[0].schedulesByChannel[0].schedules[0].day: must be one of MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY, SUNDAY, SPECIAL (got "FUNDAY")',
      ],
      ['day missing', (r) => delete store(r).schedules[0].day, 'stores[0].schedules[0].day: is required'],
      [
        'startTime 24:00',
        (r) => (schedule(r).startTime = '24:00'),
        'schedules[0].startTime: must be a time H:MM or HH:MM from 0:00 to 23:59',
      ],
      ['endTime minutes 60', (r) => (schedule(r).endTime = '12:60'), 'schedules[0].endTime: must be a time H:MM or HH:MM'],
      ['endTime one minute digit', (r) => (schedule(r).endTime = '7:5'), 'schedules[0].endTime: must be a time H:MM or HH:MM'],
      ['startTime a number', (r) => (store(r).schedules[0].startTime = 1100), 'stores[0].schedules[0].startTime: must be a time'],
      ['endTime missing', (r) => delete store(r).schedules[0].endTime, 'stores[0].schedules[0].endTime: is required'],
      ['dates on a week day', (r) => (schedule(r).startDate = '2025-12-24'), 'schedules[0].startDate: is allowed only on SPECIAL entries'],
      ['SPECIAL date not a date', (r) => (special(r).startDate = '2025-02-30'), 'schedules[1].startDate: must be a date YYYY-MM-DD'],
      [
        'SPECIAL endDate before startDate',
        (r) => (special(r).endDate = '2025-12-01'),
        'schedules[1].endDate: must not be before startDate',
      ],
      ['latitude above 90', (r) => (store(r).locationInfo.latitude = '90.5'), 'locationInfo.latitude: must be decimal text from -90 to 90'],
      ['latitude not text', (r) => (store(r).locationInfo.latitude = -0.19), 'locationInfo.latitude: must be decimal text from -90 to 90'],
      ['latitude not decimal', (r) => (store(r).locationInfo.latitude = '0,19'), 'locationInfo.latitude: must be decimal text'],
      [
        'longitude below -180',
        (r) => (store(r).locationInfo.longitude = '-180.01'),
        'locationInfo.longitude: must be decimal text from -180 to 180',
      ],
      ['minimumOrder negative', (r) => (store(r).deliveryInfo.minimumOrder = '-0.01'), 'deliveryInfo.minimumOrder: must be a number >= 0'],
      [
        'minimumOrder negative number',
        (r) => (store(r).deliveryInfo.minimumOrder = -1),
        'deliveryInfo.minimumOrder: must be a number >= 0',
      ],
      ['minimumOrder not decimal', (r) => (store(r).deliveryInfo.minimumOrder = 'six'), 'deliveryInfo.minimumOrder: must be a number >= 0'],
      [
        'shippingCost not a number',
        (r) => (store(r).deliveryInfo.shippingCost = '1.9.9'),
        'deliveryInfo.shippingCost: must be a number >= 0',
      ],
      [
        'vatRatePercentage a boolean',
        (r) => (store(r).taxesInfo.vatRatePercentage = true),
        'taxesInfo.vatRatePercentage: must be a number',
      ],
      [
        'deliveryId not an integer',
        (r) => (store(r).deliveryInfo.deliveryId = '3a'),
        'deliveryInfo.deliveryId: must be a non-negative integer',
      ],
      ['vendorId negative', (r) => (r.channels[0].vendorId = '-3'), 'channels[0].vendorId: must be a non-negative integer'],
      ['active not a boolean', (r) => (store(r).active = 'true'), 'stores[0].active: must be a boolean (got "true")'],
      ['name not a string', (r) => (store(r).name = 123), 'stores[0].name: must be a string (got 123)'],
      ['cookTime an object', (r) => (store(r).deliveryInfo.cookTime = { minutes: 30 }), 'deliveryInfo.cookTime: must be a string'],
      ['taxesInfo not an object', (r) => (store(r).taxesInfo = '12'), 'stores[0].taxesInfo: must be an object'],
      ['services not an array', (r) => (store(r).services = { name: 'X' }), 'stores[0].services: must be an array'],
      ['a service without name', (r) => (store(r).services = [{ active: true }]), 'stores[0].services[0].name: is required'],
      [
        'a related list without listId',
        (r) => delete r.channels[0].additionalInfo.relatedLists[0].listId,
        'relatedLists[0].listId: is required',
      ],
    ];

    it.each(cases)('%s', async (_label, breakIt, problem) => {
      const request = base();
      breakIt(request);
      const response = await post(request);
      expectError(response, 400);
      expect(response.body.message).toContain(problem);
    });

    it.each([[[1, 2]], ['stores'], [null], [42]])('a body that is not an object (%j)', async (body) => {
      const response = await post(body);
      expectError(response, 400);
      expect(response.body.message).toContain('body: must be a JSON object');
    });

    it('lists every problem of a request in one 400', async () => {
      const request = base();
      store(request).storeChannels = ['Z'];
      schedule(request).day = 'FUNDAY';
      store(request).locationInfo.latitude = '-91';
      store(request).deliveryInfo.minimumOrder = -5;
      request.channels.push({ channelId: 'B' });
      request.stores.push({ storeId: 'x' });
      const response = await post(request);
      expectError(response, 400);
      for (const problem of [
        `stores[0].storeChannels[0]: channel "Z" is not in this request's channels`,
        'stores[0].schedulesByChannel[0].schedules[0].day: must be one of',
        'stores[0].locationInfo.latitude: must be decimal text from -90 to 90',
        'stores[0].deliveryInfo.minimumOrder: must be a number >= 0',
        'channels[2].channelId: duplicate channelId "B" (also channels[1])',
        'stores[1].storeId: must be a non-negative integer',
      ]) {
        expect(response.body.message).toContain(problem);
      }
    });

    it('answers 400 Error B to malformed JSON', async () => {
      const response = await t.http.post<ChannelsAnswer>(PATH, undefined, {
        raw: '{"stores": [',
        headers: { authorization: admin, 'content-type': 'application/json' },
      });
      expectError(response, 400);
    });
  });
});
