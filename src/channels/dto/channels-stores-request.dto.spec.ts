import { ApiError } from '../../common/errors/api-error.js';
import { readOpenBody } from '../../common/http/open-body.js';
import { CHANNELS_STORES_BODY, ChannelsStoresRequestDto } from './channels-stores-request.dto.js';
import { toParsedConfiguration, withExtra } from './channels-stores.mapper.js';

/** What the service reads of a body. */
const parse = async (body: unknown) => toParsedConfiguration(await readOpenBody(ChannelsStoresRequestDto, body, CHANNELS_STORES_BODY));

async function problemsOf(body: unknown): Promise<string[]> {
  try {
    await parse(body);
  } catch (error) {
    if (error instanceof ApiError) return (error.details ?? []).map((detail) => `${detail.field}: ${detail.problem}`);
    throw error;
  }
  return [];
}

describe('ChannelsStoresRequestDto', () => {
  it('keeps unknown properties at every depth, by position inside arrays', async () => {
    const parsed = await parse({
      vendorId: '10',
      stores: [
        {
          storeId: '1',
          default: true,
          services: [{ name: 'A' }, { name: 'B', code: 'b' }],
          deliveryInfo: { shippingCost: 1, surge: 2 },
          schedulesByChannel: [{ channelId: 'C', schedules: [{ day: 'monday', startTime: '9:00', endTime: '10:00', note: 'x' }] }],
          fiscalGroupId: 'ignored',
        },
      ],
      channels: [{ channelId: 'C', ecommerceChannelId: '1', additionalInfo: { theme: 'dark', relatedLists: [{ listId: 'L', rank: 1 }] } }],
    });
    expect(parsed.extra).toEqual({ vendorId: '10' });
    expect(parsed.stores[0]!.extra).toEqual({
      default: true,
      services: [null, { code: 'b' }],
      deliveryInfo: { surge: 2 },
      schedulesByChannel: [{ schedules: [{ note: 'x' }] }],
    });
    expect(parsed.channels[0]!.extra).toEqual({ ecommerceChannelId: '1', additionalInfo: { theme: 'dark', relatedLists: [{ rank: 1 }] } });
    expect(parsed.stores[0]!.schedulesByChannel[0]!.schedules[0]).toEqual({
      day: 'MONDAY',
      startTime: '09:00',
      endTime: '10:00',
      startDate: null,
      endDate: null,
    });
  });

  it('turns numbers and numeric text into exact decimal and digit text, and absent or null fields into null', async () => {
    const [store] = (
      await parse({
        stores: [
          {
            storeId: '007',
            vendorId: 1350,
            name: null,
            taxesInfo: { taxRate: 1e-7, vatRatePercentage: '+12.50' },
            deliveryInfo: { deliveryId: '3', minimumOrder: '6.50', shippingCost: 1.9999, cookTime: 30 },
            locationInfo: null,
          },
        ],
        channels: [],
      })
    ).stores;
    expect(store).toEqual({
      storeId: '7',
      name: null,
      active: null,
      vendorId: '1350',
      storeCode: null,
      services: [],
      schedules: [],
      schedulesByChannel: [],
      taxRate: '0.0000001',
      vatRatePercentage: '12.50',
      phone: null,
      address: null,
      cookTime: '30',
      deliveryId: '3',
      minimumOrder: '6.50',
      shippingCost: '1.9999',
      city: null,
      latitude: null,
      longitude: null,
      storeChannels: [],
      extra: {},
    });
  });

  it('accepts an end time before the start time (past midnight) and a SPECIAL entry without dates', async () => {
    expect(
      await problemsOf({
        stores: [
          {
            storeId: 1,
            schedules: [
              { day: 'FRIDAY', startTime: '18:00', endTime: '2:00' },
              { day: 'special', startTime: '0:00', endTime: '23:59' },
            ],
          },
        ],
        channels: [],
      }),
    ).toEqual([]);
  });

  it('does not report a reference to a channel that is sent but invalid for another reason', async () => {
    expect(await problemsOf({ stores: [{ storeId: 1, storeChannels: ['C'] }], channels: [{ channelId: 'C', active: 'yes' }] })).toEqual([
      'channels[0].active: must be a boolean (got "yes")',
    ]);
  });

  it('collects every problem instead of stopping at the first', async () => {
    expect(
      await problemsOf({
        stores: [
          { storeId: -1, storeChannels: ['X'] },
          { storeId: 2, locationInfo: { latitude: '100', longitude: 'east' } },
        ],
        channels: [{ channelId: 'A' }, { channelId: 'A' }],
      }),
    ).toEqual([
      'stores[0].storeId: must be a non-negative integer, as a number or numeric text (got -1)',
      'stores[1].locationInfo.latitude: must be decimal text from -90 to 90 (got "100")',
      'stores[1].locationInfo.longitude: must be decimal text from -180 to 180 (got "east")',
      'channels[1].channelId: duplicate channelId "A" (also channels[0])',
      `stores[0].storeChannels[0]: channel "X" is not in this request's channels`,
    ]);
  });

  it('reports one problem per field, the type first', async () => {
    expect(
      await problemsOf({
        stores: { 0: { storeId: 'x' } },
        channels: [{ channelId: 7 }, { channelId: 'x'.repeat(101) }, 'C', null, { channelId: 'D', additionalInfo: [] }],
      }),
    ).toEqual([
      'stores: must be an array',
      'channels[0].channelId: must be a string (got 7)',
      'channels[1].channelId: must be at most 100 characters',
      'channels[2]: must be an object',
      'channels[3]: must be an object',
      'channels[4].additionalInfo: must be an object',
    ]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['stores null', { stores: null }, 'stores: is required and must be an array'],
    [
      'a storeChannels entry not a string',
      { stores: [{ storeId: 1, storeChannels: [1] }] },
      'stores[0].storeChannels[0]: must be a string (got 1)',
    ],
    ['a blank storeChannels entry', { stores: [{ storeId: 1, storeChannels: [' '] }] }, 'stores[0].storeChannels[0]: must not be empty'],
    ['a storeId with 17 digits', { stores: [{ storeId: '1'.repeat(17) }] }, 'stores[0].storeId: must be a non-negative integer'],
    [
      'the same storeId as text and number',
      { stores: [{ storeId: '007' }, { storeId: 7 }] },
      'stores[1].storeId: duplicate storeId 7 (also stores[0])',
    ],
    [
      'a name over 1000 characters',
      { stores: [{ storeId: 1, name: 'x'.repeat(1001) }] },
      'stores[0].name: must be at most 1000 characters',
    ],
    [
      'a storeCode over 100 characters',
      { stores: [{ storeId: 1, storeCode: 'x'.repeat(101) }] },
      'stores[0].storeCode: must be at most 100 characters',
    ],
    [
      'a negative cookTime',
      { stores: [{ storeId: 1, deliveryInfo: { cookTime: -1 } }] },
      'deliveryInfo.cookTime: must be a string or a number >= 0 (got -1)',
    ],
    [
      'a latitude over 40 characters',
      { stores: [{ storeId: 1, locationInfo: { latitude: `1.${'0'.repeat(39)}` } }] },
      'locationInfo.latitude: must be decimal text',
    ],
    ['a schedule not an object', { stores: [{ storeId: 1, schedules: [null] }] }, 'stores[0].schedules[0]: must be an object'],
    [
      'a date on a week day that is not a date either',
      { stores: [{ storeId: 1, schedules: [{ day: 'MONDAY', startTime: '1:00', endTime: '2:00', endDate: 'soon' }] }] },
      'stores[0].schedules[0].endDate: must be a date YYYY-MM-DD (got "soon")',
    ],
    [
      'an endDate before the startDate',
      {
        stores: [
          {
            storeId: 1,
            schedules: [{ day: 'SPECIAL', startTime: '1:00', endTime: '2:00', startDate: '2025-12-24', endDate: '2025-12-23' }],
          },
        ],
      },
      'stores[0].schedules[0].endDate: must not be before startDate (2025-12-24)',
    ],
    ['a service name blank', { stores: [{ storeId: 1, services: [{ name: ' ' }] }] }, 'stores[0].services[0].name: must not be empty'],
  ])('refuses %s', async (_label, change, expected) => {
    const problems = await problemsOf({ stores: [], channels: [], ...change });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(expected);
  });

  it('refuses a body that is not an object, naming `body`', async () => {
    for (const body of [[1, 2], 'stores', null, 42]) {
      expect(await problemsOf(body)).toEqual(['body: must be a JSON object with `stores` and `channels` arrays']);
    }
  });
});

describe('withExtra', () => {
  it('adds unknown keys and merges nested objects and arrays item by item without overwriting known values', () => {
    const built = { a: 1, info: { x: null }, list: [{ id: 'p' }, { id: 'q' }] };
    expect(withExtra(built, { toString: 'kept', info: { y: 2 }, list: [null, { tag: 't' }] })).toEqual({
      a: 1,
      toString: 'kept',
      info: { x: null, y: 2 },
      list: [{ id: 'p' }, { id: 'q', tag: 't' }],
    });
  });
});
