import {
  bootFulfillmentApp,
  domainErrorD,
  errorD,
  fulfillmentSteps,
  MOEMA,
  NO_GROUP,
  ORDER,
  PINHEIROS,
  VILA_MARIANA,
  type FulfillmentApp,
} from '../support/fulfillment.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { unique } from '../support/orders.js';
import type { TestApp } from '../support/test-app.js';

describe('order fulfillment /api/api/order/* (e2e)', () => {
  let f: FulfillmentApp;
  let t: TestApp;
  let orders: string;
  let ordersClient: string;
  let groupA: string;
  let groupB: string;
  const { row, history, transfers, enrichedOrder, setStatus } = fulfillmentSteps(() => f);

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    ({ t, orders, ordersClient, groupA, groupB } = f);
  });
  afterAll(async () => {
    await t.close();
  });

  describe('PUT /api/api/order/transfer', () => {
    const transfer = (order: unknown, from: unknown, to: unknown, extra: Record<string, unknown> = {}) =>
      t.http.put(
        `${ORDER}/transfer`,
        { order, from_store: from, to_store: to, processed_by: 'Carla Mendes', transfer_reason: 'Oven out of order', ...extra },
        { token: orders },
      );

    it('re-enriches the order when the target store has another fiscal group (taxes change), in one go', async () => {
      const orderId = unique('xfer');
      await enrichedOrder(orderId, PINHEIROS);
      await setStatus(orderId, 'ACCEPTED');
      const before = await row(orderId);
      // Group A (18 %): ICMS 25.90 × 18 % = 4.662 → 4.66; PIS/COFINS base 25.90 − 4.66 = 21.24;
      // PIS 21.24 × 0.65 % = 0.13806 → 0.14; COFINS 21.24 × 3 % = 0.6372 → 0.64; total 5.44
      expect(before.enriched_payload.order.products[0].tax).toMatchObject({
        ICMS_value: 4.66,
        PIS_value: 0.14,
        COFINS_value: 0.64,
        total_tax: 5.44,
      });
      expect(before.fiscal_group_id).toBe(groupA);

      const address = { street: 'Av. Ibirapuera', number: '2927', city: 'São Paulo' };
      const response = await transfer(orderId, 'BN-PIN', 'BN-MOE', { shipping_address: address });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} transferred from store "${PINHEIROS}" to store "${MOEMA}"; taxes recalculated with fiscal group ${groupB}`,
        status: 'success',
        orderStatus: 'ACCEPTED',
      });

      const after = await row(orderId);
      expect(after).toMatchObject({ store_id: MOEMA, fiscal_group_id: groupB, status: 'ACCEPTED', id: before.id });
      expect(after.payload.store).toEqual({ id: MOEMA, name: 'Bella Napoli' });
      expect(after.payload.customer).toEqual({ name: 'Ana' });
      expect(after.enriched_payload.store.id).toBe(MOEMA);
      // Group B (12 %): ICMS 25.90 × 12 % = 3.108 → 3.11; PIS/COFINS base 25.90 − 3.11 = 22.79;
      // PIS 22.79 × 0.65 % = 0.148135 → 0.15; COFINS 22.79 × 3 % = 0.6837 → 0.68; total 3.11 + 0.15 + 0.68 = 3.94
      expect(after.enriched_payload.order.products[0].tax).toMatchObject({
        ICMS_rate: 12,
        ICMS_base: 25.9,
        ICMS_value: 3.11,
        PIS_base: 22.79,
        PIS_value: 0.15,
        COFINS_base: 22.79,
        COFINS_value: 0.68,
        total_tax: 3.94,
      });
      expect(after.enriched_payload.taxSummary).toMatchObject({
        fiscalGroupId: groupB,
        totals: { base: 25.9, ICMS_value: 3.11, PIS_value: 0.15, COFINS_value: 0.68, total_tax: 3.94 },
      });

      expect(await transfers(orderId)).toEqual([
        expect.objectContaining({
          from_store: 'BN-PIN',
          to_store: 'BN-MOE',
          from_store_id: PINHEIROS,
          to_store_id: MOEMA,
          processed_by: 'Carla Mendes',
          transfer_reason: 'Oven out of order',
          shipping_address: address,
          refiscalized: true,
          from_fiscal_group_id: groupA,
          to_fiscal_group_id: groupB,
          client_id: ordersClient,
        }),
      ]);
      // A transfer is not a status change: no history row.
      expect((await history(orderId)).map((entry) => entry.to_status)).toEqual(['ENRICHED', 'ACCEPTED']);
    });

    it('keeps the taxes when the target store has the same fiscal group (ids as numbers)', async () => {
      const orderId = String(910000 + process.pid);
      await enrichedOrder(orderId, PINHEIROS);
      const before = await row(orderId);
      const response = await transfer(Number(orderId), Number(PINHEIROS), Number(VILA_MARIANA), {
        shipping_address: 'Rua Domingos de Morais, 2000',
      });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        message: `Order ${orderId} transferred from store "${PINHEIROS}" to store "${VILA_MARIANA}"; same fiscal group, taxes unchanged`,
        status: 'success',
        orderStatus: 'ENRICHED',
      });
      const after = await row(orderId);
      expect(after).toMatchObject({ store_id: VILA_MARIANA, fiscal_group_id: groupA });
      expect(after.payload.store.id).toBe(VILA_MARIANA);
      expect(after.enriched_payload.store.id).toBe(VILA_MARIANA);
      // Not recomputed: the same figures and the same calculation time.
      expect(after.enriched_payload.taxSummary).toEqual(before.enriched_payload.taxSummary);
      expect(after.enriched_payload.order).toEqual(before.enriched_payload.order);
      expect(await transfers(orderId)).toEqual([
        expect.objectContaining({
          from_store: PINHEIROS,
          to_store: VILA_MARIANA,
          refiscalized: false,
          shipping_address: 'Rua Domingos de Morais, 2000',
        }),
      ]);
    });

    it('409 when from_store is not the order store (by id or by code); nothing changes', async () => {
      const orderId = unique('wrongfrom');
      await enrichedOrder(orderId, PINHEIROS);
      for (const from of [MOEMA, 'BN-MOE', 'UNKNOWN-CODE']) {
        const response = await transfer(orderId, from, VILA_MARIANA);
        expect([from, response.status]).toEqual([from, 409]);
        expect(response.body).toEqual(
          domainErrorD(`from_store "${from}" is not the current store of order ${orderId} (store "${PINHEIROS}")`, 'NOT_THE_ORDER_STORE', [
            { field: 'from_store', problem: 'is not the current store of the order', orderId, fromStore: from, storeId: PINHEIROS },
          ]),
        );
        expectDeclaredError('PUT', '/api/api/order/transfer', response);
      }
      expect((await row(orderId)).store_id).toBe(PINHEIROS);
      expect(await transfers(orderId)).toEqual([]);
    });

    it('400 when to_store equals from_store, or names the current store otherwise', async () => {
      const orderId = unique('samestore');
      await enrichedOrder(orderId, PINHEIROS);
      const same = await transfer(orderId, PINHEIROS, Number(PINHEIROS));
      expect(same.status).toBe(400);
      expect(same.body).toEqual(errorD('to_store must differ from from_store'));
      const byCode = await transfer(orderId, PINHEIROS, 'BN-PIN');
      expect(byCode.status).toBe(400);
      expect(Object.keys(byCode.body)).toEqual(['error', 'message']);
    });

    it('409 when a taxed order would move to a store without a fiscal group; nothing changes', async () => {
      const orderId = unique('nofiscal');
      await enrichedOrder(orderId, PINHEIROS);
      const before = await row(orderId);
      const response = await transfer(orderId, 'BN-PIN', 'BN-NOFISCAL');
      expect(response.status).toBe(409);
      expect(response.body.error).toContain(`Store "${NO_GROUP}" has no fiscal group`);
      expect([response.body.code, response.body.details]).toEqual([
        'STORE_WITHOUT_FISCAL_GROUP',
        [{ field: 'to_store', problem: 'no fiscal group holds this store', orderId, storeId: NO_GROUP, fiscalGroupId: groupA }],
      ]);
      expectDeclaredError('PUT', '/api/api/order/transfer', response);
      const after = await row(orderId);
      expect([after.store_id, after.enriched_payload]).toEqual([PINHEIROS, before.enriched_payload]);
      expect(await transfers(orderId)).toEqual([]);
    });

    it('an order without taxes moves to a store without a group as it is, and is enriched when it reaches a group', async () => {
      const orderId = unique('untaxed');
      await enrichedOrder(orderId, 'store-without-group'); // 422: stored as ENRICHMENT_FAILED
      expect((await row(orderId)).status).toBe('ENRICHMENT_FAILED');

      const first = await transfer(orderId, 'store-without-group', NO_GROUP);
      expect(first.status).toBe(200);
      expect(first.body.orderStatus).toBe('ENRICHMENT_FAILED');
      expect(await row(orderId)).toMatchObject({ store_id: NO_GROUP, enriched_payload: null, fiscal_group_id: null });

      const second = await transfer(orderId, 'BN-NOFISCAL', MOEMA);
      expect(second.status).toBe(200);
      expect(second.body.orderStatus).toBe('ENRICHED');
      const after = await row(orderId);
      expect(after).toMatchObject({ store_id: MOEMA, fiscal_group_id: groupB, status: 'ENRICHED' });
      // Group B, as above: 3.11 + 0.15 + 0.68 = 3.94
      expect(after.enriched_payload.taxSummary.totals.total_tax).toBe(3.94);
      expect((await transfers(orderId)).map((entry: { refiscalized: boolean }) => entry.refiscalized)).toEqual([false, true]);
      expect((await history(orderId)).at(-1)).toEqual({
        from_status: 'ENRICHMENT_FAILED',
        to_status: 'ENRICHED',
        client_id: ordersClient,
        via: 'PUT /api/api/order/transfer',
      });
    });

    it('409 for a store code shared by several stores, and for an order in a final status', async () => {
      const orderId = unique('dup');
      await enrichedOrder(orderId, PINHEIROS);
      const ambiguous = await transfer(orderId, PINHEIROS, 'DUP');
      expect(ambiguous.status).toBe(409);
      expect(ambiguous.body.error).toContain('belongs to several stores');
      expect([ambiguous.body.code, ambiguous.body.details[0].storeCode, [...ambiguous.body.details[0].storeIds].sort()]).toEqual([
        'AMBIGUOUS_STORE_CODE',
        'DUP',
        ['1301', '1302'],
      ]);
      expectDeclaredError('PUT', '/api/api/order/transfer', ambiguous);
      await setStatus(orderId, 'DELIVERED');
      const final = await transfer(orderId, PINHEIROS, MOEMA);
      expect(final.status).toBe(409);
      expect(final.body).toEqual(
        domainErrorD(`Order ${orderId} is DELIVERED, a final status: it cannot be transferred`, 'ORDER_IN_FINAL_STATUS', [
          { field: 'order', problem: 'is DELIVERED, a final status', orderId, status: 'DELIVERED' },
        ]),
      );
      expectDeclaredError('PUT', '/api/api/order/transfer', final);
    });

    it('404 for an unknown order, 400 for a bad body', async () => {
      const missing = await transfer('ghost-order', PINHEIROS, MOEMA);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorD('Order ghost-order not found'));
      for (const extra of [{ processed_by: undefined }, { transfer_reason: '' }, { shipping_address: ['x'] }]) {
        const response = await transfer('ghost-order', PINHEIROS, MOEMA, extra);
        expect(response.status).toBe(400);
        expect(Object.keys(response.body)).toEqual(['error', 'message']);
      }
    });
  });
});
