import { OrderEntity } from '../../src/orders/order.entity.js';
import { failed, ok, type Api, type Schemas } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { fiscalMatrix, orderFor, seedFiscalData, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const HOUR_MS = 60 * 60 * 1000;

/**
 * The revision behind every order: the one in force at the order's tax instant.
 *
 * The order of orderFor(): burger 25.90 (NCM 21069090) and cola 6.00 (CST 60 / 04: no tax). The burger's ICMS:
 * at 18 % (the first revision): 25.90 × 0.18 = 4.662 → 4.66; at 20 % (the scheduled second one): 25.90 × 0.20 = 5.18.
 */
describe('the fiscal group revision that taxes an order (e2e)', () => {
  let t: TestApp;
  let admin: string;
  let orders: Api;
  let storeId: string;
  let groupId: string;

  beforeAll(async () => {
    t = await bootTestApp();
    admin = await t.tokenFor(['admin']);
    orders = t.apiAs(await t.tokenFor(['orders']));
  });
  afterAll(async () => {
    await t.close();
  });

  /** A store of its own, with a group whose ICMS goes from 18 % to 20 % at `switchAt`. */
  const storeSwitchingAt = async (switchAt: Date) => {
    storeId = unique('rev-store');
    await seedFiscalData(t.http, admin, storeId);
    groupId = ok(await t.api.GET('/api/admin/fiscal-groups/by-store/{storeId}', { params: { path: { storeId } } }), 200).id;
    ok(
      await t.apiAs(admin).PUT('/api/admin/fiscal-groups/{id}', {
        params: { path: { id: groupId }, query: { effectiveFrom: switchAt.toISOString() } },
        body: { taxMatrix: fiscalMatrix(20) },
      }),
      200,
    );
  };
  const send = async (orderId: string, createdAt?: string) => {
    const body = { ...orderFor(orderId, storeId), ...(createdAt === undefined ? {} : { createdAt }) };
    const summary = ok(await orders.POST('/api/enrich-order', { body }), 200).payload.taxSummary;
    return { icms: summary.totals.ICMS_value, ...summary.fiscalDocument } as { icms: number } & Partial<Schemas['FiscalDocumentDto']>;
  };
  const at = (ms: number) => new Date(ms).toISOString();

  it('switches exactly at the scheduled instant, by the order createdAt', async () => {
    const switchAt = Math.ceil((Date.now() + 60_000) / 1000) * 1000;
    await storeSwitchingAt(new Date(switchAt));
    expect(await send(unique('before'), at(switchAt - 1000))).toEqual({ icms: 4.66, revision: 1, taxInstant: at(switchAt - 1000) });
    expect(await send(unique('just-before'), at(switchAt - 1))).toMatchObject({ icms: 4.66, revision: 1 });
    expect(await send(unique('at'), at(switchAt))).toMatchObject({ icms: 5.18, revision: 2 });
    expect(await send(unique('after'), at(switchAt + 1000))).toEqual({ icms: 5.18, revision: 2, taxInstant: at(switchAt + 1000) });
  });

  it('taxes by a revision scheduled before the external id changed, with the id the group has now', async () => {
    const switchAt = Math.ceil((Date.now() + 60_000) / 1000) * 1000;
    await storeSwitchingAt(new Date(switchAt));
    const externalId = unique('ext-now');
    ok(await t.apiAs(admin).PUT('/api/admin/fiscal-groups/{id}', { params: { path: { id: groupId } }, body: { externalId } }), 200);
    const body = { ...orderFor(unique('renamed'), storeId), createdAt: at(switchAt + 1000) };
    const summary = ok(await orders.POST('/api/enrich-order', { body }), 200).payload.taxSummary;
    expect({ externalId: summary.externalId, icms: summary.totals.ICMS_value, revision: summary.fiscalDocument?.revision }).toEqual({
      externalId,
      icms: 5.18,
      revision: 2,
    });
  });

  it('takes createdAt within 24 hours before and 5 minutes after the receipt, else the receipt', async () => {
    await storeSwitchingAt(new Date(Date.now() + HOUR_MS));
    const inside = at(Date.now() - 23 * HOUR_MS);
    expect((await send(unique('inside'), inside)).taxInstant).toBe(inside);
    // A point of sale's local time in São Paulo without its offset (-03:00): read as UTC, 3 hours before the receipt.
    const localTime = at(Date.now() - 3 * HOUR_MS).replace('Z', '');
    for (const createdAt of [at(Date.now() - 25 * HOUR_MS), at(Date.now() + 10 * 60_000), 'not a date', localTime, undefined]) {
      const before = Date.now();
      const taxed = await send(unique('receipt'), createdAt);
      const instant = Date.parse(taxed.taxInstant!);
      expect(instant).toBeGreaterThanOrEqual(before);
      expect(instant).toBeLessThanOrEqual(Date.now());
      expect(taxed).toMatchObject({ icms: 4.66, revision: 1 });
    }
  });

  it('keeps the first receipt tax instant on a re-send, and the order detail links the revision', async () => {
    const switchAt = Math.ceil((Date.now() + 60_000) / 1000) * 1000;
    await storeSwitchingAt(new Date(switchAt));
    const orderId = unique('resent');
    const first = await send(orderId, at(switchAt - 1000));
    expect(first).toMatchObject({ icms: 4.66, revision: 1 });
    // Dated after the switch, or not dated: still taxed at the first instant, by the first revision.
    expect(await send(orderId, at(switchAt + 1000))).toEqual(first);
    expect(await send(orderId)).toEqual(first);
    const row = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
    expect({ taxInstant: row.taxInstant?.toISOString(), revision: row.fiscalGroupRevision }).toEqual({
      taxInstant: first.taxInstant,
      revision: 1,
    });

    const detail = ok(await t.api.GET('/api/admin/orders/{id}', { params: { path: { id: orderId } } }), 200);
    expect(detail.fiscalRevision).toEqual({ fiscalGroupId: groupId, revision: 1, taxInstant: first.taxInstant });
  });

  it('re-taxes a transferred order at its own tax instant, not the transfer’s', async () => {
    const switchAt = Math.ceil((Date.now() + 60_000) / 1000) * 1000;
    await storeSwitchingAt(new Date(switchAt)); // the target store: 20 % from switchAt
    const target = { storeId, groupId };
    const origin = unique('rev-origin');
    await seedFiscalData(t.http, admin, origin); // 18 %, no change scheduled
    storeId = origin;
    const orderId = unique('moved');
    expect(await send(orderId, at(switchAt + 1000))).toMatchObject({ icms: 4.66, revision: 1 });

    const moved = await orders.PUT('/api/api/order/transfer', {
      body: { order: orderId, from_store: origin, to_store: target.storeId, processed_by: 'Carla', transfer_reason: 'Oven out of order' },
    });
    expect(moved.response.status).toBe(200);
    // Transferred before switchAt, but the order's tax instant is after it: the target's scheduled revision taxes it.
    const row = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
    const summary = (row.enrichedPayload as { taxSummary: Schemas['TaxSummaryDto'] }).taxSummary;
    expect({ icms: summary.totals.ICMS_value, ...summary.fiscalDocument }).toEqual({
      icms: 5.18,
      revision: 2,
      taxInstant: at(switchAt + 1000),
    });
    expect({ group: row.fiscalGroupId, revision: row.fiscalGroupRevision }).toEqual({ group: target.groupId, revision: 2 });
  });

  it('stops taxing by a revision once it is cancelled; refuses to cancel one that taxed an order (409 REVISION_IN_USE)', async () => {
    const switchAt = Math.ceil((Date.now() + 60_000) / 1000) * 1000;
    const cancel = () =>
      t.apiAs(admin).DELETE('/api/admin/fiscal-groups/{id}/revisions/{revision}', { params: { path: { id: groupId, revision: 2 } } });
    await storeSwitchingAt(new Date(switchAt));
    expect((await cancel()).response.status).toBe(204);
    expect(await send(unique('cancelled'), at(switchAt + 1000))).toMatchObject({ icms: 4.66, revision: 1 });

    // An order dated ahead of its receipt, past the scheduled instant, is taxed by the scheduled revision: it stays.
    await storeSwitchingAt(new Date(switchAt));
    expect(await send(unique('scheduled'), at(switchAt + 1000))).toMatchObject({ icms: 5.18, revision: 2 });
    const refused = failed(await cancel(), 409);
    expect(refused).toMatchObject({
      error: 'REVISION_IN_USE',
      details: [{ field: 'revision', fiscalGroupId: groupId, revision: 2, effectiveFrom: at(switchAt) }],
    });
    expectDeclaredError('DELETE', '/api/admin/fiscal-groups/{id}/revisions/{revision}', { status: 409, body: refused });
    expect(await send(unique('still-scheduled'), at(switchAt + 1000))).toMatchObject({ icms: 5.18, revision: 2 });
  });
});
