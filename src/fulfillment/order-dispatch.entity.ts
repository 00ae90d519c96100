import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { OrderEntity } from '../orders/order.entity.js';

/** One `POST /api/order/dispatched` of a pickup order; a repeat of the same `id_transaccion` is stored once. */
@Entity({ name: 'order_dispatch' })
@Unique('uq_order_dispatch_transaction', ['orderDbId', 'idTransaccion'])
export class OrderDispatchEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  /** The order; this row goes with it (ON DELETE CASCADE). */
  @Column({ type: 'uuid' })
  @ForeignKey(() => OrderEntity, { name: 'order_dispatch_order_db_id_fkey', onDelete: 'CASCADE' })
  orderDbId: string;

  @Column({ type: 'varchar', length: 100 })
  idTransaccion: string;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column({ type: 'varchar', length: 20, nullable: true })
  clientId: string | null;

  /** The request body's properties beyond the documented ones, kept as sent; null when there were none. */
  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;
}
