import { OrderDispatchEntity } from '../../src/fulfillment/order-dispatch.entity.js';
import { OrderTrackingEntity } from '../../src/fulfillment/order-tracking.entity.js';
import { OrderTransferEntity } from '../../src/fulfillment/order-transfer.entity.js';
import { insertRow, managerOf, nextNumber, type Db } from './sequence.js';

type Of<T extends { orderDbId: string }> = Partial<Omit<T, 'id'>> & Pick<T, 'orderDbId'>;

/** A tracking record of an order. Defaults: carrier status `EM_ROTA` (not an order status, so not applied), tracking number `TRK<n>`. */
export async function orderTracking(db: Db, overrides: Of<OrderTrackingEntity>): Promise<OrderTrackingEntity> {
  const n = nextNumber();
  const manager = managerOf(db);
  const row = manager.create(OrderTrackingEntity, {
    status: 'EM_ROTA',
    orderStatusApplied: false,
    trackurl: null,
    trackingNumber: `TRK${n}`,
    deliveryConfirmationCode: null,
    shippingCoordinates: [],
    clientId: null,
    extra: null,
    ...overrides,
  });
  await insertRow(manager, OrderTrackingEntity, row);
  return manager.findOneByOrFail(OrderTrackingEntity, { id: row.id });
}

/** A transfer record of an order. Defaults: from `store-a` to `store-b` (as ids), not re-fiscalized. */
export async function orderTransfer(db: Db, overrides: Of<OrderTransferEntity>): Promise<OrderTransferEntity> {
  const manager = managerOf(db);
  const row = manager.create(OrderTransferEntity, {
    fromStore: 'store-a',
    toStore: 'store-b',
    fromStoreId: 'store-a',
    toStoreId: 'store-b',
    processedBy: 'Carla Mendes',
    transferReason: 'Oven out of order',
    shippingAddress: null,
    refiscalized: false,
    fromFiscalGroupId: null,
    toFiscalGroupId: null,
    clientId: null,
    extra: null,
    ...overrides,
  });
  await insertRow(manager, OrderTransferEntity, row);
  return manager.findOneByOrFail(OrderTransferEntity, { id: row.id });
}

/** A dispatch record of a pickup order. Default transaction id `tx-<n>`. */
export async function orderDispatch(db: Db, overrides: Of<OrderDispatchEntity>): Promise<OrderDispatchEntity> {
  const n = nextNumber();
  const manager = managerOf(db);
  const row = manager.create(OrderDispatchEntity, { idTransaccion: `tx-${n}`, clientId: null, extra: null, ...overrides });
  await insertRow(manager, OrderDispatchEntity, row);
  return manager.findOneByOrFail(OrderDispatchEntity, { id: row.id });
}
