import { Check, Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';
import { OrderEntity } from '../orders/order.entity.js';
import type { DeliveryTrigger } from '../orders/dto/persisted-order.dto.js';

/** One attempt to deliver an order to the order webhook (the delivery log, oldest first by `attempt`). */
@Entity({ name: 'webhook_delivery' })
@Check(
  'ck_webhook_delivery_trigger',
  "((trigger)::text = ANY ((ARRAY['forward'::character varying, 'redeliver'::character varying, 'retry'::character varying])::text[]))",
)
@Index('ix_webhook_delivery_order', ['orderDbId', 'attempt'])
/** (attempted_at) INCLUDE (status_code): the retention job finds the oldest rows, the dashboard counts outcomes. */
@Index('ix_webhook_delivery_attempted', { synchronize: false })
export class WebhookDeliveryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  /** The order; this row goes with it (ON DELETE CASCADE). */
  @Column({ type: 'uuid' })
  @ForeignKey(() => OrderEntity, { name: 'webhook_delivery_order_db_id_fkey', onDelete: 'CASCADE' })
  orderDbId: string;

  /** The order's `webhookAttempts` after this attempt: 1, 2, 3... across every trigger. */
  @Column({ type: 'integer' })
  attempt: number;

  @Column({ type: 'varchar', length: 20 })
  trigger: DeliveryTrigger;

  /** Standard Webhooks `webhook-id`: the same for every attempt of one enriched payload. */
  @Column({ type: 'varchar', length: 64 })
  webhookId: string;

  /** The target, without credentials or query string. */
  @Column({ type: 'text' })
  url: string;

  /** The headers sent (the signature, never the secret). */
  @Column({ type: 'jsonb' })
  requestHeaders: Record<string, string>;

  @Column({ type: 'integer', nullable: true })
  statusCode: number | null;

  /** The first 4 KiB of the receiver's answer. */
  @Column({ type: 'text', nullable: true })
  responseBody: string | null;

  @Column({ type: 'integer' })
  durationMs: number;

  @Column({ type: 'text', nullable: true })
  error: string | null;

  @Column({ type: 'timestamptz' })
  attemptedAt: Date;
}
