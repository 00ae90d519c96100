import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { OrderStatus } from './order-status.js';

/*
 * The order counters of the list's count and the dashboard (migrations OrderListIndexes,
 * DashboardStats, CounterKeys, OrderIdFragmentCounts): written only by the database (the triggers on
 * `orders`, `fold_order_counts()` and `fold_order_id_fragment_counts()`), read by the orders module's statements. Declared so that the schema-drift
 * test compares them with the migrations like every other table.
 */

/** Orders per UTC day of creation, source and current status, as folded so far. */
@Entity({ name: 'order_count_day' })
@Unique('uq_order_count_day', ['day', 'source', 'status'])
export class OrderCountDayEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', primaryKeyConstraintName: 'pk_order_count_day' })
  id: string;

  @Column({ type: 'date' })
  day: string;

  /** The unique key compares a null source as a value (NULLS NOT DISTINCT, which TypeORM does not say). */
  @Column({ type: 'varchar', length: 100, nullable: true })
  source: string | null;

  @Column({ type: 'varchar', length: 30 })
  status: OrderStatus;

  @Column({ type: 'bigint' })
  n: string;
}

/** ±1 per order created, deleted or changed, appended by the trigger until `fold_order_counts()` moves them. */
@Entity({ name: 'order_count_delta' })
export class OrderCountDeltaEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', primaryKeyConstraintName: 'pk_order_count_delta' })
  id: string;

  @Column({ type: 'date' })
  day: string;

  /** Null in rows written before the hourly counters existed. */
  @Column({ type: 'timestamptz', nullable: true })
  hour: Date | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  source: string | null;

  @Column({ type: 'varchar', length: 30 })
  status: OrderStatus;

  @Column({ type: 'integer' })
  n: number;
}

/** Orders per UTC hour of creation and current status, for the last 8 days. */
@Entity({ name: 'order_count_hour' })
export class OrderCountHourEntity {
  @PrimaryColumn({ type: 'timestamptz', primaryKeyConstraintName: 'pk_order_count_hour' })
  hour: Date;

  @PrimaryColumn({ type: 'varchar', length: 30, primaryKeyConstraintName: 'pk_order_count_hour' })
  status: OrderStatus;

  @Column({ type: 'bigint' })
  n: string;
}

/** Orders whose lower-cased orderId holds each substring of 1 or 2 characters, as folded so far. */
@Entity({ name: 'order_id_fragment_count' })
export class OrderIdFragmentCountEntity {
  @PrimaryColumn({ type: 'varchar', length: 2, primaryKeyConstraintName: 'pk_order_id_fragment_count' })
  fragment: string;

  @Column({ type: 'bigint' })
  n: string;
}

/** The orderId of each order created (+1), deleted (-1) or given another orderId, until `fold_order_id_fragment_counts()` moves them. */
@Entity({ name: 'order_id_fragment_delta' })
export class OrderIdFragmentDeltaEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', primaryKeyConstraintName: 'pk_order_id_fragment_delta' })
  id: string;

  @Column({ type: 'varchar', length: 120 })
  orderId: string;

  @Column({ type: 'integer' })
  n: number;
}
