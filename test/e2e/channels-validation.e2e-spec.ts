import {
  bootChannelsApp,
  channelsSteps,
  expectError,
  PATH,
  type ChannelsAnswer,
  type ChannelsApp,
  type ChannelsRequest,
} from '../support/channels.js';
import type { TestApp } from '../support/test-app.js';

/** Where a value sits in a request: property names and array indexes. */
type JsonPath = Array<string | number>;
/** Changes a request in place, breaking its schema on purpose. */
type Breaker = (request: ChannelsRequest) => void;

/** The object or array at `path` in `root`; the test fails when there is none. */
function at(root: unknown, path: JsonPath): Record<string | number, unknown> {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) throw new Error(`nothing at ${path.join('.')}`);
    node = (node as Record<string | number, unknown>)[key];
  }
  if (typeof node !== 'object' || node === null) throw new Error(`no object at ${path.join('.')}`);
  return node as Record<string | number, unknown>;
}
const parentAndKey = (path: JsonPath) => [path.slice(0, -1), path[path.length - 1]!] as const;

/** Sets the value at `path`, whatever its type. */
const set =
  (path: JsonPath, value: unknown): Breaker =>
  (request) => {
    const [parent, key] = parentAndKey(path);
    at(request, parent)[key] = value;
  };
/** Removes the property at `path`. */
const remove =
  (path: JsonPath): Breaker =>
  (request) => {
    const [parent, key] = parentAndKey(path);
    delete at(request, parent)[key];
  };
/** Adds `value` at the end of the array at `path`. */
const append =
  (path: JsonPath, value: unknown): Breaker =>
  (request) => {
    const list = at(request, path);
    if (!Array.isArray(list)) throw new Error(`no array at ${path.join('.')}`);
    list.push(value);
  };

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

  describe('validation: each rule answers 400 in the channel-configuration error shape, naming the problem', () => {
    /** A small valid request each case breaks in one place. */
    const base = (): ChannelsRequest => ({
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
    const STORE: JsonPath = ['stores', 0];
    const SCHEDULE: JsonPath = [...STORE, 'schedulesByChannel', 0, 'schedules', 0];
    const SPECIAL: JsonPath = [...STORE, 'schedulesByChannel', 0, 'schedules', 1];

    it('the base request is valid', async () => {
      expect((await post(base())).status).toBe(200);
    });

    const cases: Array<[string, Breaker, string]> = [
      ['stores missing', remove(['stores']), 'stores: is required and must be an array'],
      ['stores not an array', set(['stores'], { 1: {} }), 'stores: must be an array'],
      ['channels not an array', set(['channels'], 'A'), 'channels: must be an array'],
      ['a store not an object', append(['stores'], 'store'), 'stores[1]: must be an object'],
      ['storeId missing', remove([...STORE, 'storeId']), 'stores[0].storeId: is required'],
      ['storeId not an integer', set([...STORE, 'storeId'], '1a'), 'stores[0].storeId: must be a non-negative integer'],
      ['storeId a fraction', set([...STORE, 'storeId'], 1.5), 'stores[0].storeId: must be a non-negative integer'],
      ['storeId repeated', append(['stores'], { storeId: 1 }), 'stores[1].storeId: duplicate storeId 1 (also stores[0])'],
      ['channelId repeated', append(['channels'], { channelId: 'A' }), 'channels[2].channelId: duplicate channelId "A" (also channels[0])'],
      ['channelId missing', remove(['channels', 1, 'channelId']), 'channels[1].channelId: is required'],
      ['channelId empty', set(['channels', 1, 'channelId'], ' '), 'channels[1].channelId: must not be empty'],
      [
        'storeChannels naming a channel not sent',
        set([...STORE, 'storeChannels'], ['A', 'Z']),
        `stores[0].storeChannels[1]: channel "Z" is not in this request's channels`,
      ],
      [
        'storeChannels naming a channel twice',
        set([...STORE, 'storeChannels'], ['A', 'B', 'A']),
        'stores[0].storeChannels[2]: duplicate channel "A" (also storeChannels[0])',
      ],
      [
        'schedulesByChannel naming a channel not sent',
        set([...STORE, 'schedulesByChannel', 0, 'channelId'], 'Z'),
        `stores[0].schedulesByChannel[0].channelId: channel "Z" is not in this request's channels`,
      ],
      [
        'day not a week day nor SPECIAL',
        set([...SCHEDULE, 'day'], 'FUNDAY'),
        'stores[0].schedulesByChannel[0].schedules[0].day: must be one of MONDAY, TUESDAY, WEDNESDAY, THURSDAY, FRIDAY, SATURDAY, SUNDAY, SPECIAL (got "FUNDAY")',
      ],
      ['day missing', remove([...STORE, 'schedules', 0, 'day']), 'stores[0].schedules[0].day: is required'],
      [
        'startTime 24:00',
        set([...SCHEDULE, 'startTime'], '24:00'),
        'schedules[0].startTime: must be a time H:MM or HH:MM from 0:00 to 23:59',
      ],
      ['endTime minutes 60', set([...SCHEDULE, 'endTime'], '12:60'), 'schedules[0].endTime: must be a time H:MM or HH:MM'],
      ['endTime one minute digit', set([...SCHEDULE, 'endTime'], '7:5'), 'schedules[0].endTime: must be a time H:MM or HH:MM'],
      ['startTime a number', set([...STORE, 'schedules', 0, 'startTime'], 1100), 'stores[0].schedules[0].startTime: must be a time'],
      ['endTime missing', remove([...STORE, 'schedules', 0, 'endTime']), 'stores[0].schedules[0].endTime: is required'],
      ['dates on a week day', set([...SCHEDULE, 'startDate'], '2025-12-24'), 'schedules[0].startDate: is allowed only on SPECIAL entries'],
      ['SPECIAL date not a date', set([...SPECIAL, 'startDate'], '2025-02-30'), 'schedules[1].startDate: must be a date YYYY-MM-DD'],
      [
        'SPECIAL endDate before startDate',
        set([...SPECIAL, 'endDate'], '2025-12-01'),
        'schedules[1].endDate: must not be before startDate',
      ],
      [
        'latitude above 90',
        set([...STORE, 'locationInfo', 'latitude'], '90.5'),
        'locationInfo.latitude: must be decimal text from -90 to 90',
      ],
      [
        'latitude not text',
        set([...STORE, 'locationInfo', 'latitude'], -0.19),
        'locationInfo.latitude: must be decimal text from -90 to 90',
      ],
      ['latitude not decimal', set([...STORE, 'locationInfo', 'latitude'], '0,19'), 'locationInfo.latitude: must be decimal text'],
      [
        'longitude below -180',
        set([...STORE, 'locationInfo', 'longitude'], '-180.01'),
        'locationInfo.longitude: must be decimal text from -180 to 180',
      ],
      [
        'minimumOrder negative',
        set([...STORE, 'deliveryInfo', 'minimumOrder'], '-0.01'),
        'deliveryInfo.minimumOrder: must be a number >= 0',
      ],
      [
        'minimumOrder negative number',
        set([...STORE, 'deliveryInfo', 'minimumOrder'], -1),
        'deliveryInfo.minimumOrder: must be a number >= 0',
      ],
      [
        'minimumOrder not decimal',
        set([...STORE, 'deliveryInfo', 'minimumOrder'], 'six'),
        'deliveryInfo.minimumOrder: must be a number >= 0',
      ],
      [
        'shippingCost not a number',
        set([...STORE, 'deliveryInfo', 'shippingCost'], '1.9.9'),
        'deliveryInfo.shippingCost: must be a number >= 0',
      ],
      [
        'vatRatePercentage a boolean',
        set([...STORE, 'taxesInfo', 'vatRatePercentage'], true),
        'taxesInfo.vatRatePercentage: must be a number',
      ],
      [
        'deliveryId not an integer',
        set([...STORE, 'deliveryInfo', 'deliveryId'], '3a'),
        'deliveryInfo.deliveryId: must be a non-negative integer',
      ],
      ['vendorId negative', set(['channels', 0, 'vendorId'], '-3'), 'channels[0].vendorId: must be a non-negative integer'],
      ['active not a boolean', set([...STORE, 'active'], 'true'), 'stores[0].active: must be a boolean (got "true")'],
      ['name not a string', set([...STORE, 'name'], 123), 'stores[0].name: must be a string (got 123)'],
      ['cookTime an object', set([...STORE, 'deliveryInfo', 'cookTime'], { minutes: 30 }), 'deliveryInfo.cookTime: must be a string'],
      ['taxesInfo not an object', set([...STORE, 'taxesInfo'], '12'), 'stores[0].taxesInfo: must be an object'],
      ['services not an array', set([...STORE, 'services'], { name: 'X' }), 'stores[0].services: must be an array'],
      ['a service without name', set([...STORE, 'services'], [{ active: true }]), 'stores[0].services[0].name: is required'],
      [
        'a related list without listId',
        remove(['channels', 0, 'additionalInfo', 'relatedLists', 0, 'listId']),
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
      for (const breakIt of [
        set([...STORE, 'storeChannels'], ['Z']),
        set([...SCHEDULE, 'day'], 'FUNDAY'),
        set([...STORE, 'locationInfo', 'latitude'], '-91'),
        set([...STORE, 'deliveryInfo', 'minimumOrder'], -5),
        append(['channels'], { channelId: 'B' }),
        append(['stores'], { storeId: 'x' }),
      ])
        breakIt(request);
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

    it('answers 400 in the channel-configuration error shape to malformed JSON', async () => {
      const response = await t.http.post<ChannelsAnswer>(PATH, undefined, {
        raw: '{"stores": [',
        headers: { authorization: admin, 'content-type': 'application/json' },
      });
      expectError(response, 400);
    });
  });
});
