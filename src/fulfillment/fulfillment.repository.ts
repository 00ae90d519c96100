import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { sql, SqlRunner } from '../database/sql-runner.js';
import { OrderDetailSections } from '../orders/order-detail-sections.js';
import { isoUtc } from '../database/sql-json.js';
import { OrderDispatchEntity } from './order-dispatch.entity.js';
import { OrderTrackingEntity } from './order-tracking.entity.js';
import { OrderTransferEntity } from './order-transfer.entity.js';

// The order detail's sections of this module, each a JSON array built by PostgreSQL with the response's field names.
const TRACKING = sql(
  'order-detail-tracking',
  `SELECT coalesce(jsonb_agg(jsonb_build_object(
       'status', status, 'orderStatusApplied', order_status_applied, 'trackurl', trackurl, 'trackingNumber', tracking_number,
       'deliveryConfirmationCode', delivery_confirmation_code, 'shippingCoordinates', shipping_coordinates,
       'at', ${isoUtc('created_at')}, 'clientId', client_id, 'extra', extra
     ) ORDER BY created_at, id), '[]') AS items
   FROM order_tracking WHERE order_db_id = $1`,
);
const TRANSFERS = sql(
  'order-detail-transfers',
  `SELECT coalesce(jsonb_agg(jsonb_build_object(
       'fromStore', from_store, 'toStore', to_store, 'fromStoreId', from_store_id, 'toStoreId', to_store_id,
       'processedBy', processed_by, 'transferReason', transfer_reason, 'shippingAddress', shipping_address,
       'refiscalized', refiscalized, 'fromFiscalGroupId', from_fiscal_group_id, 'toFiscalGroupId', to_fiscal_group_id,
       'at', ${isoUtc('created_at')}, 'clientId', client_id, 'extra', extra
     ) ORDER BY created_at, id), '[]') AS items
   FROM order_transfer WHERE order_db_id = $1`,
);
const DISPATCHES = sql(
  'order-detail-dispatches',
  `SELECT coalesce(jsonb_agg(jsonb_build_object(
       'idTransaccion', id_transaccion, 'at', ${isoUtc('created_at')}, 'clientId', client_id, 'extra', extra
     ) ORDER BY created_at, id), '[]') AS items
   FROM order_dispatch WHERE order_db_id = $1`,
);

export type NewTracking = Omit<OrderTrackingEntity, 'id' | 'createdAt'>;
export type NewTransfer = Omit<OrderTransferEntity, 'id' | 'createdAt'>;
export type NewDispatch = Omit<OrderDispatchEntity, 'id' | 'createdAt'>;

/** TypeORM's deep-partial type does not accept the jsonb columns' `Record<string, unknown>`: the row is whole, as typed. */
function asRow<T>(row: Omit<T, 'id' | 'createdAt'>): QueryDeepPartialEntity<T> {
  return row as unknown as QueryDeepPartialEntity<T>;
}

/** The owner of `order_tracking`, `order_transfer` and `order_dispatch`, and of their sections in the order detail. */
@Injectable()
export class FulfillmentRepository implements OnModuleInit {
  constructor(
    private readonly db: SqlRunner,
    private readonly detail: OrderDetailSections,
  ) {}

  onModuleInit(): void {
    this.detail.register({ key: 'tracking', read: (orderDbId) => this.items(TRACKING, orderDbId) });
    this.detail.register({ key: 'transfers', read: (orderDbId) => this.items(TRANSFERS, orderDbId) });
    this.detail.register({ key: 'dispatches', read: (orderDbId) => this.items(DISPATCHES, orderDbId) });
  }

  async addTracking(manager: EntityManager, tracking: NewTracking): Promise<void> {
    await manager.insert(OrderTrackingEntity, asRow(tracking));
  }

  async addTransfer(manager: EntityManager, transfer: NewTransfer): Promise<void> {
    await manager.insert(OrderTransferEntity, asRow(transfer));
  }

  /** A repeat of the same transaction id (a point-of-sale retry) is stored once. */
  async addDispatch(manager: EntityManager, dispatch: NewDispatch): Promise<void> {
    await manager.createQueryBuilder().insert().into(OrderDispatchEntity).values(asRow(dispatch)).orIgnore().execute();
  }

  private async items(statement: typeof TRACKING, orderDbId: string): Promise<unknown[]> {
    const row = await this.db.row<{ items: unknown[] }>(statement, [orderDbId]);
    return row?.items ?? [];
  }
}
