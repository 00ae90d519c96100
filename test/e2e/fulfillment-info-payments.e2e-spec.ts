import { bootFulfillmentApp, fulfillmentSteps, ORDER, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { failed, ok, type QueryOf, type PosErrorBody } from '../support/api.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let orders: string;
  const { row, enrichedOrder } = fulfillmentSteps(() => f);

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    ({ t, orders } = f);
  });
  afterAll(async () => {
    await t.close();
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
        await t.dataSource.getRepository(OrderEntity).update({ orderId }, { createdAt: new Date(createdAt) });
      };
      await create(march.p1, '2025-03-01T10:00:00Z', {
        country: 'BR',
        account: 'ACC-1',
        sellerId: 55,
        payments: [{ method: 'CREDIT_CARD', value: 25.9 }],
        transfers: [],
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

    type InfoPaymentsQuery = QueryOf<'/api/api/order/infoPayments'>;
    const get = async (query: InfoPaymentsQuery) =>
      ok(await t.apiAs(orders).GET('/api/api/order/infoPayments', { params: { query } }), 200);
    const orderIds = (page: { items: Array<{ orderId: string }> }) => page.items.map((item) => item.orderId);

    it('lists the orders of the period, oldest first, with their payments', async () => {
      const page = await get({ startDate: '2025-03-01', endDate: '2025-03-31' });
      expect(page).toMatchObject({
        message: '4 order(s) between 2025-03-01 and 2025-03-31',
        status: 'success',
        total: 4,
        page: 1,
        pageSize: 20,
      });
      expect(orderIds(page)).toEqual([march.p1, march.p2, march.p3, march.p5]);
      const p1 = await row(march.p1);
      expect(page.items[0]).toEqual({
        orderId: march.p1,
        orderDbId: p1.id,
        storeId: PINHEIROS,
        createdAt: '2025-03-01T10:00:00.000Z',
        payments: [{ method: 'CREDIT_CARD', value: 25.9 }],
        transfers: [],
      });
      expect(page.items[1]!.payments).toEqual([{ method: 'PIX', value: 10 }]); // from order.payments
      expect(page.items[3]!.payments).toBeNull();
    });

    it('filters on country, account and sellerId: the root property, else the one under store', async () => {
      const ids = async (query: Record<string, string>) =>
        orderIds(await get({ startDate: '2025-03-01', endDate: '2025-03-31', ...query }));
      expect(await ids({ country: 'BR' })).toEqual([march.p1, march.p2]); // p3 has root country AR
      expect(await ids({ country: 'AR' })).toEqual([march.p3]);
      expect(await ids({ sellerId: '55' })).toEqual([march.p1]); // a number in the payload, compared as text
      expect(await ids({ sellerId: '56' })).toEqual([march.p2]);
      expect(await ids({ account: 'ACC-2', country: 'BR' })).toEqual([march.p2]);
      expect(await ids({ country: 'US' })).toEqual([]);
    });

    it('pages, and answers an empty page past the end with the total', async () => {
      const second = await get({ startDate: '2025-03-01', endDate: '2025-03-31', page: 2, pageSize: 3 });
      expect(second).toMatchObject({ total: 4, page: 2, pageSize: 3 });
      expect(orderIds(second)).toEqual([march.p5]);
      const past = await get({ startDate: '2025-03-01', endDate: '2025-03-31', page: 9, pageSize: 3 });
      expect(past).toMatchObject({ total: 4, items: [] });
    });

    it('includes the whole end day for a date, and exact instants for date-times', async () => {
      const day = await get({ startDate: '2025-03-02', endDate: '2025-03-02' });
      expect(orderIds(day)).toEqual([march.p2]);
      const instants = await get({ startDate: '2025-03-01T10:00:00Z', endDate: '2025-03-02T17:59:59Z' });
      expect(orderIds(instants)).toEqual([march.p1]);
      const offset = await get({ startDate: '2025-06-30T08:00:00-03:00', endDate: '2025-06-30T09:00:00-03:00' });
      expect(orderIds(offset)).toEqual([march.p4]);
    });

    it('takes a date-time start on the day of a date endDate: from that instant to the end of the day', async () => {
      // p2 was created at 2025-03-02T18:00Z.
      expect(orderIds(await get({ startDate: '2025-03-02T00:00:01Z', endDate: '2025-03-02' }))).toEqual([march.p2]);
      // A point of sale in Ecuador (UTC-5) asking from its local midnight: 2025-03-02T05:00Z to the end of the UTC day.
      expect(orderIds(await get({ startDate: '2025-03-02T00:00:00-05:00', endDate: '2025-03-02' }))).toEqual([march.p2]);
      expect((await get({ startDate: '2025-03-02T18:00:00.000001Z', endDate: '2025-03-02' })).total).toBe(0);
    });

    it.each([
      ['no startDate', { endDate: '2025-03-31' }, 'startDate'],
      ['no endDate', { startDate: '2025-03-01' }, 'endDate'],
      ['a date that does not exist', { startDate: '2025-02-30', endDate: '2025-03-31' }, 'startDate'],
      ['a date that is not ISO', { startDate: '01/03/2025', endDate: '2025-03-31' }, 'startDate'],
      ['an offset beyond +14:00', { startDate: '2025-03-01T00:00:00+20:00', endDate: '2025-03-31' }, 'startDate'],
      ['a leap second', { startDate: '2025-03-01', endDate: '2016-12-31T23:59:60Z' }, 'endDate'],
      ['startDate after endDate', { startDate: '2025-04-01', endDate: '2025-03-31' }, 'startDate: must not be later than endDate'],
      [
        'a startDate at the end of a date endDate',
        { startDate: '2025-04-01T00:00:00Z', endDate: '2025-03-31' },
        'startDate: must not be later than endDate',
      ],
      ['more than 93 days', { startDate: '2025-01-01', endDate: '2025-04-05' }, 'endDate: must be at most 93 days after startDate'],
      ['an endDate on the last day of year 9999', { startDate: '9999-12-31', endDate: '9999-12-31' }, 'endDate: must lie from 0001-01-01'],
      [
        'a startDate on the last day of year 9999',
        { startDate: '9999-12-31T00:00:00Z', endDate: '9999-12-31T12:00:00Z' },
        'startDate: must lie',
      ],
      [
        'a date-time endDate on the last day of year 9999',
        { startDate: '9999-12-30', endDate: '9999-12-31T00:00:00Z' },
        '9999-12-30T23:59:59',
      ],
      ['a page of 0', { startDate: '2025-03-01', endDate: '2025-03-31', page: 0 }, 'page'],
      ['a pageSize over 100', { startDate: '2025-03-01', endDate: '2025-03-31', pageSize: 101 }, 'pageSize'],
      // Only plain integers: Number() would read these as 16, 10 and 7.
      ['a pageSize in hexadecimal', { startDate: '2025-03-01', endDate: '2025-03-31', pageSize: '0x10' }, 'pageSize'],
      ['a page in exponent notation', { startDate: '2025-03-01', endDate: '2025-03-31', page: '1e1' }, 'page'],
      ['a page with a space', { startDate: '2025-03-01', endDate: '2025-03-31', page: ' 7' }, 'page'],
      ['a page past PostgreSQL integers', { startDate: '2025-03-01', endDate: '2025-03-31', page: '9007199254740993' }, 'page'],
      ['an empty country', { startDate: '2025-03-01', endDate: '2025-03-31', country: '' }, 'country'],
      ['an unknown parameter', { startDate: '2025-03-01', endDate: '2025-03-31', store: '1' }, 'store'],
    ])('400 { error } for %s', async (_label, query, mentioned) => {
      // Queries outside the schema: sent raw.
      const response = await t.http.get<PosErrorBody>(`${ORDER}/infoPayments`, { token: orders, query });
      expect(response.status).toBe(400);
      expect(Object.keys(response.body)).toEqual(['error', 'message']);
      expect(response.body.error).toContain(mentioned);
    });

    it('reads dates with the same grammar as the order list: an offset beyond ±14:00 is a 400 naming the parameter on both', async () => {
      const admin = t.apiAs(await t.tokenFor(['admin']));
      const list = (query: { createdFrom?: string; createdTo?: string }) => admin.GET('/api/admin/orders', { params: { query } });
      for (const offset of ['+20:00', '-14:30']) {
        const payments = t.apiAs(orders).GET('/api/api/order/infoPayments', {
          params: { query: { startDate: `2025-06-30T00:00:00${offset}`, endDate: '2025-07-01' } },
        });
        expect(failed(await payments, 400).error).toMatch(/startDate.*offsets from -14:00 to \+14:00/);
        const listed = failed(await list({ createdFrom: `2025-06-30T00:00:00${offset}` }), 400);
        expect(listed.details).toEqual([{ field: 'createdFrom', problem: expect.stringMatching(/offsets from -14:00 to \+14:00/) }]);
      }
      // At the edge of the range, both routes name the same instant: 2025-06-30T22:00+14:00 is 08:00Z.
      const bounds = { startDate: '2025-06-30T22:00:00+14:00', endDate: '2025-06-30T12:00:00.000000999Z' };
      expect(orderIds(await get(bounds))).toEqual([march.p4]);
      const listed = ok(await list({ createdFrom: bounds.startDate, createdTo: bounds.endDate }), 200);
      expect(orderIds(listed)).toEqual([march.p4]);
    });

    it('accepts the last day of the accepted range, 9999-12-30, as a date', async () => {
      expect((await get({ startDate: '9999-12-30', endDate: '9999-12-30' })).total).toBe(0);
    });

    it('accepts exactly 93 days', async () => {
      // The four March orders; the June one is outside.
      expect((await get({ startDate: '2025-01-01', endDate: '2025-04-04' })).total).toBe(4);
    });
  });
});
