import fc from 'fast-check';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { CHANNELS_STORES_BODY, ChannelsStoresRequestDto } from '../channels/dto/channels-stores-request.dto.js';
import { readOpenBody } from './http/open-body.js';
import { ApiError } from './errors/api-error.js';
import { InfoPaymentsQueryDto } from '../fulfillment/dto/info-payments.dto.js';
import { paymentsWindow } from '../fulfillment/date-range.js';
import { OrderListQuery } from '../orders/dto/order-list.query.js';
import { toOrderListFilter } from '../orders/orders-query.service.js';
import { readIsoInstant } from './iso-date-time.js';

/**
 * Every route that takes a date or a date-time from a client reads it with the one grammar of
 * iso-date-time.ts: the same text gets the same verdict, and names the same instant, on
 * `GET /admin/orders` (createdFrom, createdTo) and `GET /api/order/infoPayments` (startDate, endDate).
 * The one difference is what the parameter is: the order list takes date-times only, infoPayments
 * also takes a date alone.
 */
function orderListVerdict(text: string): boolean {
  const query = plainToInstance(OrderListQuery, { createdFrom: text, createdTo: text });
  return validateSync(query).length === 0;
}

function infoPaymentsVerdict(text: string): boolean {
  const query = plainToInstance(InfoPaymentsQueryDto, { startDate: text, endDate: text });
  return validateSync(query).length === 0 && paymentsWindow(text, text).window !== undefined;
}

const TRICKY = [
  '2026-11-21T10:00:00Z',
  '2026-11-21t10:00z',
  '2026-11-21 10:00:00.123456789+05:30',
  '2026-11-21T10:00:00,5-0300',
  '2026-11-21T10:00:00',
  '2026-11-21T10:00:00+14:00',
  '2026-11-21T10:00:00-14:00',
  '2026-11-21T10:00:00+20:00',
  '2026-11-21T10:00:00+14:01',
  '2026-11-21T10:00:00+23:59',
  '2026-11-21T10:00:00+24:00',
  '2026-11-21T10:00:00.1234567890Z',
  '2016-12-31T23:59:60Z',
  '2026-11-21T24:00:00Z',
  '2026-02-29T10:00:00Z',
  '0000-06-01T00:00:00Z',
  '0001-01-01T00:30:00+01:00',
  '9999-12-31T23:30:00-01:00',
  '20261121T100000Z',
  '2026-11-21T10:00:00Z[UTC]',
  '2026-11-21T10:00:00+05:30:00',
  '1763700000000',
];

describe('one date grammar on every route', () => {
  it.each(TRICKY)('%s gets the same verdict on the order list and on infoPayments', (text) => {
    expect(orderListVerdict(text)).toBe(infoPaymentsVerdict(text));
    expect(infoPaymentsVerdict(text)).toBe(readIsoInstant(text) !== undefined);
  });

  it('refuses an offset beyond ±14:00 on both routes', () => {
    expect([orderListVerdict('2026-11-21T10:00:00+20:00'), infoPaymentsVerdict('2026-11-21T10:00:00+20:00')]).toEqual([false, false]);
  });

  it('agrees on generated date-times, and both routes name the same instant', () => {
    const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));
    const text = fc
      .tuple(
        fc.integer({ min: 0, max: 10_000 }).map((n) => String(n).padStart(4, '0')),
        two(0, 13),
        two(0, 32),
        fc.constantFrom('T', 't', ' ', '_'),
        two(0, 25),
        two(0, 61),
        fc.option(two(0, 61), { nil: undefined }),
        fc.option(fc.stringMatching(/^[.,]\d{1,10}$/), { nil: undefined }),
        fc.constantFrom('', 'Z', 'z', '+00:00', '-03:00', '+0530', '+14:00', '-14:00', '+14:30', '+20:00', '-23:59', '+05', '+05:60'),
      )
      .map(([y, mo, d, sep, h, mi, s, f, zone]) => `${y}-${mo}-${d}${sep}${h}:${mi}${s === undefined ? '' : `:${s}${f ?? ''}`}${zone}`);
    fc.assert(
      fc.property(text, (value) => {
        expect([value, orderListVerdict(value)]).toEqual([value, infoPaymentsVerdict(value)]);
        if (!orderListVerdict(value)) return;
        const filter = toOrderListFilter(plainToInstance(OrderListQuery, { createdFrom: value, createdTo: value }));
        const window = paymentsWindow(value, value).window!;
        expect([window.startUs, window.endUs]).toEqual([filter.createdFromUs, filter.createdToUs]);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses the last day of year 9999 on both routes (its next day would be in year 10000), and accepts the day before', () => {
    for (const text of ['9999-12-31T00:00:00Z', '9999-12-31T23:59:59Z', '9999-12-31T23:59:59.999999999Z']) {
      expect([text, orderListVerdict(text), infoPaymentsVerdict(text)]).toEqual([text, false, false]);
    }
    expect([orderListVerdict('9999-12-30T23:59:59.999999999Z'), infoPaymentsVerdict('9999-12-30T23:59:59.999999999Z')]).toEqual([
      true,
      true,
    ]);
    expect([infoPaymentsVerdict('9999-12-31'), infoPaymentsVerdict('9999-12-30')]).toEqual([false, true]);
  });

  it('differs only in what the parameter is: a date alone is a date-time on infoPayments, not on the order list', () => {
    expect(orderListVerdict('2026-11-21')).toBe(false);
    expect(infoPaymentsVerdict('2026-11-21')).toBe(true);
  });

  it('reads the SPECIAL dates of a store configuration with the same reader', async () => {
    const problems = async (date: string) => {
      try {
        await readOpenBody(ChannelsStoresRequestDto, configurationWith(date), CHANNELS_STORES_BODY);
        return [];
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        return (error.details ?? []).map((detail) => detail.field);
      }
    };
    for (const date of ['2026-11-21', '2024-02-29', '0000-01-01', '2026-02-29', '2026-11-21T00:00:00Z', '21/11/2026']) {
      const accepted = readIsoInstant(date)?.dateOnly === true;
      expect([date, await problems(date)]).toEqual([date, accepted ? [] : ['stores[0].schedulesByChannel[0].schedules[0].startDate']]);
    }
  });
});

function configurationWith(date: string): unknown {
  return {
    stores: [
      {
        storeId: 1,
        name: 'S',
        storeChannels: ['C'],
        schedulesByChannel: [{ channelId: 'C', schedules: [{ day: 'SPECIAL', startTime: '10:00', endTime: '12:00', startDate: date }] }],
      },
    ],
    channels: [{ channelId: 'C', name: 'C' }],
  };
}
