import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { OrderEntity } from '../orders/order.entity.js';

/** One accepted `PUT /api/order/transfer`. */
@Entity({ name: 'order_transfer' })
@Index('ix_order_transfer_order', ['orderDbId', 'id'])
export class OrderTransferEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  /** The order; this row goes with it (ON DELETE CASCADE). */
  @Column({ type: 'uuid' })
  @ForeignKey(() => OrderEntity, { name: 'order_transfer_order_db_id_fkey', onDelete: 'CASCADE' })
  orderDbId: string;

  /** As sent (a store id or a store code). */
  @Column({ type: 'varchar', length: 100 })
  fromStore: string;

  /** As sent (a store id or a store code). */
  @Column({ type: 'varchar', length: 100 })
  toStore: string;

  /** The order's store id before the transfer. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  fromStoreId: string | null;

  /** The order's store id after the transfer (`to_store` resolved from a store code when it is one). */
  @Column({ type: 'varchar', length: 100 })
  toStoreId: string;

  @Column({ type: 'varchar', length: 200 })
  processedBy: string;

  @Column({ type: 'varchar', length: 1000 })
  transferReason: string;

  @Column({ type: 'jsonb', nullable: true })
  shippingAddress: Record<string, unknown> | string | null;

  /** Whether the order was re-enriched with the target store's fiscal group. */
  @Column({ type: 'boolean' })
  refiscalized: boolean;

  @Column({ type: 'uuid', nullable: true })
  fromFiscalGroupId: string | null;

  @Column({ type: 'uuid', nullable: true })
  toFiscalGroupId: string | null;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column({ type: 'varchar', length: 20, nullable: true })
  clientId: string | null;

  /** The request body's properties beyond the documented ones, kept as sent; null when there were none. */
  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;
}
