import { Check, Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique, UpdateDateColumn } from 'typeorm';
import type { OrderStatus } from './order-status.js';

/** The last answer of the order webhook. */
export interface WebhookLastResponse {
  statusCode: number | null;
  body: string | null;
  durationMs: number;
  error: string | null;
  attemptedAt: string;
}

/**
 * The keys, checks and indexes are those the migrations make (Orders, OrderListIndexes, OrderCreatedIndexCovering), under their names.
 *
 * The list indexes are ordered `created_at DESC, id DESC` (TypeORM has no sort direction for an index column).
 * `ix_orders_created` and the four filter indexes also carry `INCLUDE (...)` columns, which TypeORM cannot express: it
 * reads them as key columns of the index and would build the index with them in its key. Those are declared by
 * name with `synchronize: false` (their definition written next to each); the migrations alone make them.
 */
@Entity({ name: 'orders' })
@Unique('uq_orders_order_id', ['orderId'])
@Check('ck_orders_webhook_attempts', '(webhook_attempts >= 0)')
@Check(
  'ck_orders_status',
  "((status)::text = ANY ((ARRAY['RECEIVED'::character varying, 'ENRICHED'::character varying, 'ENRICHMENT_FAILED'::character varying, " +
    "'FORWARDED'::character varying, 'FORWARD_FAILED'::character varying, 'ACCEPTED'::character varying, 'IN_PREPARATION'::character varying, " +
    "'READY'::character varying, 'DISPATCHED'::character varying, 'DELIVERED'::character varying, 'CANCELLED'::character varying, " +
    "'REJECTED'::character varying])::text[]))",
)
/** (created_at DESC, id DESC) INCLUDE (webhook_attempts, order_id): the unfiltered list and date ranges. */
@Index('ix_orders_created', { synchronize: false })
/** (created_at) INCLUDE (store_id) WHERE status = 'ENRICHMENT_FAILED': stores missing a fiscal group. */
@Index('ix_orders_enrichment_failed', { synchronize: false })
/** (store_id, created_at DESC, id DESC) INCLUDE (status, source, webhook_attempts, order_id). */
@Index('ix_orders_store_created', { synchronize: false })
/** (status, created_at DESC, id DESC) INCLUDE (source, webhook_attempts). */
@Index('ix_orders_status_created', { synchronize: false })
/** (source, created_at DESC, id DESC) INCLUDE (status, webhook_attempts). */
@Index('ix_orders_source_created', { synchronize: false })
/** (webhook_attempts, created_at DESC, id DESC) INCLUDE (status, source). */
@Index('ix_orders_attempts_created', { synchronize: false })
/** (id) WHERE payload_bytes IS NULL: the orders OrderPayloadMeasurer has still to measure. */
@Index('ix_orders_payload_unmeasured', { synchronize: false })
/**
 * (fiscal_group_id, tax_instant) INCLUDE (fiscal_group_revision) WHERE tax_instant > created_at: the orders dated ahead
 * of their receipt, the only ones a revision not yet in force can tax (migration RevisionInForceAtTaxInstant).
 */
@Index('ix_orders_dated_ahead', { synchronize: false })
/** GIN (personal_data_keys) WHERE personal_data_keys IS NOT NULL: a person's orders (migration OrderPersonalDataKeys). */
@Index('ix_orders_personal_data_keys', { synchronize: false })
/**
 * (marketplace_order_number, created_at DESC, id DESC) WHERE marketplace_order_number IS NOT NULL: the list's search by a
 * marketplace's order number (migration OrderMarketplaceNumber).
 */
@Index('ix_orders_marketplace_number', { synchronize: false })
/** (id) WHERE personal_data_keys IS NULL: the orders the personal-data backfill has still to read. */
@Index('ix_orders_personal_data_unkeyed', { synchronize: false })
/** (created_at) WHERE personal_data_erased_at IS NULL: the oldest orders still holding personal data (retention). */
@Index('ix_orders_personal_data_held', { synchronize: false })
/** (webhook_outbox_due_at) WHERE webhook_outbox_due_at IS NOT NULL: forwards in flight, for the retry worker (migration OrderWebhookOutbox). */
@Index('ix_orders_webhook_outbox_due', { synchronize: false })
/** BRIN (updated_at): the orders changed since the tax fold's watermark (migration OrderTaxHours); keeps updates HOT. */
@Index('ix_orders_updated_brin', { synchronize: false })
export class OrderEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /**
   * The business identifier received from the platform; unique (`uq_orders_order_id`).
   *
   * `ix_orders_order_id_trgm` is `USING gin (order_id gin_trgm_ops) WITH (fastupdate = on, gin_pending_list_limit = 64)`:
   * the orderId substring search. TypeORM cannot express an operator class (nor the storage parameters), and the index it would build,
   * `gin (order_id)`, cannot exist for varchar: so it is named here with `synchronize: false`; the migration makes it.
   */
  @Column({ type: 'varchar', length: 120 })
  @Index('ix_orders_order_id_trgm', { synchronize: false })
  orderId: string;

  @Column({ type: 'varchar', length: 30 })
  status: OrderStatus;

  /** The order as received. */
  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  /** The order after enrichment; null when enrichment failed or has not run. */
  @Column({ type: 'jsonb', nullable: true })
  enrichedPayload: Record<string, unknown> | null;

  /**
   * Bytes of `payload` and `enrichedPayload` as JSON text, set by a trigger on each write of them
   * (see order-list.sql.ts); null for an order stored before it existed until OrderPayloadMeasurer reaches it.
   */
  @Column({ type: 'bigint', nullable: true, select: false, insert: false, update: false })
  payloadBytes: string | null;

  @Column({ type: 'integer', default: 0 })
  webhookAttempts: number;

  /**
   * The `webhook-id` of the stored enriched payload: a new random one with each enrichment the order path stores;
   * null for an order stored before it existed or re-taxed by a transfer, whose id is then the hash of its canonical JSON.
   */
  @Column({ type: 'varchar', length: 64, nullable: true })
  webhookId: string | null;

  /**
   * The forward's outbox: when the retry worker takes over the message `webhookId` unless an attempt has recorded its
   * outcome first. Set by the forward's upsert (before the first byte leaves), cleared by the attempt that records a 2xx
   * of the message, or when the failed forward's retry is scheduled ("The forward's outbox" in docs/webhook-retries.md).
   */
  @Column({ type: 'timestamptz', nullable: true })
  webhookOutboxDueAt: Date | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  storeId: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  source: string | null;

  /**
   * The marketplace's own number of the order (iFood's short `displayId`, Rappi's order id...), for an order read through
   * a marketplace profile; set by a trigger from `source`, `orderId` and `payload.sourceOrder` within the statement that
   * writes them (migration OrderMarketplaceNumber), never by the service.
   */
  @Column({ type: 'varchar', length: 100, nullable: true, insert: false, update: false })
  marketplaceOrderNumber: string | null;

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

  /**
   * The store-limited client that stored the order first; null when an every-store writer (the platform) stored it first
   * or has written it since. The platform's order for another store takes its id (docs/access.md).
   */
  @Column({ type: 'varchar', length: 20, nullable: true })
  intakeClientId: string | null;

  /** When a transfer last moved the order to another store (a re-send then keeps that store). */
  @Column({ type: 'timestamptz', nullable: true })
  transferredAt: Date | null;

  /** The instant whose fiscal group revision taxes the order; the first receipt's, kept by re-sends. */
  @Column({ type: 'timestamptz', nullable: true })
  taxInstant: Date | null;

  /** The revision of `fiscalGroupId` that taxed the order (null: untaxed, or a group without revisions). */
  @Column({ type: 'integer', nullable: true })
  fiscalGroupRevision: number | null;

  /**
   * Keyed hashes of the e-mails, phones and CPF/CNPJ the order holds (docs/personal-data.md), written with the order;
   * null for an order stored before they were kept, until the backfill reaches it.
   */
  @Column({ type: 'text', array: true, nullable: true, select: false })
  personalDataKeys: string[] | null;

  /** When the order's personal data was erased (a person's request or retention); null while it holds it. */
  @Column({ type: 'timestamptz', nullable: true })
  personalDataErasedAt: Date | null;
}

@Entity({ name: 'order_status_history' })
@Index('ix_order_status_history_order', ['orderDbId', 'id'])
export class OrderStatusHistoryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint' })
  id: string;

  /** The order; its history goes with it (ON DELETE CASCADE). */
  @Column({ type: 'uuid' })
  @ForeignKey(() => OrderEntity, { name: 'order_status_history_order_db_id_fkey', onDelete: 'CASCADE' })
  orderDbId: string;

  @Column({ type: 'varchar', length: 30, nullable: true })
  fromStatus: OrderStatus | null;

  @Column({ type: 'varchar', length: 30 })
  toStatus: OrderStatus;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
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
