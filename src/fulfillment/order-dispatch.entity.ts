import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One `POST /api/order/dispatched` of a pickup order; a repeat of the same `id_transaccion` is stored once. */
@Entity({ name: 'order_dispatch' })
export class OrderDispatchEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  @Column({ type: 'uuid' })
  orderDbId: string;

  @Column({ type: 'varchar', length: 100 })
  idTransaccion: string;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column({ type: 'varchar', length: 20, nullable: true })
  clientId: string | null;

  /** The request body's properties beyond the documented ones, kept as sent (contract §8); null when there were none. */
  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;
}
