import { failed, ok, type ErrorBody } from '../support/api.js';
import { fiscalMatrix, orderFor, unique } from '../support/orders.js';
import { enrichedPayloadOf, existingOrderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * Writes that met each other lost. Transfers starved the
 * connection pool, re-sending an order undid its transfer or cleared its taxes, and two
 * fiscal groups claiming each other's store deadlocked into a 500.
 */

const ORDER = '/api/order';

describe('concurrent and repeated order writes', () => {
  let t: TestApp;
  let admin: string;
  const storeA = unique('writes-a');
  const storeB = unique('writes-b');
  let groupA: string;
  let groupB: string;

  const createGroup = async (name: string, storeIds: string[], icmsRate: number) => {
    const created = await t.apiAs(admin).POST('/api/admin/fiscal-groups', {
      body: {
        name,
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: storeIds.map((id) => ({ store_id: id, store_name: id })),
        taxMatrix: fiscalMatrix(icmsRate),
      },
    });
    return ok(created, 201).id;
  };
  const stored = (orderId: string) => existingOrderRow(t.dataSource, orderId);
  const enrich = (orderId: string, storeId: string) => t.apiAs(admin).POST('/api/enrich-order', { body: orderFor(orderId, storeId) });
  const transfer = (orderId: string, from: string, to: string) =>
    t.http.put(
      `${ORDER}/transfer`,
      { order: orderId, from_store: from, to_store: to, processed_by: 'Ops', transfer_reason: 'Test' },
      { token: admin },
    );

  beforeAll(async () => {
    // A small pool: a code path that holds one connection while waiting for another starves it at once.
    t = await bootTestApp({ DATABASE_POOL_SIZE: '4' });
    admin = await t.adminToken();
    for (const productId of ['rel-burger', 'rel-cola']) {
      const created = await t.http.post(
        '/admin/product-fiscal-categories',
        { productId, productName: productId, ncm: productId === 'rel-burger' ? '21069090' : '22021000' },
        { token: admin },
      );
      expect([201, 409]).toContain(created.status);
    }
    groupA = await createGroup('Writes A', [storeA], 18);
    groupB = await createGroup('Writes B', [storeB], 12);
  });
  afterAll(() => t.close());

  it('answers 200 to 40 concurrent transfers right after a fiscal write emptied the lookup cache (item 3)', async () => {
    const orderIds = Array.from({ length: 40 }, () => unique('pool'));
    for (const orderId of orderIds) ok(await enrich(orderId, storeA), 200);
    // Any fiscal write empties every instance's lookup cache.
    expect((await t.http.put(`/admin/fiscal-groups/${groupB}`, { name: `Writes B ${Date.now()}` }, { token: admin })).status).toBe(200);
    const answers = await Promise.all(orderIds.map((orderId) => transfer(orderId, storeA, storeB)));
    expect(answers.map((answer) => answer.status)).toEqual(orderIds.map(() => 200));
    for (const orderId of orderIds.slice(0, 3)) expect((await stored(orderId)).fiscalGroupId).toBe(groupB);
  }, 60_000);

  describe('re-sending an order never undoes its fulfillment (item 6)', () => {
    it('taxes the re-send of a transferred order for the store it is in now', async () => {
      const orderId = unique('resend-moved');
      ok(await enrich(orderId, storeA), 200);
      expect((await transfer(orderId, storeA, storeB)).status).toBe(200);
      const resent = ok(await enrich(orderId, storeA), 200);
      expect(resent.payload.store.id).toBe(storeB);
      // Group B taxes the burger at 12 %: ICMS 25.90 × 12 % = 3.108 → 3.11.
      expect(resent.payload.order!.products![0]!.tax?.ICMS_value).toBe(3.11);
      const row = await stored(orderId);
      expect([row.storeId, row.fiscalGroupId]).toEqual([storeB, groupB]);
      expect(row.payload.store).toMatchObject({ id: storeB });
    });

    it('keeps the stored taxes, payload and status when a re-send cannot be taxed', async () => {
      const orderId = unique('resend-untaxable');
      ok(await enrich(orderId, storeA), 200);
      expect((await t.http.post(`${ORDER}/status`, { order_id: orderId, status: 'ACCEPTED' }, { token: admin })).status).toBe(200);
      const before = await stored(orderId);
      const resent = failed(await enrich(orderId, unique('no-group-store')), 422);
      expect(resent.error).toBe('FISCAL_GROUP_NOT_FOUND');
      expect(resent.message).toContain('nothing was stored');
      const after = await stored(orderId);
      expect([after.status, after.storeId, after.fiscalGroupId]).toEqual(['ACCEPTED', storeA, groupA]);
      expect(after.enrichedPayload).toEqual(before.enrichedPayload);
      expect(after.payload).toEqual(before.payload);
    });

    it('still stores a new order without a fiscal group as ENRICHMENT_FAILED, and says so', async () => {
      const orderId = unique('resend-new');
      expect(failed(await enrich(orderId, unique('no-group-store')), 422).message).toContain('stored as ENRICHMENT_FAILED');
      expect((await stored(orderId)).status).toBe('ENRICHMENT_FAILED');
    });

    it("ends with the transfer's store whatever the order of a concurrent re-send and transfer", async () => {
      const orderIds = Array.from({ length: 15 }, () => unique('race'));
      for (const orderId of orderIds) ok(await enrich(orderId, storeA), 200);
      const answers = await Promise.all(orderIds.flatMap((orderId) => [transfer(orderId, storeA, storeB), enrich(orderId, storeA)]));
      expect(
        answers.map((answer) => ('response' in answer ? answer.response.status : answer.status)).filter((status) => status !== 200),
      ).toEqual([]);
      for (const orderId of orderIds) {
        const row = await stored(orderId);
        expect([orderId, row.storeId, row.fiscalGroupId, enrichedPayloadOf(row).taxSummary.fiscalGroupId]).toEqual([
          orderId,
          storeB,
          groupB,
          groupB,
        ]);
      }
    }, 60_000);
  });

  it("answers 200 or 409, never 500, to fiscal groups claiming each other's store at once (item 7)", async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 8; round++) {
      const first = unique('claim-1');
      const second = unique('claim-2');
      const one = await createGroup(`Claim one ${round}`, [first], 18);
      const two = await createGroup(`Claim two ${round}`, [second], 18);
      const answers = await Promise.all([
        t.http.put<ErrorBody>(
          `/admin/fiscal-groups/${one}`,
          {
            stores: [
              { store_id: first, store_name: 'x' },
              { store_id: second, store_name: 'x' },
            ],
          },
          { token: admin },
        ),
        t.http.put<ErrorBody>(
          `/admin/fiscal-groups/${two}`,
          {
            stores: [
              { store_id: second, store_name: 'x' },
              { store_id: first, store_name: 'x' },
            ],
          },
          { token: admin },
        ),
      ]);
      statuses.push(...answers.map((answer) => answer.status));
      // Each store is held by the other group: both claims are refused, naming the store and its group.
      for (const answer of answers) expect(answer.body.message).toMatch(/held by|belongs to|already/i);
    }
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
  }, 60_000);
});
