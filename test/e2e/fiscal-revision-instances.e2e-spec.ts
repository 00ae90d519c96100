import { ok, type Api } from '../support/api.js';
import { eventually } from '../support/eventually.js';
import { fiscalMatrix, orderFor, seedFiscalData, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

interface Taxed {
  instance: 'a' | 'b';
  revision: number | null;
  taxInstant: number;
}

/**
 * Two instances on one database agree on the revision in force at a scheduled switch: the change is written on
 * one, reaches the other's cache through NOTIFY before its instant, and each picks the revision by the order's tax
 * instant in memory. The burger of orderFor() at 18 %: 25.90 × 0.18 = 4.662 → 4.66 ICMS; at 20 %: 25.90 × 0.20 = 5.18.
 */
describe('a scheduled revision on two instances (e2e)', () => {
  let a: TestApp;
  let b: TestApp;
  let ordersA: Api;
  let ordersB: Api;
  const storeId = unique('two-instances');

  beforeAll(async () => {
    a = await bootTestApp();
    b = await bootTestApp({}, { databaseUrl: a.databaseUrl });
    ordersA = a.apiAs(await a.tokenFor(['orders']));
    ordersB = b.apiAs(await b.tokenFor(['orders']));
    await seedFiscalData(a.http, await a.tokenFor(['admin']), storeId);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const send = async (instance: 'a' | 'b', createdAt?: string) => {
    const body = { ...orderFor(unique('order'), storeId), ...(createdAt === undefined ? {} : { createdAt }) };
    const summary = ok(await (instance === 'a' ? ordersA : ordersB).POST('/api/enrich-order', { body }), 200).payload.taxSummary;
    return {
      icms: summary.totals.ICMS_value,
      revision: summary.fiscalDocument?.revision ?? null,
      taxInstant: summary.fiscalDocument!.taxInstant,
    };
  };

  it('switches at the same instant on both, with no restart', async () => {
    // Both instances have the group cached before the change.
    expect(await send('a')).toMatchObject({ icms: 4.66, revision: 1 });
    expect(await send('b')).toMatchObject({ icms: 4.66, revision: 1 });

    const switchAt = Math.ceil((Date.now() + 4000) / 1000) * 1000;
    const admin = a.apiAs(await a.tokenFor(['admin']));
    const groupId = ok(await admin.GET('/api/admin/fiscal-groups/by-store/{storeId}', { params: { path: { storeId } } }), 200).id;
    ok(
      await admin.PUT('/api/admin/fiscal-groups/{id}', {
        params: { path: { id: groupId }, query: { effectiveFrom: new Date(switchAt).toISOString() } },
        body: { taxMatrix: fiscalMatrix(20) },
      }),
      200,
    );
    // b hears of the schedule through NOTIFY (the write was made on a).
    await eventually(async () => (await send('b', new Date(switchAt + 1000).toISOString())).revision === 2, {
      what: 'instance b to know the scheduled revision',
    });

    // Dated one second either side of the switch: the same answer on both.
    for (const instance of ['a', 'b'] as const) {
      expect(await send(instance, new Date(switchAt - 1000).toISOString())).toMatchObject({ icms: 4.66, revision: 1 });
      expect(await send(instance, new Date(switchAt + 1000).toISOString())).toMatchObject({ icms: 5.18, revision: 2 });
    }

    // Undated orders, taxed at their receipt, sent to both in turn until both have answered with the new revision.
    const taxed: Taxed[] = [];
    const switched = new Set<string>();
    for (let turn = 0; switched.size < 2; turn++) {
      const instance = turn % 2 === 0 ? 'a' : 'b';
      const answer = await send(instance);
      taxed.push({ instance, revision: answer.revision, taxInstant: Date.parse(answer.taxInstant) });
      if (answer.revision === 2) switched.add(instance);
    }
    // Every order is taxed by the revision in force at its own instant, on either instance: no gap, no overlap.
    const wrong = taxed.filter((order) => order.revision !== (order.taxInstant >= switchAt ? 2 : 1));
    expect(wrong).toEqual([]);
    for (const instance of ['a', 'b'] as const) {
      const own = taxed.filter((order) => order.instance === instance);
      const lastOld = Math.max(...own.filter((order) => order.revision === 1).map((order) => order.taxInstant));
      const firstNew = Math.min(...own.filter((order) => order.revision === 2).map((order) => order.taxInstant));
      console.log(
        `instance ${instance}: last order on the old revision ${switchAt - lastOld} ms before the switch, first on the new one ${firstNew - switchAt} ms after (${own.length} orders)`,
      );
    }
  });
});
