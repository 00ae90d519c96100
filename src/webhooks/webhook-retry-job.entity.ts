import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import { OrderEntity } from '../orders/order.entity.js';

/** The retry queue: one pending job per order, shared by every instance through `FOR UPDATE SKIP LOCKED`. */
@Entity({ name: 'webhook_retry_job' })
@Unique('uq_webhook_retry_job_order', ['orderDbId'])
export class WebhookRetryJobEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  /** The order; the job goes with it (ON DELETE CASCADE). */
  @Column({ type: 'uuid' })
  @ForeignKey(() => OrderEntity, { name: 'webhook_retry_job_order_db_id_fkey', onDelete: 'CASCADE' })
  orderDbId: string;

  @Column({ type: 'varchar', length: 64 })
  webhookId: string;

  /**
   * Null: the retry sends the order's stored enriched payload, as long as the order's `webhook_id` is still this job's.
   * Text (a job written before the order carried its id): the enriched payload to send, as these bytes.
   */
  @Column({ type: 'text', nullable: true })
  body: string | null;

  @Column({ type: 'integer', default: 0 })
  retriesDone: number;

  @Column({ type: 'timestamptz' })
  @Index('ix_webhook_retry_job_run_at')
  runAt: Date;

  /** Set while an instance holds the job (its claim), null while it waits. */
  @Column({ type: 'uuid', nullable: true })
  lease: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
