import { failed, type ErrorBody } from '../support/api.js';
import { bootOrderListApp, LIST, type OrderListApp } from '../support/order-list.js';
import type { TestApp } from '../support/test-app.js';

describe('GET /api/admin/orders and /api/admin/orders/{id} (e2e)', () => {
  let app: OrderListApp;
  let t: TestApp;
  let admin: string;
  // Queries outside the schema: sent raw, the answer read as the documented error body.
  const list = (query: Record<string, string | number>) => t.http.get<ErrorBody>(LIST, { token: admin, query });

  beforeAll(async () => {
    app = await bootOrderListApp();
    ({ t, admin } = app);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('the list', () => {
    describe('refuses a bad query with 400 in the admin-API error shape', () => {
      it.each([
        ['page 0', { page: 0 }, 'page'],
        ['page x', { page: 'x' }, 'page'],
        ['page 1.5', { page: '1.5' }, 'page'],
        ['page 1e1', { page: '1e1' }, 'page'],
        ['page empty', { page: '' }, 'page'],
        ['page above 2147483647', { page: '2147483648' }, 'page'],
        ['pageSize 101', { pageSize: 101 }, 'pageSize'],
        ['pageSize 0', { pageSize: 0 }, 'pageSize'],
        ['an unknown status', { status: 'LOST' }, 'status'],
        ['a lower-case status', { status: 'delivered' }, 'status'],
        ['a createdFrom that is not a date', { createdFrom: 'yesterday' }, 'createdFrom'],
        ['a date without a time', { createdFrom: '2026-03-01' }, 'createdFrom'],
        ['an impossible date', { createdTo: '2026-02-30T00:00:00Z' }, 'createdTo'],
        ['hour 24', { createdTo: '2026-03-01T24:00:00Z' }, 'createdTo'],
        ['a month 13', { createdFrom: '2026-13-01T00:00:00Z' }, 'createdFrom'],
        ['an offset beyond +14:00', { createdFrom: '2026-03-01T00:00:00+20:00' }, 'createdFrom'],
        ['an offset beyond -14:00', { createdTo: '2026-03-01T00:00:00-14:01' }, 'createdTo'],
        ['createdFrom after createdTo', { createdFrom: '2026-03-02T00:00:00.000001Z', createdTo: '2026-03-02T00:00:00Z' }, 'createdFrom'],
        [
          'createdFrom after createdTo across zones',
          { createdFrom: '2026-03-01T22:00:00-03:00', createdTo: '2026-03-02T00:30:00Z' },
          'createdFrom',
        ],
        ['minWebhookAttempts above maxWebhookAttempts', { minWebhookAttempts: 3, maxWebhookAttempts: 2 }, 'minWebhookAttempts'],
        ['negative minWebhookAttempts', { minWebhookAttempts: -1 }, 'minWebhookAttempts'],
        ['negative maxWebhookAttempts', { maxWebhookAttempts: -2 }, 'maxWebhookAttempts'],
        ['non-integer minWebhookAttempts', { minWebhookAttempts: '1.5' }, 'minWebhookAttempts'],
        ['minWebhookAttempts 2.0', { minWebhookAttempts: '2.0' }, 'minWebhookAttempts'],
        ['non-numeric maxWebhookAttempts', { maxWebhookAttempts: 'many' }, 'maxWebhookAttempts'],
        ['an empty storeId', { storeId: '' }, 'storeId'],
        ['an empty orderId', { orderId: '' }, 'orderId'],
        ['an orderId over 100 characters', { orderId: 'x'.repeat(101) }, 'orderId'],
        ['an unknown parameter', { store: 'store-a' }, 'store'],
      ])('%s', async (_label, query, field) => {
        const response = await list(query);
        expect(response.status).toBe(400);
        expect(response.body.error).toBe('VALIDATION_FAILED');
        expect(typeof response.body.message).toBe('string');
        expect(response.body.details?.map((detail) => detail.field)).toContain(field);
      });

      it.each([
        ['createdFrom', { createdFrom: '9999-12-31T23:59:59Z' }],
        ['createdFrom', { createdFrom: '9999-12-31T00:00:00.000000001Z' }],
        ['createdTo', { createdTo: '9999-12-31T23:59:59.999999999Z' }],
      ])('refuses a %s on the last day of year 9999 (its next day is in year 10000), naming the accepted range', async (field, query) => {
        const response = await list(query);
        expect([response.status, response.body.error, response.body.details]).toEqual([
          400,
          'VALIDATION_FAILED',
          [{ field, problem: expect.stringContaining('9999-12-30T23:59:59.999999999Z') }],
        ]);
        expect(response.body.message).toContain('0001-01-01T00:00:00Z');
      });

      it('accepts the end of the accepted range', async () => {
        const response = await list({ createdFrom: '9999-12-30T23:59:59.999999999Z', createdTo: '9999-12-30T23:59:59.999999999Z' });
        expect([response.status, (response.body as unknown as { total: number }).total]).toEqual([200, 0]);
      });

      it('lists every problem at once', async () => {
        const response = await list({ page: 0, pageSize: 500, status: 'LOST' });
        expect(response.status).toBe(400);
        expect(response.body.details?.map((detail) => detail.field).sort()).toEqual(['page', 'pageSize', 'status']);
      });

      it('refuses a repeated parameter', async () => {
        const response = await t.http.get<ErrorBody>(`${LIST}?status=DELIVERED&status=CANCELLED`, { token: admin });
        expect(response.status).toBe(400);
      });
    });

    it('needs the admin scope', async () => {
      failed(await t.apiAs().GET('/api/admin/orders'), 401);
      failed(await t.apiAs(await t.tokenFor(['orders'])).GET('/api/admin/orders'), 403);
    });
  });
});
