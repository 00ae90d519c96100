import { JobRunner } from '../../src/database/jobs/job-runner.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import { OrderTaxFolder } from '../../src/orders/order-tax-folder.js';
import { OrderTaxReportRepository } from '../../src/orders/order-tax-report.repository.js';
import type { TestApp } from './test-app.js';
import { unique } from './orders.js';

/** A rule of the reports' groups: PIS 0.65 % and COFINS 3 % (CST 01) unless the fields say otherwise. */
const rule = (ncm: string, fields: Record<string, unknown>) => ({
  NCM: ncm,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
  ...fields,
});

export interface ReportsFixture {
  storeA: string;
  storeB: string;
  groupA: string;
  groupB: string;
  /** orderId → what it is in the fixture. */
  orders: { a1: string; a2: string; cancelled: string; b1: string; edge: string };
  /** The product ids of the burger and the cola. */
  products: { burger: string; cola: string };
}

/**
 * Two stores, each in its fiscal group (SP): store A taxes the burger at 18 % (CST 00, CFOP 5102) and the cola under
 * CST 60 (ICMS not charged, CFOP 5405, PIS/COFINS CST 04); store B taxes the burger at 12 %. Orders are enriched
 * through the API, so the report reads what the service stored, then dated by SQL through the entity:
 *
 * - a1 (A): burger 25.90 + cola 6.00, 2026-11-15 12:00 UTC;
 * - a2 (A): burger 10.00 with a cola 6.00 as a selected modifier, 2026-11-15 12:00 UTC;
 * - cancelled (A): as a1, then CANCELLED (left out of the report);
 * - b1 (B): burger 25.90, 2026-11-15 12:00 UTC;
 * - edge (A): burger 10.00 at 2026-11-01 02:30 UTC, which is 2026-10-31 23:30 in São Paulo (UTC−3).
 */
export async function seedReportOrders(t: TestApp): Promise<ReportsFixture> {
  const admin = await t.adminToken();
  const ordersToken = await t.tokenFor(['orders']);
  const storeA = unique('rep-store-a');
  const storeB = unique('rep-store-b');
  const burger = unique('rep-burger');
  const cola = unique('rep-cola');
  const group = async (store: string, burgerRate: number) => {
    const created = await t.http.post<{ id: string }>(
      '/admin/fiscal-groups',
      {
        name: `Reports ${store}`,
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: store, store_name: store }],
        taxMatrix: {
          '21069090': rule('21069090', { ICMS_rate: burgerRate, CFOP: '5102' }),
          '22021000': rule('22021000', { CST_ICMS: '60', CST_PIS: '04', CST_COFINS: '04', CFOP: '5405' }),
        },
      },
      { token: admin },
    );
    if (created.status !== 201) throw new Error(`fiscal group: ${created.status} ${created.text}`);
    return created.body.id;
  };
  const groupA = await group(storeA, 18);
  const groupB = await group(storeB, 12);
  for (const [productId, ncm] of [
    [burger, '21069090'],
    [cola, '22021000'],
  ]) {
    const created = await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token: admin });
    if (created.status !== 201) throw new Error(`category: ${created.status} ${created.text}`);
  }
  const item = (productId: string, total: number, modifiers: unknown[] = []) => ({
    productId,
    quantity: 1,
    price: { totalPrice: { total } },
    ...(modifiers.length ? { modifierGroups: [{ name: 'Extras', selectedModifiers: modifiers }] } : {}),
  });
  const enrich = async (store: string, products: unknown[], createdAt: string) => {
    const orderId = unique('rep-order');
    const answer = await t.http.post('/enrich-order', { orderId, store: { id: store }, order: { products } }, { token: ordersToken });
    if (answer.status !== 200) throw new Error(`enrich: ${answer.status} ${answer.text}`);
    // The date is the fixture's (an order's creation time never changes in the service; it is set before any fold)
    await t.dataSource.getRepository(OrderEntity).update({ orderId }, { createdAt: new Date(createdAt) });
    return orderId;
  };
  const mid = '2026-11-15T12:00:00Z';
  const a1 = await enrich(storeA, [item(burger, 25.9), item(cola, 6)], mid);
  const a2 = await enrich(storeA, [item(burger, 10, [item(cola, 6)])], mid);
  const cancelled = await enrich(storeA, [item(burger, 25.9), item(cola, 6)], mid);
  await t.dataSource.getRepository(OrderEntity).update({ orderId: cancelled }, { status: 'CANCELLED' });
  const b1 = await enrich(storeB, [item(burger, 25.9)], mid);
  const edge = await enrich(storeA, [item(burger, 10)], '2026-11-01T02:30:00Z');
  return { storeA, storeB, groupA, groupB, orders: { a1, a2, cancelled, b1, edge }, products: { burger, cola } };
}

/**
 * Stops the app's jobs, so that only the test folds, and answers a folder of its own on the same runner (the job's
 * rounds as the service runs them, with their 30 s margin) and a fold with no margin, repeated until the summaries reach
 * the current hour: every change made before it is then in the summaries rather than summed live.
 */
export async function taxFolding(t: TestApp): Promise<{ folder: OrderTaxFolder; foldAll: () => Promise<number> }> {
  await t.app.get(JobRunner).stopAll();
  const repository = t.app.get(OrderTaxReportRepository);
  const folder = new OrderTaxFolder(repository, t.app.get(JobRunner));
  const foldAll = async () => {
    let hours = 0;
    for (;;) {
      const round = await repository.fold(24, 0);
      hours += round.hours;
      if (round.caughtUp) return hours;
    }
  };
  return { folder, foldAll };
}
