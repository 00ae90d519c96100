import { OrderEntity } from '../../src/orders/order.entity.js';
import { insertRow, managerOf, nextNumber, type Db } from './sequence.js';

/** Columns a test may set; `payloadBytes` is the trigger's. */
export type OrderOverrides = Partial<Omit<OrderEntity, 'payloadBytes'>>;

/**
 * The platform payload of a one-line order: one `product-burger` at 25.90 on `storeId`, paid by PIX.
 * The shape the enrichment reads (store.id, order.products[].productId and price.totalPrice.total).
 */
export function orderPayload(orderId: string, storeId: string | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    orderId,
    source: 'integration',
    ...(storeId === null ? {} : { store: { id: storeId } }),
    order: {
      type: 'DELIVERY',
      products: [{ productId: 'product-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }],
    },
    payments: [{ method: 'PIX', value: 25.9 }],
    ...extra,
  };
}

/**
 * An order row, inserted through the entity (the status-history trigger writes its first
 * history row, as for any insert). Defaults: `order-<n>` on store `store-<n>`, source
 * `integration`, RECEIVED, the payload of `orderPayload()`, no enriched payload, no attempts.
 * `createdAt` may be set to place the order in time (the list's and infoPayments' windows).
 */
export async function order(db: Db, overrides: OrderOverrides = {}): Promise<OrderEntity> {
  const n = nextNumber();
  const manager = managerOf(db);
  const orderId = overrides.orderId ?? `order-${n}`;
  const storeId = overrides.storeId === undefined ? `store-${n}` : overrides.storeId;
  const row = manager.create(OrderEntity, {
    orderId,
    status: 'RECEIVED',
    payload: orderPayload(orderId, storeId),
    enrichedPayload: null,
    webhookAttempts: 0,
    source: 'integration',
    webhookLastResponse: null,
    fiscalGroupId: null,
    lastChangedBy: null,
    lastChangedVia: 'integration factory',
    transferredAt: null,
    ...overrides,
    storeId,
  });
  await insertRow(manager, OrderEntity, row);
  return manager.findOneByOrFail(OrderEntity, { orderId });
}
