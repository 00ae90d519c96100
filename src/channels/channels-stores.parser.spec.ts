import { ApiError } from '../common/errors/api-error.js';
import { parseChannelsStores } from './channels-stores.parser.js';
import { withExtra } from './dto/channels-stores.mapper.js';

function problemsOf(body: unknown): string[] {
  try {
    parseChannelsStores(body);
  } catch (error) {
    if (error instanceof ApiError) return (error.details ?? []).map((detail) => `${detail.field}: ${detail.problem}`);
    throw error;
  }
  return [];
}

describe('parseChannelsStores', () => {
  it('keeps unknown properties at every depth, by position inside arrays', () => {
    const parsed = parseChannelsStores({
      vendorId: '10',
      stores: [
        {
          storeId: '1',
          default: true,
          services: [{ name: 'A' }, { name: 'B', code: 'b' }],
          deliveryInfo: { shippingCost: 1, surge: 2 },
          schedulesByChannel: [{ channelId: 'C', schedules: [{ day: 'monday', startTime: '9:00', endTime: '10:00', note: 'x' }] }],
        },
      ],
      channels: [{ channelId: 'C', ecommerceChannelId: '1', additionalInfo: { theme: 'dark', relatedLists: [{ listId: 'L', rank: 1 }] } }],
    });
    expect(parsed.extra).toEqual({ vendorId: '10' });
    expect(parsed.stores[0]!.extra).toEqual({
      default: true,
      services: [{}, { code: 'b' }],
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

  it('turns numbers and numeric text into exact decimal and digit text', () => {
    const [store] = parseChannelsStores({
      stores: [
        {
          storeId: '007',
          vendorId: 1350,
          taxesInfo: { taxRate: 1e-7, vatRatePercentage: '+12.50' },
          deliveryInfo: { deliveryId: '3', minimumOrder: '6.50', shippingCost: 1.9999, cookTime: 30 },
        },
      ],
      channels: [],
    }).stores;
    expect(store).toMatchObject({
      storeId: '7',
      vendorId: '1350',
      taxRate: '0.0000001',
      vatRatePercentage: '12.50',
      deliveryId: '3',
      minimumOrder: '6.50',
      shippingCost: '1.9999',
      cookTime: '30',
    });
  });

  it('accepts an end time before the start time (past midnight) and a SPECIAL entry without dates', () => {
    expect(
      problemsOf({
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

  it('does not report a reference to a channel that is sent but invalid for another reason', () => {
    expect(problemsOf({ stores: [{ storeId: 1, storeChannels: ['C'] }], channels: [{ channelId: 'C', active: 'yes' }] })).toEqual([
      'channels[0].active: must be a boolean (got "yes")',
    ]);
  });

  it('collects every problem instead of stopping at the first', () => {
    expect(
      problemsOf({
        stores: [
          { storeId: -1, storeChannels: ['X'] },
          { storeId: 2, locationInfo: { latitude: '100', longitude: 'east' } },
        ],
        channels: [{ channelId: 'A' }, { channelId: 'A' }],
      }),
    ).toEqual([
      'channels[1].channelId: duplicate channelId "A" (also channels[0])',
      'stores[0].storeId: must be a non-negative integer, as a number or numeric text (got -1)',
      `stores[0].storeChannels[0]: channel "X" is not in this request's channels`,
      'stores[1].locationInfo.latitude: must be decimal text from -90 to 90 (got "100")',
      'stores[1].locationInfo.longitude: must be decimal text from -180 to 180 (got "east")',
    ]);
  });
});

describe('withExtra', () => {
  it('adds unknown keys and merges nested objects and arrays item by item without overwriting known values', () => {
    const built = { a: 1, info: { x: null }, list: [{ id: 'p' }, { id: 'q' }] };
    expect(withExtra(built, { toString: 'kept', info: { y: 2 }, list: [{}, { tag: 't' }] })).toEqual({
      a: 1,
      toString: 'kept',
      info: { x: null, y: 2 },
      list: [{ id: 'p' }, { id: 'q', tag: 't' }],
    });
  });
});
