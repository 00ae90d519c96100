import { FiscalGroupsModule } from '../../src/fiscal-groups/fiscal-groups.module.js';
import { ProductCategoriesModule } from '../../src/product-categories/product-categories.module.js';
import type { Actor } from '../../src/common/actor.js';
import type { TransferRequestDto } from '../../src/fulfillment/dto/fulfillment.dto.js';
import { FulfillmentModule } from '../../src/fulfillment/fulfillment.module.js';
import { FulfillmentService } from '../../src/fulfillment/fulfillment.service.js';
import { OrderTransferEntity } from '../../src/fulfillment/order-transfer.entity.js';
import { OrderEntity, OrderStatusHistoryEntity } from '../../src/orders/order.entity.js';
import {
  configuredStore,
  fiscalGroup,
  order,
  orderPayload,
  productCategory,
  taxMatrixWith,
  type OrderOverrides,
} from '../factories/index.js';
import { StoreEntity } from '../../src/channels/store.entity.js';
import { bootIntegration, type IntegrationContext, FISCAL_LOOKUP_MODULES, withoutFiscalNotifications } from '../support/integration.js';
import { FiscalLookupService } from '../../src/fiscal-lookup/fiscal-lookup.service.js';
import { AUDIT } from '../support/audit.js';
import { AuditModule } from '../../src/audit/audit.module.js';

const STORE_NONE_2 = '2902';
const STORE_NONE_3 = '2903';

const POS: Actor = { clientId: '7002', via: 'PUT /api/order/transfer' };

describe('Fulfillment: transfer (integration)', () => {
  let db: IntegrationContext;
  let service: FulfillmentService;
  let groupA: string;
  let groupB: string;

  const stored = (orderId: string) => db.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
  const transfersOf = (orderDbId: string) => db.dataSource.getRepository(OrderTransferEntity).findBy({ orderDbId });
  const transfer = (given: Partial<TransferRequestDto>, extra: Record<string, unknown> | null = null) => {
    const fields = { processed_by: 'Carla Mendes', transfer_reason: 'Oven out of order', ...given } as TransferRequestDto;
    return service.transfer({ fields, extra, body: { ...fields, ...extra } }, POS, AUDIT);
  };
  /** An order taxed by fiscal group A on store-a1: its enriched payload stands for A's taxes (a marker, not figures). */
  const taxedByA = (orderId: string, overrides: OrderOverrides = {}) =>
    order(db.dataSource, {
      orderId,
      storeId: 'store-a1',
      status: 'ACCEPTED',
      payload: orderPayload(orderId, 'store-a1', { customer: { name: 'Ana' } }),
      enrichedPayload: { ...orderPayload(orderId, 'store-a1'), taxSummary: { fiscalGroupId: groupA, marker: 'taxes of A' } },
      fiscalGroupId: groupA,
      ...overrides,
    });

  beforeAll(async () => {
    db = await bootIntegration({
      imports: [AuditModule, FulfillmentModule, ...FISCAL_LOOKUP_MODULES, FiscalGroupsModule, ProductCategoriesModule],
      entities: [StoreEntity],
    });
    service = db.get(FulfillmentService);
    groupA = (await fiscalGroup(db.dataSource, { stores: ['store-a1', 'store-a2'], taxMatrix: taxMatrixWith(18) })).id;
    groupB = (await fiscalGroup(db.dataSource, { stores: ['store-b1'], taxMatrix: taxMatrixWith(12) })).id;
    await productCategory(db.dataSource, { productId: 'product-burger', ncm: '21069090' });
    // Stores of the channel configuration that no fiscal group holds: a transfer goes only to a known store.
    for (const storeId of [STORE_NONE_2, STORE_NONE_3]) await configuredStore(db.dataSource, { storeId });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('re-taxes the order with the target store’s other fiscal group, keeps its status, and records the transfer', async () => {
    const before = await taxedByA('T-regroup');
    const address = { street: 'Av. Ibirapuera', number: '2927' };
    const result = await transfer(
      { order: 'T-regroup', from_store: 'store-a1', to_store: 'store-b1', shipping_address: address },
      { partner: 'x' },
    );
    expect(result).toEqual({
      message: `Order T-regroup transferred from store "store-a1" to store "store-b1"; taxes recalculated with fiscal group ${groupB}`,
      status: 'success',
      orderStatus: 'ACCEPTED',
    });

    const after = await stored('T-regroup');
    expect(after).toMatchObject({ id: before.id, storeId: 'store-b1', fiscalGroupId: groupB, status: 'ACCEPTED', lastChangedBy: '7002' });
    expect(after.transferredAt).toBeInstanceOf(Date);
    expect(after.payload).toMatchObject({ store: { id: 'store-b1' }, customer: { name: 'Ana' } });
    // Group B (12 %): ICMS 25.90 × 12 % = 3.108 → 3.11; PIS/COFINS base 25.90 − 3.11 = 22.79;
    // PIS 22.79 × 0.65 % = 0.148135 → 0.15; COFINS 22.79 × 3 % = 0.6837 → 0.68; total 3.11 + 0.15 + 0.68 = 3.94
    const enriched = after.enrichedPayload as { order: { products: Array<{ tax: unknown }> }; taxSummary: unknown; store: unknown };
    expect(enriched.store).toMatchObject({ id: 'store-b1' });
    expect(enriched.order.products[0]!.tax).toMatchObject({
      ICMS_rate: 12,
      ICMS_value: 3.11,
      PIS_base: 22.79,
      PIS_value: 0.15,
      COFINS_value: 0.68,
      total_tax: 3.94,
    });
    expect(enriched.taxSummary).toMatchObject({ fiscalGroupId: groupB, totals: { total_tax: 3.94 } });

    expect(await transfersOf(before.id)).toEqual([
      expect.objectContaining({
        fromStore: 'store-a1',
        toStore: 'store-b1',
        fromStoreId: 'store-a1',
        toStoreId: 'store-b1',
        processedBy: 'Carla Mendes',
        transferReason: 'Oven out of order',
        shippingAddress: address,
        refiscalized: true,
        fromFiscalGroupId: groupA,
        toFiscalGroupId: groupB,
        clientId: '7002',
        extra: { partner: 'x' },
      }),
    ]);
  });

  it('re-taxes by the revision the table has in force at the order’s tax instant, even one its cache has not heard of', async () => {
    const target = await fiscalGroup(db.dataSource, { stores: ['store-c1'], taxMatrix: taxMatrixWith(12) });
    await db.get(FiscalLookupService).groupAt('store-c1', new Date()); // cached: revision 1, at 12 %
    await withoutFiscalNotifications(db.dataSource, async () => {
      // A change by hand in SQL with the notifications off: only the revision table knows of revision 2, at 18 %.
      await db.dataSource.query('UPDATE fiscal_group SET tax_matrix = $1 WHERE id = $2', [JSON.stringify(taxMatrixWith(18)), target.id]);
      const [second] = (await db.dataSource.query(
        'SELECT revision, effective_from FROM fiscal_group_revision WHERE fiscal_group_id = $1 ORDER BY revision DESC LIMIT 1',
        [target.id],
      )) as Array<{ revision: number; effective_from: Date }>;
      expect(second!.revision).toBe(2);
      await taxedByA('T-stale', { taxInstant: new Date(second!.effective_from.getTime() + 1000) });
      await transfer({ order: 'T-stale', from_store: 'store-a1', to_store: 'store-c1' });
    });
    const after = await stored('T-stale');
    expect(after).toMatchObject({ fiscalGroupId: target.id, fiscalGroupRevision: 2 });
    // Revision 2 (18 %): ICMS 25.90 × 18 % = 4.662 → 4.66.
    const products = (after.enrichedPayload as { order: { products: Array<{ tax: unknown }> } }).order.products;
    expect(products[0]!.tax).toMatchObject({ ICMS_rate: 18, ICMS_value: 4.66 });
  });

  it('keeps the taxes when the target store has the same fiscal group (ids as numbers are compared as text)', async () => {
    await fiscalGroup(db.dataSource, { stores: ['1201', '1203'] }).then((group) =>
      taxedByA('T-same', { storeId: '1201', fiscalGroupId: group.id, enrichedPayload: { store: { id: '1201' }, marker: 'kept' } }),
    );
    const result = await transfer({ order: 'T-same', from_store: 1201, to_store: 1203 });
    expect(result.message).toBe('Order T-same transferred from store "1201" to store "1203"; same fiscal group, taxes unchanged');
    expect((await stored('T-same')).enrichedPayload).toEqual({ store: { id: '1203' }, marker: 'kept' });
  });

  it('an untaxed order moves to a store without a group as it is; reaching a group it is taxed and ENRICHED', async () => {
    const before = await order(db.dataSource, { orderId: 'T-untaxed', storeId: 'store-none-1', status: 'ENRICHMENT_FAILED' });
    expect((await transfer({ order: 'T-untaxed', from_store: 'store-none-1', to_store: STORE_NONE_2 })).message).toBe(
      `Order T-untaxed transferred from store "store-none-1" to store "${STORE_NONE_2}"; the store has no fiscal group and the order carries no taxes`,
    );
    expect(await stored('T-untaxed')).toMatchObject({ storeId: STORE_NONE_2, status: 'ENRICHMENT_FAILED', enrichedPayload: null });

    await transfer({ order: 'T-untaxed', from_store: STORE_NONE_2, to_store: 'store-a2' });
    const after = await stored('T-untaxed');
    // Group A (18 %): ICMS 25.90 × 18 % = 4.662 → 4.66; base 25.90 − 4.66 = 21.24; PIS 0.13806 → 0.14; COFINS 0.6372 → 0.64; total 5.44
    expect(after).toMatchObject({ storeId: 'store-a2', status: 'ENRICHED', fiscalGroupId: groupA });
    expect(after.enrichedPayload).toMatchObject({ taxSummary: { totals: { total_tax: 5.44 } } });
    const history = await db.dataSource
      .getRepository(OrderStatusHistoryEntity)
      .find({ where: { orderDbId: before.id }, order: { id: 'ASC' } });
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.via])).toEqual([
      [null, 'ENRICHMENT_FAILED', 'integration factory'],
      ['ENRICHMENT_FAILED', 'ENRICHED', POS.via],
    ]);
    expect((await transfersOf(before.id)).map((t) => t.refiscalized)).toEqual([false, true]);
  });

  it.each<[string, OrderOverrides, Partial<TransferRequestDto>, { status: number; message: string }]>([
    [
      'a taxed order to a store without a fiscal group',
      {},
      { from_store: 'store-a1', to_store: STORE_NONE_3 },
      {
        status: 409,
        message:
          'Store "2903" has no fiscal group: order T-refused carries taxes of fiscal group GROUP_A and cannot move there until a fiscal group holds the store',
      },
    ],
    [
      'a store neither configured nor held by a fiscal group',
      {},
      { from_store: 'store-a1', to_store: 'store-nowhere' },
      {
        status: 409,
        message:
          'Store "store-nowhere" is unknown: it is neither a store of the channel configuration nor one a fiscal group holds; order T-refused was not transferred',
      },
    ],
    [
      'from_store that is not the order’s store',
      {},
      { from_store: 'store-b1', to_store: 'store-a2' },
      { status: 409, message: 'from_store "store-b1" is not the current store of order T-refused (store "store-a1")' },
    ],
    [
      'an order in a final status',
      { status: 'DELIVERED' },
      { from_store: 'store-a1', to_store: 'store-a2' },
      { status: 409, message: 'Order T-refused is DELIVERED, a final status: it cannot be transferred' },
    ],
    [
      'to_store equal to from_store',
      {},
      { from_store: 'store-a1', to_store: 'store-a1' },
      { status: 400, message: 'to_store must differ from from_store' },
    ],
  ])('refuses %s, changing nothing', async (_case, overrides, fields, error) => {
    await db.dataSource.getRepository(OrderEntity).delete({ orderId: 'T-refused' });
    const before = await taxedByA('T-refused', overrides);
    await expect(transfer({ order: 'T-refused', ...fields })).rejects.toMatchObject({
      status: error.status,
      message: error.message.replace('GROUP_A', groupA),
    });
    const after = await stored('T-refused');
    expect(after).toMatchObject({
      storeId: 'store-a1',
      fiscalGroupId: groupA,
      enrichedPayload: before.enrichedPayload,
      transferredAt: null,
    });
    expect(await transfersOf(before.id)).toEqual([]);
  });

  it('answers 404 for an unknown order', async () => {
    await expect(transfer({ order: 'T-missing', from_store: 'store-a1', to_store: 'store-a2' })).rejects.toMatchObject({ status: 404 });
  });
});
