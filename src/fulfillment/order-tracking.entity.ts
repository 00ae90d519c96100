import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { OrderEntity } from '../orders/order.entity.js';

export interface ShippingCoordinate {
  latitude: string | number;
  longitude: string | number;
}

/** One `POST /api/order/tracking` call; the newest row (highest id) is the order's current tracking. */
@Entity({ name: 'order_tracking' })
@Index('ix_order_tracking_order', ['orderDbId', 'id'])
export class OrderTrackingEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  /** The order; this row goes with it (ON DELETE CASCADE). */
  @Column({ type: 'uuid' })
  @ForeignKey(() => OrderEntity, { name: 'order_tracking_order_db_id_fkey', onDelete: 'CASCADE' })
  orderDbId: string;

  /** As sent: an order status value, or the carrier's own status. */
  @Column({ type: 'varchar', length: 100 })
  status: string;

  /** True when `status` was an order status value and was applied to the order. */
  @Column({ type: 'boolean', default: false })
  orderStatusApplied: boolean;

  @Column({ type: 'text', nullable: true })
  trackurl: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  trackingNumber: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  deliveryConfirmationCode: string | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  shippingCoordinates: ShippingCoordinate[];

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column({ type: 'varchar', length: 20, nullable: true })
  clientId: string | null;

  /** The request body's properties beyond the documented ones, kept as sent; null when there were none. */
  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;
}
