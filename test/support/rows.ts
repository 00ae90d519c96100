import { DataSource, type DataSourceOptions, type EntityTarget, type FindOptionsOrder, type FindOptionsWhere } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options.js';
import { OrderDispatchEntity } from '../../src/fulfillment/order-dispatch.entity.js';
import { OrderTrackingEntity } from '../../src/fulfillment/order-tracking.entity.js';
import { OrderTransferEntity } from '../../src/fulfillment/order-transfer.entity.js';
import { OrderEntity, OrderStatusHistoryEntity } from '../../src/orders/order.entity.js';
import { WebhookDeliveryEntity } from '../../src/webhooks/webhook-delivery.entity.js';
import { WebhookRetryJobEntity } from '../../src/webhooks/webhook-retry-job.entity.js';
import type { Schemas } from './api.js';

/**
 * Reads of stored rows through the application's entities, for what a test checks after an API call:
 * a renamed column fails compilation here, never a test at run time. Raw SQL stays for tests about the
 * database itself (triggers, plans, locks, faults), each saying why.
 */

/**
 * A DataSource with `entities` on the database of services that run in other processes (no app is booted in the
 * test's own), for the rows they wrote; `destroy()` it after.
 */
export function rowReader(url: string, entities: DataSourceOptions['entities']): Promise<DataSource> {
  return new DataSource(dataSourceOptions({ url, poolSize: 2, applicationName: 'test-row-reader' }, entities)).initialize();
}

/** The stored order, or null. */
export function orderRow(db: DataSource, orderId: string): Promise<OrderEntity | null> {
  return db.getRepository(OrderEntity).findOneBy({ orderId });
}

/** The stored order, failing the test when there is none. */
export async function existingOrderRow(db: DataSource, orderId: string): Promise<OrderEntity> {
  const row = await orderRow(db, orderId);
  if (!row) throw new Error(`no stored order ${orderId}`);
  return row;
}

/** Rows of a table whose `orderDbId` points at the order, oldest (lowest id) first. */
async function rowsOfOrder<Row extends { id: string; orderDbId: string }>(
  db: DataSource,
  entity: EntityTarget<Row>,
  orderId: string,
): Promise<Row[]> {
  const order = await orderRow(db, orderId);
  if (!order) return [];
  const where = { orderDbId: order.id } as FindOptionsWhere<Row>;
  return db.getRepository(entity).find({ where, order: { id: 'ASC' } as FindOptionsOrder<Row> });
}

/** The order's status changes as the trigger wrote them, oldest first. */
export const statusHistory = (db: DataSource, orderId: string) => rowsOfOrder(db, OrderStatusHistoryEntity, orderId);
/** The order's delivery log (every webhook attempt), in the order written. */
export const deliveryRows = (db: DataSource, orderId: string) => rowsOfOrder(db, WebhookDeliveryEntity, orderId);
export const trackingRows = (db: DataSource, orderId: string) => rowsOfOrder(db, OrderTrackingEntity, orderId);
export const transferRows = (db: DataSource, orderId: string) => rowsOfOrder(db, OrderTransferEntity, orderId);
export const dispatchRows = (db: DataSource, orderId: string) => rowsOfOrder(db, OrderDispatchEntity, orderId);

/** The order's pending retry job (the queue holds one per order), or null; by the order's database id. */
export function retryJobOf(db: DataSource, orderDbId: string): Promise<WebhookRetryJobEntity | null> {
  return db.getRepository(WebhookRetryJobEntity).findOneBy({ orderDbId });
}

/** The jobs in the retry queue, of every order. */
export function retryJobCount(db: DataSource): Promise<number> {
  return db.getRepository(WebhookRetryJobEntity).count();
}

/** The delay the job's last write gave it: `run_at − updated_at`, both set by that one statement from `now()`. */
export function scheduledDelayMs(job: WebhookRetryJobEntity): number {
  return job.runAt.getTime() - job.updatedAt.getTime();
}

/** Makes the order's job due now, on the database's clock (the worker's claim compares `run_at` with `now()`). */
export async function makeRetryJobDue(db: DataSource, orderDbId: string): Promise<void> {
  await db.getRepository(WebhookRetryJobEntity).update({ orderDbId }, { runAt: () => 'now()' });
}

/** The stored enriched payload in the shape the API documents for it (the column is plain jsonb). */
export function enrichedPayloadOf(row: OrderEntity): Schemas['EnrichedOrderPayloadDto'] {
  if (!row.enrichedPayload) throw new Error(`order ${row.orderId} has no enriched payload`);
  return row.enrichedPayload as unknown as Schemas['EnrichedOrderPayloadDto'];
}
