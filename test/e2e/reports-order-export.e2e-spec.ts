import { OrderEntity } from '../../src/orders/order.entity.js';
import type { ErrorBody } from '../support/api.js';
import { asPerson, signedInPerson } from '../support/people.js';
import { seedReportOrders, type ReportsFixture } from '../support/reports.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

interface ListPage {
  items: Array<{ orderId: string }>;
  total: number;
}

const HEADER =
  'id,orderId,status,storeId,source,createdAt,webhookAttempts,fiscalGroupId,uf,base,ICMS_value,FCP_value,PIS_value,COFINS_value,total_tax';

describe('GET /api/admin/reports/orders.csv (e2e)', () => {
  let t: TestApp;
  let fixture: ReportsFixture;
  const exported = async (query: Record<string, string>) => {
    const answer = await t.http.get<string>('/admin/reports/orders.csv', { token: await t.adminToken(), query });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = answer.text.split('\r\n');
    expect(lines[0]).toBe(HEADER);
    expect(lines.at(-1)).toBe('');
    return lines.slice(1, -1).map((line) => line.split(','));
  };
  const listed = async (query: Record<string, string>) => {
    const answer = await t.http.get<ListPage>('/admin/orders', { token: await t.adminToken(), query: { ...query, pageSize: '100' } });
    expect(answer.status).toBe(200);
    return answer.body.items.map((item) => item.orderId);
  };

  beforeAll(async () => {
    t = await bootTestApp();
    fixture = await seedReportOrders(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists the orders the list shows for the same filters, in its order, newest first', async () => {
    const filters: Array<Record<string, string>> = [
      {},
      { storeId: fixture.storeA },
      { status: 'CANCELLED' },
      { createdFrom: '2026-11-01T00:00:00Z', createdTo: '2026-11-01T23:59:59.999999Z' },
      { orderId: fixture.orders.b1.slice(-6) },
    ];
    for (const query of filters) {
      const rows = await exported(query);
      expect(rows.map((row) => row[1])).toEqual(await listed(query));
    }
    expect((await exported({ storeId: fixture.storeB })).map((row) => row[1])).toEqual([fixture.orders.b1]);
  });

  it("writes each order's taxSummary totals as stored", async () => {
    const [b1] = await exported({ storeId: fixture.storeB });
    const stored = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId: fixture.orders.b1 });
    // Burger 25.90 at 12 %: ICMS 3.108 → 3.11, PIS (25.90 − 3.11) × 0.65 % = 0.148135 → 0.15, COFINS 22.79 × 3 % = 0.6837 → 0.68,
    // total 3.11 + 0.15 + 0.68 = 3.94.
    expect(b1).toEqual([
      stored.id,
      fixture.orders.b1,
      'ENRICHED',
      fixture.storeB,
      '',
      '2026-11-15T12:00:00.000000Z',
      '0',
      fixture.groupB,
      'SP',
      '25.9',
      '3.11',
      '',
      '0.15',
      '0.68',
      '3.94',
    ]);
  });

  it('pages through more orders than one batch reads, without gaps or repeats', async () => {
    // 2 500 rows of one store beyond the fixture (a batch is 2 000), inserted through the entity with the same instant for
    // half of them, so that the keyset's tie on created_at is crossed.
    const orders = t.dataSource.getRepository(OrderEntity);
    const store = `${fixture.storeA}-many`;
    const rows = Array.from({ length: 2500 }, (_, index) => ({
      orderId: `${store}-${index}`,
      status: 'DELIVERED' as const,
      payload: {},
      storeId: store,
      createdAt: new Date(index < 1250 ? Date.parse('2026-10-10T10:00:00Z') : Date.parse('2026-10-10T10:00:00Z') + index * 1000),
    }));
    for (let start = 0; start < rows.length; start += 500) await orders.insert(rows.slice(start, start + 500));
    const ids = (await exported({ storeId: store })).map((row) => row[1]);
    expect(ids.length).toBe(2500);
    expect(new Set(ids).size).toBe(2500);
    expect(ids.slice(0, 3)).toEqual([`${store}-2499`, `${store}-2498`, `${store}-2497`]);
  });

  it('refuses what the list refuses, and paging parameters', async () => {
    const token = await t.adminToken();
    for (const [query, field] of [
      [{ status: 'NOPE' }, 'status'],
      [{ createdFrom: '2026-11-02T00:00:00Z', createdTo: '2026-11-01T00:00:00Z' }, 'createdFrom'],
      [{ page: '2' }, 'page'],
    ] as const) {
      const answer = await t.http.get<ErrorBody>('/admin/reports/orders.csv', { token, query });
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe('VALIDATION_FAILED');
      expect(answer.body.details?.map((detail) => detail.field)).toContain(field);
    }
  });

  it('is open to the people who may read the list (support and up)', async () => {
    const support = await signedInPerson(t, 'support');
    expect((await t.http.get('/admin/reports/orders.csv', asPerson(support))).status).toBe(200);
    expect((await t.http.get('/admin/reports/orders.csv', { token: await t.tokenFor(['orders']) })).status).toBe(403);
  });
});
