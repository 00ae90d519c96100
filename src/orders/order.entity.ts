import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { OrderStatus } from './order-status.js';

/** The last answer of the order webhook (contract §6). */
export interface WebhookLastResponse {
  statusCode: number | null;
  body: string | null;
  durationMs: number;
  error: string | null;
  attemptedAt: string;
}

@Entity({ name: 'orders' })
export class OrderEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** The business identifier received from the platform; unique. */
  @Column({ type: 'varchar', length: 100, unique: true })
  orderId: string;

  @Column({ type: 'varchar', length: 30 })
  status: OrderStatus;

  /** The order as received. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** The order after enrichment; null when enrichment failed or has not run. */
  @Column({ type: 'jsonb', nullable: true })
  enrichedPayload: Record<string, unknown> | null;

  @Column({ type: 'integer', default: 0 })
  webhookAttempts: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  storeId: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  source: string | null;

  @Column({ type: 'jsonb', nullable: true })
  webhookLastResponse: WebhookLastResponse | null;

  /** The fiscal group that taxed the order. */
  @Column({ type: 'uuid', nullable: true })
  fiscalGroupId: string | null;

  /** Client id of the last write (read by the status-history trigger). */
  @Column({ type: 'varchar', length: 20, nullable: true })
  lastChangedBy: string | null;

  /** Route of the last write (read by the status-history trigger). */
  @Column({ type: 'varchar', length: 100, nullable: true })
  lastChangedVia: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /** When a transfer last moved the order to another store (a re-send then keeps that store). */
  @Column({ type: 'timestamptz', nullable: true })
  transferredAt: Date | null;
}

@Entity({ name: 'order_status_history' })
export class OrderStatusHistoryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  @Column({ type: 'uuid' })
  orderDbId: string;

  @Column({ type: 'varchar', length: 30, nullable: true })
  fromStatus: OrderStatus | null;

  @Column({ type: 'varchar', length: 30 })
  toStatus: OrderStatus;

  @Column({ type: 'timestamptz' })
  changedAt: Date;

  @Column({ type: 'varchar', length: 20, nullable: true })
  clientId: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  via: string | null;

  /** The status as the caller sent it (a point-of-sale label), when it was sent. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  label: string | null;

  /** The request body's properties beyond the documented ones. */
  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;
}
