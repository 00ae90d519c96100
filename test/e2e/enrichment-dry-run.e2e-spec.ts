import { failed, ok, type Schemas } from '../support/api.js';
import { bootFulfillmentApp, fulfillmentSteps, MOEMA, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { unique } from '../support/orders.js';
import { OrderEntity } from '../../src/orders/order.entity.js';

/**
 * A dry run stores nothing and answers what the same call would store: for a re-send, the store a transfer moved the
 * order to and the first receipt's tax instant are those of the real re-send. A store-limited client's dry run reads
 * nothing stored, so that it cannot tell another store's orderId from an unknown one.
 *
 * The order: one f-burger of 25.90 (NCM 21069090, CST 00, PIS 0.65 %, COFINS 3 %).
 * Group A (Pinheiros, ICMS 18 %): ICMS 25.90 × 18 % = 4.662 → 4.66; PIS/COFINS base 25.90 − 4.66 = 21.24;
 *   PIS 21.24 × 0.65 % = 0.13806 → 0.14; COFINS 21.24 × 3 % = 0.6372 → 0.64; total 4.66 + 0.14 + 0.64 = 5.44.
 * Group B (Moema, ICMS 12 %): ICMS 25.90 × 12 % = 3.108 → 3.11; PIS/COFINS base 25.90 − 3.11 = 22.79;
 *   PIS 22.79 × 0.65 % = 0.148135 → 0.15; COFINS 22.79 × 3 % = 0.6837 → 0.68; total 3.11 + 0.15 + 0.68 = 3.94.
 */
describe('POST /api/enrich-order?dryRun=true of a re-send (e2e)', () => {
  let f: FulfillmentApp;
  const steps = fulfillmentSteps(() => f);

  beforeAll(async () => {
    f = await bootFulfillmentApp();
  });
  afterAll(async () => {
    await f.t.close();
  });

  const burgerOrder = (orderId: string, storeId: string, extra: Record<string, unknown> = {}): Schemas['OrderPayloadDto'] => ({
    orderId,
    store: { id: storeId },
    order: { products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
    ...extra,
  });
  const enrich = (token: string, body: Schemas['OrderPayloadDto'], dryRun = false) =>
    f.t.apiAs(token).POST('/api/enrich-order', { body, params: { query: dryRun ? { dryRun: true } : {} } });
  const figures = (answer: Schemas['EnrichOrderResponseDto']) => ({
    store: answer.payload.store.id,
    fiscalGroupId: answer.payload.taxSummary.fiscalGroupId,
    totals: answer.payload.taxSummary.totals,
    taxInstant: answer.payload.taxSummary.fiscalDocument?.taxInstant,
  });

  it('of a transferred order previews the taxes of the store it is now in, as the re-send then stores them', async () => {
    const orderId = unique('dry-moved');
    await steps.enrichedOrder(orderId, PINHEIROS);
    ok(
      await f.t.apiAs(f.orders).PUT('/api/api/order/transfer', {
        body: { order: orderId, from_store: PINHEIROS, to_store: MOEMA, processed_by: 'Carla', transfer_reason: 'Oven out of order' },
      }),
      200,
    );
    const stored = await steps.row(orderId);

    // The POS re-sends the order as it first sent it, under Pinheiros.
    const dry = ok(await enrich(f.orders, burgerOrder(orderId, PINHEIROS), true), 200);
    expect(dry.orderDbId).toBeNull();
    expect(figures(dry)).toMatchObject({
      store: MOEMA,
      fiscalGroupId: f.groupB,
      totals: { base: 25.9, ICMS_value: 3.11, PIS_value: 0.15, COFINS_value: 0.68, total_tax: 3.94 },
    });
    expect(await steps.row(orderId)).toEqual(stored);

    const real = ok(await enrich(f.orders, burgerOrder(orderId, PINHEIROS)), 200);
    expect(figures(dry)).toEqual(figures(real));
    expect((await steps.row(orderId)).storeId).toBe(MOEMA);
  });

  it('keeps the tax instant of the first receipt', async () => {
    const orderId = unique('dry-instant');
    const firstInstant = new Date(Date.now() - 60 * 60 * 1000).toISOString(); // within the 24 hours before receipt
    const first = ok(await enrich(f.orders, burgerOrder(orderId, PINHEIROS, { createdAt: firstInstant })), 200);
    expect(figures(first).taxInstant).toBe(firstInstant);

    // Without createdAt a new order is taxed at its receipt; a re-send keeps the stored instant.
    const dry = ok(await enrich(f.orders, burgerOrder(orderId, PINHEIROS), true), 200);
    expect(figures(dry)).toEqual(figures(first));
    const real = ok(await enrich(f.orders, burgerOrder(orderId, PINHEIROS)), 200);
    expect(figures(real)).toEqual(figures(first));
  });

  it('computes a store-limited client’s dry run without reading the stored order: another store’s orderId answers as an unknown one', async () => {
    const created = ok(
      await f.t.api.POST('/api/admin/clients', { body: { name: `POS ${unique('moema')}`, scopes: ['orders'], stores: [MOEMA] } }),
      201,
    );
    const login = { client_id: created.clientId, client_secret: created.secret, grant_type: 'client_credentials' as const };
    const moemaPos = ok(await f.t.apiAs().POST('/api/authentication/login', { body: login }), 200).accessToken;
    const orderId = unique('dry-other');
    await steps.enrichedOrder(orderId, PINHEIROS);
    const stored = await steps.row(orderId);
    const unknownId = unique('dry-unknown');

    const ofStored = ok(await enrich(moemaPos, burgerOrder(orderId, MOEMA), true), 200);
    const ofUnknown = ok(await enrich(moemaPos, burgerOrder(unknownId, MOEMA), true), 200);
    // Moema's group B: total tax 3.94 (worked out above), for both.
    expect(ofStored.payload.taxSummary.totals.total_tax).toBe(3.94);
    // Identical apart from the id and the instants of the two calls: nothing tells that the first orderId is stored
    // under another store (whose tax instant a re-send would have taken).
    const comparable = (answer: Schemas['EnrichOrderResponseDto'], id: string) =>
      JSON.parse(
        JSON.stringify(answer)
          .split(id)
          .join('<orderId>')
          .replace(/"(calculatedAt|taxInstant)":"[^"]*"/g, '"$1":"<now>"'),
      ) as unknown;
    expect(comparable(ofStored, orderId)).toEqual(comparable(ofUnknown, unknownId));
    // The real re-send is still refused, and nothing was stored by either dry run.
    expect(failed(await enrich(moemaPos, burgerOrder(orderId, MOEMA)), 403).error).toBe('STORE_NOT_ALLOWED');
    expect(await steps.row(orderId)).toEqual(stored);
    expect(await f.t.dataSource.getRepository(OrderEntity).countBy({ orderId: unknownId })).toBe(0);
  });
});
