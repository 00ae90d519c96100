import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { sql, SqlRunner } from '../database/sql-runner.js';
import { detailSection, type OrderDetailSection, type OrderDetailSectionSource } from '../orders/order-detail-sections.js';
import { isoUtc } from '../database/sql-json.js';
import type {
  OrderDispatchEntryDto,
  OrderTrackingEntryDto,
  OrderTransferEntryDto,
  TrackedCoordinateDto,
} from '../orders/dto/persisted-order.dto.js';
import { OrderDispatchEntity } from './order-dispatch.entity.js';
import { OrderTrackingEntity } from './order-tracking.entity.js';
import { OrderTransferEntity } from './order-transfer.entity.js';

interface TrackingRow {
  status: string;
  order_status_applied: boolean;
  trackurl: string | null;
  tracking_number: string | null;
  delivery_confirmation_code: string | null;
  shipping_coordinates: TrackedCoordinateDto[];
  at: string;
  client_id: string | null;
  extra: Record<string, unknown> | null;
}
interface TransferRow {
  from_store: string;
  to_store: string;
  from_store_id: string | null;
  to_store_id: string;
  processed_by: string;
  transfer_reason: string;
  shipping_address: Record<string, unknown> | null;
  refiscalized: boolean;
  from_fiscal_group_id: string | null;
  to_fiscal_group_id: string | null;
  at: string;
  client_id: string | null;
  extra: Record<string, unknown> | null;
}
interface DispatchRow {
  id_transaccion: string;
  at: string;
  client_id: string | null;
  extra: Record<string, unknown> | null;
}

// The order detail's sections of this module, oldest first.
export const TRACKING = sql<TrackingRow>(
  'order-detail-tracking',
  `SELECT status, order_status_applied, trackurl, tracking_number, delivery_confirmation_code, shipping_coordinates,
     ${isoUtc('created_at')} AS at, client_id, extra
   FROM order_tracking WHERE order_db_id = $1 ORDER BY created_at, id`,
  {
    status: true,
    order_status_applied: true,
    trackurl: true,
    tracking_number: true,
    delivery_confirmation_code: true,
    shipping_coordinates: true,
    at: true,
    client_id: true,
    extra: true,
  },
);
export const TRANSFERS = sql<TransferRow>(
  'order-detail-transfers',
  `SELECT from_store, to_store, from_store_id, to_store_id, processed_by, transfer_reason, shipping_address, refiscalized,
     from_fiscal_group_id, to_fiscal_group_id, ${isoUtc('created_at')} AS at, client_id, extra
   FROM order_transfer WHERE order_db_id = $1 ORDER BY created_at, id`,
  {
    from_store: true,
    to_store: true,
    from_store_id: true,
    to_store_id: true,
    processed_by: true,
    transfer_reason: true,
    shipping_address: true,
    refiscalized: true,
    from_fiscal_group_id: true,
    to_fiscal_group_id: true,
    at: true,
    client_id: true,
    extra: true,
  },
);
export const DISPATCHES = sql<DispatchRow>(
  'order-detail-dispatches',
  `SELECT id_transaccion, ${isoUtc('created_at')} AS at, client_id, extra FROM order_dispatch WHERE order_db_id = $1 ORDER BY created_at, id`,
  { id_transaccion: true, at: true, client_id: true, extra: true },
);

interface TransferLinkRow {
  order_db_id: string;
  from_store_id: string | null;
  to_store_id: string;
  client_id: string | null;
  at: string;
}

/** The transfers of several orders (a payments page), oldest first per order. */
export const TRANSFER_CHAINS = sql<TransferLinkRow>(
  'order-transfer-chains',
  `SELECT order_db_id, from_store_id, to_store_id, client_id, ${isoUtc('created_at')} AS at
   FROM order_transfer WHERE order_db_id = ANY($1::uuid[]) ORDER BY order_db_id, created_at, id`,
  { order_db_id: true, from_store_id: true, to_store_id: true, client_id: true, at: true },
);

/** One link of an order's transfer chain. */
export interface TransferLink {
  fromStoreId: string | null;
  toStoreId: string;
  clientId: string | null;
  at: string;
}

function trackingEntry(row: TrackingRow): OrderTrackingEntryDto {
  return {
    status: row.status,
    orderStatusApplied: row.order_status_applied,
    trackurl: row.trackurl,
    trackingNumber: row.tracking_number,
    deliveryConfirmationCode: row.delivery_confirmation_code,
    shippingCoordinates: row.shipping_coordinates,
    at: row.at,
    clientId: row.client_id,
    extra: row.extra,
  };
}

function transferEntry(row: TransferRow): OrderTransferEntryDto {
  return {
    fromStore: row.from_store,
    toStore: row.to_store,
    fromStoreId: row.from_store_id,
    toStoreId: row.to_store_id,
    processedBy: row.processed_by,
    transferReason: row.transfer_reason,
    shippingAddress: row.shipping_address,
    refiscalized: row.refiscalized,
    fromFiscalGroupId: row.from_fiscal_group_id,
    toFiscalGroupId: row.to_fiscal_group_id,
    at: row.at,
    clientId: row.client_id,
    extra: row.extra,
  };
}

function dispatchEntry(row: DispatchRow): OrderDispatchEntryDto {
  return { idTransaccion: row.id_transaccion, at: row.at, clientId: row.client_id, extra: row.extra };
}

export type NewTracking = Omit<OrderTrackingEntity, 'id' | 'createdAt'>;
export type NewTransfer = Omit<OrderTransferEntity, 'id' | 'createdAt'>;
export type NewDispatch = Omit<OrderDispatchEntity, 'id' | 'createdAt'>;

/** TypeORM's deep-partial type does not accept the jsonb columns' `Record<string, unknown>`: the row is whole, as typed. */
function asRow<T>(row: Omit<T, 'id' | 'createdAt'>): QueryDeepPartialEntity<T> {
  return row as unknown as QueryDeepPartialEntity<T>;
}

/** The owner of `order_tracking`, `order_transfer` and `order_dispatch`, and of their sections in the order detail. */
@Injectable()
export class FulfillmentRepository implements OrderDetailSectionSource {
  constructor(private readonly db: SqlRunner) {}

  /** Its sections of the order detail (bound in OrderDetailSectionsModule). */
  detailSections(): OrderDetailSection[] {
    return [
      detailSection({ key: 'tracking', read: async (orderDbId) => (await this.db.rows(TRACKING, [orderDbId])).map(trackingEntry) }),
      detailSection({ key: 'transfers', read: async (orderDbId) => (await this.db.rows(TRANSFERS, [orderDbId])).map(transferEntry) }),
      detailSection({ key: 'dispatches', read: async (orderDbId) => (await this.db.rows(DISPATCHES, [orderDbId])).map(dispatchEntry) }),
    ];
  }

  /** Each order's transfers, oldest first, by the order's UUID; an order never transferred is absent. One query for them all. */
  async transferChains(orderDbIds: readonly string[]): Promise<Map<string, TransferLink[]>> {
    const chains = new Map<string, TransferLink[]>();
    if (orderDbIds.length === 0) return chains;
    for (const row of await this.db.rows(TRANSFER_CHAINS, [[...orderDbIds]])) {
      const link = { fromStoreId: row.from_store_id, toStoreId: row.to_store_id, clientId: row.client_id, at: row.at };
      const chain = chains.get(row.order_db_id);
      if (chain) chain.push(link);
      else chains.set(row.order_db_id, [link]);
    }
    return chains;
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
}
