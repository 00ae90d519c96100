import { OrderEntity } from '../../src/orders/order.entity.js';
import { OrderTaxFoldEntity, OrderTaxHourEntity } from '../../src/orders/order-tax-hour.entity.js';
import { OrderTaxReportRepository } from '../../src/orders/order-tax-report.repository.js';
import { order } from '../factories/order.factory.js';
import { unique } from '../support/orders.js';
import { seedReportOrders, taxFolding, type ReportsFixture } from '../support/reports.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

interface Totals {
  orders: number;
  items: number;
  icmsValue: number;
  totalTax: number;
}

const NOVEMBER = { from: '2026-11-01', to: '2026-11-30' };

/**
 * The tax report's hourly summaries against the orders: a fold that fails part way, an order stored while a fold
 * runs, an order re-taxed after its hour was summed. The tests run in this order on one database (the fixture of
 * test/support/reports.ts); each states the figures it expects from the orders as they are then.
 */
describe('tax report summaries, folded off the write path (e2e)', () => {
  let t: TestApp;
  let fixture: ReportsFixture;
  let foldAll: () => Promise<number>;

  const totals = async (): Promise<Totals> => {
    const answer = await t.http.get<{ totals: Totals }>('/admin/reports/tax', { token: await t.adminToken(), query: NOVEMBER });
    expect(answer.status).toBe(200);
    return answer.body.totals;
  };
  /** Every summary row summed: what the summaries hold, each order counted once. */
  const summarized = async () => {
    const rows = await t.dataSource.getRepository(OrderTaxHourEntity).find();
    return {
      orders: rows.reduce((sum, row) => sum + row.firstOrders, 0),
      totalTaxCents: rows.reduce((sum, row) => sum + Number(row.totalTaxCents), 0),
    };
  };

  beforeAll(async () => {
    t = await bootTestApp();
    fixture = await seedReportOrders(t);
    ({ foldAll } = await taxFolding(t));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a fold that fails part way folds nothing; the next one counts every order once', async () => {
    // The fault is the database's own: the summary of store B's hour cannot be written.
    await t.dataSource.query(`
      CREATE FUNCTION test_refuse_store_b() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'test: no summary of store B'; END $$`);
    await t.dataSource.query(
      `CREATE TRIGGER test_refuse_store_b BEFORE INSERT ON order_tax_hour FOR EACH ROW
       WHEN (NEW.store_id = '${fixture.storeB}') EXECUTE FUNCTION test_refuse_store_b()`,
    );
    const repository = t.app.get(OrderTaxReportRepository);
    let failure: unknown;
    try {
      for (;;) if ((await repository.fold(24, 0)).caughtUp) break;
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toContain('no summary of store B');
    // The failed round left the state where the last good one put it: before b1's hour (15 November, 12:00 UTC).
    const state = await t.dataSource.getRepository(OrderTaxFoldEntity).findOneByOrFail({ id: 1 });
    expect(state.summarizedUntil!.getTime()).toBeLessThanOrEqual(Date.parse('2026-11-15T12:00:00Z'));
    // a1 5.44 + a2 2.10 + b1 3.94 = 11.48; ICMS 4.66 + 1.80 + 3.11 = 9.57 (figures of reports-tax.e2e-spec.ts).
    expect(await totals()).toMatchObject({ orders: 3, items: 5, icmsValue: 9.57, totalTax: 11.48 });

    await t.dataSource.query(`DROP TRIGGER test_refuse_store_b ON order_tax_hour`);
    await foldAll();
    expect(await totals()).toMatchObject({ orders: 3, items: 5, icmsValue: 9.57, totalTax: 11.48 });
    // The summaries of every hour: the three November orders and the edge order of 31 October (2.10):
    // 5.44 + 2.10 + 3.94 + 2.10 = 13.58, four orders, once each.
    expect(await summarized()).toEqual({ orders: 4, totalTaxCents: 1358 });
  });

  it('an order stored by a transaction under way while the fold runs is counted once, at once and after the next fold', async () => {
    const b1 = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId: fixture.orders.b1 });
    const late = unique('rep-late');
    const writer = t.dataSource.createQueryRunner();
    await writer.connect();
    try {
      await writer.startTransaction();
      // As b1 (store B, burger 25.90 at 12 %: ICMS 3.11, total 3.94), in b1's hour; its updated_at is the transaction's start.
      await order(writer.manager, {
        orderId: late,
        storeId: fixture.storeB,
        status: 'ENRICHED',
        fiscalGroupId: fixture.groupB,
        enrichedPayload: b1.enrichedPayload,
        createdAt: new Date('2026-11-15T12:30:00Z'),
      });
      // No margin: the watermark is held back by the open transaction alone.
      await t.app.get(OrderTaxReportRepository).fold(24, 0);
      await writer.commitTransaction();
    } finally {
      await writer.release();
    }
    // 11.48 + 3.94 = 15.42; ICMS 9.57 + 3.11 = 12.68; items 5 + 1 = 6.
    expect(await totals()).toMatchObject({ orders: 4, items: 6, icmsValue: 12.68, totalTax: 15.42 });
    await foldAll();
    expect(await totals()).toMatchObject({ orders: 4, items: 6, icmsValue: 12.68, totalTax: 15.42 });
    // 1358 + 394 = 1752.
    expect(await summarized()).toEqual({ orders: 5, totalTaxCents: 1752 });
  });

  it('an order re-taxed after its hour was summed is reported with its new figures, before and after the next fold', async () => {
    await foldAll();
    const { burger, cola } = fixture.products;
    const item = (productId: string, total: number) => ({ productId, quantity: 1, price: { totalPrice: { total } } });
    // a1 sent again with the burger at 30.00 (was 25.90), the cola unchanged (CST 60, no tax).
    const resent = await t.http.post(
      '/enrich-order',
      { orderId: fixture.orders.a1, store: { id: fixture.storeA }, order: { products: [item(burger, 30), item(cola, 6)] } },
      { token: await t.tokenFor(['orders']) },
    );
    expect(resent.status).toBe(200);
    // a1 now: ICMS 30.00 × 18 % = 5.40; base 30.00 − 5.40 = 24.60; PIS 24.60 × 0.65 % = 0.1599 → 0.16;
    // COFINS 24.60 × 3 % = 0.738 → 0.74; total 5.40 + 0.16 + 0.74 = 6.30 (was 5.44, ICMS 4.66).
    // Report: 15.42 − 5.44 + 6.30 = 16.28; ICMS 12.68 − 4.66 + 5.40 = 13.42.
    expect(await totals()).toMatchObject({ orders: 4, items: 6, icmsValue: 13.42, totalTax: 16.28 });
    await foldAll();
    expect(await totals()).toMatchObject({ orders: 4, items: 6, icmsValue: 13.42, totalTax: 16.28 });
    // 1752 − 544 + 630 = 1838.
    expect(await summarized()).toEqual({ orders: 5, totalTaxCents: 1838 });
  });

  it("the job's round folds with its margin and says when it has caught up", async () => {
    const { folder } = await taxFolding(t);
    expect(await folder.fold()).toMatchObject({ caughtUp: true });
    expect(await totals()).toMatchObject({ orders: 4, totalTax: 16.28 });
  });
});
