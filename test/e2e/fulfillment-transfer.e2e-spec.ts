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
import { failed, ok, refusedPos, type Schemas, type PosErrorBody } from '../support/api.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { unique } from '../support/orders.js';
import { enrichedPayloadOf } from '../support/rows.js';
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
    type Transfer = Schemas['TransferRequestDto'];
    const transfer = (order: Transfer['order'], from: Transfer['from_store'], to: Transfer['to_store'], extra: Partial<Transfer> = {}) =>
      t.apiAs(orders).PUT('/api/api/order/transfer', {
        body: { order, from_store: from, to_store: to, processed_by: 'Carla Mendes', transfer_reason: 'Oven out of order', ...extra },
      });

    it('re-enriches the order when the target store has another fiscal group (taxes change), in one go', async () => {
      const orderId = unique('xfer');
      await enrichedOrder(orderId, PINHEIROS);
      await setStatus(orderId, 'ACCEPTED');
      const before = await row(orderId);
      // Group A (18 %): ICMS 25.90 × 18 % = 4.662 → 4.66; PIS/COFINS base 25.90 − 4.66 = 21.24;
      // PIS 21.24 × 0.65 % = 0.13806 → 0.14; COFINS 21.24 × 3 % = 0.6372 → 0.64; total 5.44
      expect(enrichedPayloadOf(before).order!.products![0]!.tax).toMatchObject({
        ICMS_value: 4.66,
        PIS_value: 0.14,
        COFINS_value: 0.64,
        total_tax: 5.44,
      });
      expect(before.fiscalGroupId).toBe(groupA);

      const address = { street: 'Av. Ibirapuera', number: '2927', city: 'São Paulo' };
      const response = await transfer(orderId, 'BN-PIN', 'BN-MOE', { shipping_address: address });
      expect(ok(response, 200)).toEqual({
        message: `Order ${orderId} transferred from store "${PINHEIROS}" to store "${MOEMA}"; taxes recalculated with fiscal group ${groupB}`,
        status: 'success',
        orderStatus: 'ACCEPTED',
      });

      const after = await row(orderId);
      expect(after).toMatchObject({ storeId: MOEMA, fiscalGroupId: groupB, status: 'ACCEPTED', id: before.id });
      // Re-taxed, a new message: its webhook-id is again the hash of its canonical JSON (the stored one was the old payload's).
      expect([typeof before.webhookId, after.webhookId]).toEqual(['string', null]);
      expect(after.payload.store).toEqual({ id: MOEMA, name: 'Bella Napoli' });
      expect(after.payload.customer).toEqual({ name: 'Ana' });
      expect(enrichedPayloadOf(after).store.id).toBe(MOEMA);
      // Group B (12 %): ICMS 25.90 × 12 % = 3.108 → 3.11; PIS/COFINS base 25.90 − 3.11 = 22.79;
      // PIS 22.79 × 0.65 % = 0.148135 → 0.15; COFINS 22.79 × 3 % = 0.6837 → 0.68; total 3.11 + 0.15 + 0.68 = 3.94
      expect(enrichedPayloadOf(after).order!.products![0]!.tax).toMatchObject({
        ICMS_rate: 12,
        ICMS_base: 25.9,
        ICMS_value: 3.11,
        PIS_base: 22.79,
        PIS_value: 0.15,
        COFINS_base: 22.79,
        COFINS_value: 0.68,
        total_tax: 3.94,
      });
      expect(enrichedPayloadOf(after).taxSummary).toMatchObject({
        fiscalGroupId: groupB,
        totals: { base: 25.9, ICMS_value: 3.11, PIS_value: 0.15, COFINS_value: 0.68, total_tax: 3.94 },
      });

      expect(await transfers(orderId)).toEqual([
        expect.objectContaining({
          fromStore: 'BN-PIN',
          toStore: 'BN-MOE',
          fromStoreId: PINHEIROS,
          toStoreId: MOEMA,
          processedBy: 'Carla Mendes',
          transferReason: 'Oven out of order',
          shippingAddress: address,
          refiscalized: true,
          fromFiscalGroupId: groupA,
          toFiscalGroupId: groupB,
          clientId: ordersClient,
        }),
      ]);
      // A transfer is not a status change: no history row.
      expect((await history(orderId)).map((entry) => entry.toStatus)).toEqual(['ENRICHED', 'ACCEPTED']);
    });

    it('keeps the taxes when the target store has the same fiscal group (ids as numbers)', async () => {
      const orderId = String(910000 + process.pid);
      await enrichedOrder(orderId, PINHEIROS);
      const before = await row(orderId);
      const response = await transfer(Number(orderId), Number(PINHEIROS), Number(VILA_MARIANA), {
        shipping_address: 'Rua Domingos de Morais, 2000',
      });
      expect(ok(response, 200)).toEqual({
        message: `Order ${orderId} transferred from store "${PINHEIROS}" to store "${VILA_MARIANA}"; same fiscal group, taxes unchanged`,
        status: 'success',
        orderStatus: 'ENRICHED',
      });
      const after = await row(orderId);
      expect(after).toMatchObject({ storeId: VILA_MARIANA, fiscalGroupId: groupA });
      expect(after.payload.store).toMatchObject({ id: VILA_MARIANA });
      expect(enrichedPayloadOf(after).store.id).toBe(VILA_MARIANA);
      // Not recomputed: the same figures and the same calculation time.
      expect(enrichedPayloadOf(after).taxSummary).toEqual(enrichedPayloadOf(before).taxSummary);
      expect(enrichedPayloadOf(after).order).toEqual(enrichedPayloadOf(before).order);
      expect(await transfers(orderId)).toEqual([
        expect.objectContaining({
          fromStore: PINHEIROS,
          toStore: VILA_MARIANA,
          refiscalized: false,
          shippingAddress: 'Rua Domingos de Morais, 2000',
        }),
      ]);
    });

    it('409 when from_store is not the order store (by id or by code); nothing changes', async () => {
      const orderId = unique('wrongfrom');
      await enrichedOrder(orderId, PINHEIROS);
      for (const from of [MOEMA, 'BN-MOE', 'UNKNOWN-CODE']) {
        const response = refusedPos(await transfer(orderId, from, VILA_MARIANA), 409);
        expect(response.body).toEqual(
          domainErrorD(`from_store "${from}" is not the current store of order ${orderId} (store "${PINHEIROS}")`, 'NOT_THE_ORDER_STORE', [
            { field: 'from_store', problem: 'is not the current store of the order', orderId, fromStore: from, storeId: PINHEIROS },
          ]),
        );
        expectDeclaredError('PUT', '/api/api/order/transfer', response);
      }
      expect((await row(orderId)).storeId).toBe(PINHEIROS);
      expect(await transfers(orderId)).toEqual([]);
    });

    it('400 when to_store equals from_store, or names the current store otherwise', async () => {
      const orderId = unique('samestore');
      await enrichedOrder(orderId, PINHEIROS);
      expect(failed(await transfer(orderId, PINHEIROS, Number(PINHEIROS)), 400)).toEqual(errorD('to_store must differ from from_store'));
      expect(Object.keys(failed(await transfer(orderId, PINHEIROS, 'BN-PIN'), 400))).toEqual(['error', 'message']);
    });

    it('409 when a taxed order would move to a store without a fiscal group; nothing changes', async () => {
      const orderId = unique('nofiscal');
      await enrichedOrder(orderId, PINHEIROS);
      const before = await row(orderId);
      const response = refusedPos(await transfer(orderId, 'BN-PIN', 'BN-NOFISCAL'), 409);
      expect(response.body.error).toContain(`Store "${NO_GROUP}" has no fiscal group`);
      expect([response.body.code, response.body.details]).toEqual([
        'STORE_WITHOUT_FISCAL_GROUP',
        [{ field: 'to_store', problem: 'no fiscal group holds this store', orderId, storeId: NO_GROUP, fiscalGroupId: groupA }],
      ]);
      expectDeclaredError('PUT', '/api/api/order/transfer', response);
      const after = await row(orderId);
      expect([after.storeId, after.enrichedPayload]).toEqual([PINHEIROS, before.enrichedPayload]);
      expect(await transfers(orderId)).toEqual([]);
    });

    it('an order without taxes moves to a store without a group as it is, and is enriched when it reaches a group', async () => {
      const orderId = unique('untaxed');
      await enrichedOrder(orderId, 'store-without-group'); // 422: stored as ENRICHMENT_FAILED
      expect((await row(orderId)).status).toBe('ENRICHMENT_FAILED');

      expect(ok(await transfer(orderId, 'store-without-group', NO_GROUP), 200).orderStatus).toBe('ENRICHMENT_FAILED');
      expect(await row(orderId)).toMatchObject({ storeId: NO_GROUP, enrichedPayload: null, fiscalGroupId: null });

      expect(ok(await transfer(orderId, 'BN-NOFISCAL', MOEMA), 200).orderStatus).toBe('ENRICHED');
      const after = await row(orderId);
      expect(after).toMatchObject({ storeId: MOEMA, fiscalGroupId: groupB, status: 'ENRICHED' });
      // Group B, as above: 3.11 + 0.15 + 0.68 = 3.94
      expect(enrichedPayloadOf(after).taxSummary.totals.total_tax).toBe(3.94);
      expect((await transfers(orderId)).map((entry) => entry.refiscalized)).toEqual([false, true]);
      expect((await history(orderId)).at(-1)).toEqual({
        fromStatus: 'ENRICHMENT_FAILED',
        toStatus: 'ENRICHED',
        clientId: ordersClient,
        via: 'PUT /api/api/order/transfer',
      });
    });

    it('409 for a store code shared by several stores, and for an order in a final status', async () => {
      const orderId = unique('dup');
      await enrichedOrder(orderId, PINHEIROS);
      const ambiguous = refusedPos(await transfer(orderId, PINHEIROS, 'DUP'), 409);
      expect(ambiguous.body.error).toContain('belongs to several stores');
      const storeIds = ambiguous.body.details?.[0]?.storeIds;
      expect([
        ambiguous.body.code,
        ambiguous.body.details?.[0]?.storeCode,
        Array.isArray(storeIds) ? [...storeIds].sort() : storeIds,
      ]).toEqual(['AMBIGUOUS_STORE_CODE', 'DUP', ['1301', '1302']]);
      expectDeclaredError('PUT', '/api/api/order/transfer', ambiguous);
      await setStatus(orderId, 'DELIVERED');
      const final = refusedPos(await transfer(orderId, PINHEIROS, MOEMA), 409);
      expect(final.body).toEqual(
        domainErrorD(`Order ${orderId} is DELIVERED, a final status: it cannot be transferred`, 'ORDER_IN_FINAL_STATUS', [
          { field: 'order', problem: 'is DELIVERED, a final status', orderId, status: 'DELIVERED' },
        ]),
      );
      expectDeclaredError('PUT', '/api/api/order/transfer', final);
    });

    it('409 UNKNOWN_STORE when to_store is neither a configured store nor one of a fiscal group; nothing changes', async () => {
      const orderId = unique('unknownto');
      await enrichedOrder(orderId, PINHEIROS);
      const before = await row(orderId);
      for (const to of ['9999', 'NOT-A-CODE']) {
        const response = refusedPos(await transfer(orderId, PINHEIROS, to), 409);
        expect(response.body).toEqual(
          domainErrorD(
            `Store "${to}" is unknown: it is neither a store of the channel configuration nor one a fiscal group holds; order ${orderId} was not transferred`,
            'UNKNOWN_STORE',
            [{ field: 'to_store', problem: 'is not a known store', orderId, toStore: to }],
          ),
        );
        expectDeclaredError('PUT', '/api/api/order/transfer', response);
      }
      expect(await row(orderId)).toEqual(before);
      expect(await transfers(orderId)).toEqual([]);
    });

    it('accepts a store that only a fiscal group holds (not in the channel configuration)', async () => {
      const groupOnly = '1501';
      ok(
        await t.api.POST('/api/admin/fiscal-groups', {
          body: {
            name: 'Group only',
            uf: 'SP',
            taxRegime: 'LUCRO_PRESUMIDO',
            stores: [{ store_id: groupOnly, store_name: 'Kiosk' }],
            taxMatrix: {},
          },
        }),
        201,
      );
      const orderId = unique('grouponly');
      await enrichedOrder(orderId, 'store-without-group'); // 422: stored as ENRICHMENT_FAILED, no taxes to keep
      ok(await transfer(orderId, 'store-without-group', groupOnly), 200);
      expect((await row(orderId)).storeId).toBe(groupOnly);
    });

    it('404 for an unknown order, 400 for a bad body', async () => {
      expect(failed(await transfer('ghost-order', PINHEIROS, MOEMA), 404)).toEqual(errorD('Order ghost-order not found'));
      // Bodies outside the schema: sent raw.
      const valid = {
        order: 'ghost-order',
        from_store: PINHEIROS,
        to_store: MOEMA,
        processed_by: 'Carla Mendes',
        transfer_reason: 'Oven out of order',
      };
      for (const extra of [{ processed_by: undefined }, { transfer_reason: '' }, { shipping_address: ['x'] }]) {
        const response = await t.http.put<PosErrorBody>(`${ORDER}/transfer`, { ...valid, ...extra }, { token: orders });
        expect(response.status).toBe(400);
        expect(Object.keys(response.body)).toEqual(['error', 'message']);
      }
    });
  });
});
