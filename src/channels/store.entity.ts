import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { JsonObject, ScheduleDay } from './channels-stores.types.js';
import { SalesChannelEntity } from './sales-channel.entity.js';

/**
 * A store (`stores[]`), with `taxesInfo`, `contactInfo`, `deliveryInfo` and `locationInfo` flattened
 * into columns. bigint and numeric columns are read back as text; the mapper turns them into JSON numbers.
 * Every row hanging off a store (services, channels, schedules) goes with it (ON DELETE CASCADE).
 */
@Entity({ name: 'store' })
@Check('ck_store_minimum_order', '(minimum_order >= (0)::numeric)')
export class StoreEntity {
  @PrimaryColumn({ type: 'bigint' })
  storeId: string;

  /** Position in the request, so GET answers in the order sent. */
  @Column({ type: 'integer' })
  ordinal: number;

  @Column({ type: 'text', nullable: true })
  name: string | null;

  @Column({ type: 'boolean', nullable: true })
  active: boolean | null;

  @Column({ type: 'bigint', nullable: true })
  vendorId: string | null;

  @Column({ type: 'text', nullable: true })
  storeCode: string | null;

  @Column({ type: 'numeric', nullable: true })
  taxRate: string | null;

  @Column({ type: 'numeric', nullable: true })
  vatRatePercentage: string | null;

  @Column({ type: 'text', nullable: true })
  phone: string | null;

  @Column({ type: 'text', nullable: true })
  address: string | null;

  @Column({ type: 'text', nullable: true })
  cookTime: string | null;

  @Column({ type: 'bigint', nullable: true })
  deliveryId: string | null;

  @Column({ type: 'numeric', nullable: true })
  minimumOrder: string | null;

  @Column({ type: 'numeric', nullable: true })
  shippingCost: string | null;

  @Column({ type: 'text', nullable: true })
  city: string | null;

  /** Decimal text, kept exactly as sent. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  latitude: string | null;

  @Column({ type: 'varchar', length: 40, nullable: true })
  longitude: string | null;

  /** Sent properties the spec does not list (the platform's `default`, `featured`, ...), as a tree mirroring the sent store. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  extra: JsonObject;
}

/** `services[]` of a store. */
@Entity({ name: 'store_service' })
export class StoreServiceEntity {
  @PrimaryColumn({ type: 'bigint' })
  @ForeignKey(() => StoreEntity, { name: 'fk_store_service_store', onDelete: 'CASCADE' })
  storeId: string;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'boolean', nullable: true })
  active: boolean | null;
}

/** `storeChannels[]`: the channels a store sells on. */
@Entity({ name: 'store_channel' })
export class StoreChannelEntity {
  @PrimaryColumn({ type: 'bigint' })
  @ForeignKey(() => StoreEntity, { name: 'fk_store_channel_store', onDelete: 'CASCADE' })
  storeId: string;

  @PrimaryColumn({ type: 'varchar', length: 100 })
  @ForeignKey(() => SalesChannelEntity, { name: 'fk_store_channel_channel', onDelete: 'CASCADE' })
  @Index('ix_store_channel_channel_id')
  channelId: string;

  @Column({ type: 'integer' })
  ordinal: number;
}

/** Columns shared by the two schedule tables. */
abstract class ScheduleColumns {
  @Column({ type: 'varchar', length: 9 })
  day: ScheduleDay;

  /** `HH:MM`. */
  @Column({ type: 'varchar', length: 5 })
  startTime: string;

  /** `HH:MM`; before `startTime` means past midnight. */
  @Column({ type: 'varchar', length: 5 })
  endTime: string;

  /** Only on `SPECIAL` entries; `YYYY-MM-DD`. */
  @Column({ type: 'date', nullable: true })
  startDate: string | null;

  @Column({ type: 'date', nullable: true })
  endDate: string | null;
}

/**
 * The checks the migration gives each schedule table, named after it, as PostgreSQL stores them:
 * a known day, `HH:MM` times, and dates only on `SPECIAL` entries.
 */
function ScheduleChecks(table: 'store_schedule' | 'store_channel_schedule'): ClassDecorator {
  const time = (column: string) => `((${column})::text ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'::text)`;
  const checks = [
    Check(
      `ck_${table}_day`,
      "((day)::text = ANY ((ARRAY['MONDAY'::character varying, 'TUESDAY'::character varying, 'WEDNESDAY'::character varying, " +
        "'THURSDAY'::character varying, 'FRIDAY'::character varying, 'SATURDAY'::character varying, 'SUNDAY'::character varying, " +
        "'SPECIAL'::character varying])::text[]))",
    ),
    Check(`ck_${table}_start_time`, time('start_time')),
    Check(`ck_${table}_end_time`, time('end_time')),
    Check(`ck_${table}_dates`, "(((day)::text = 'SPECIAL'::text) OR ((start_date IS NULL) AND (end_date IS NULL)))"),
  ];
  return (target) => checks.forEach((check) => check(target));
}

/** The store's own opening hours (the platform's store-level `schedules[]`). */
@Entity({ name: 'store_schedule' })
@ScheduleChecks('store_schedule')
export class StoreScheduleEntity extends ScheduleColumns {
  @PrimaryColumn({ type: 'bigint' })
  @ForeignKey(() => StoreEntity, { name: 'fk_store_schedule_store', onDelete: 'CASCADE' })
  storeId: string;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;
}

/** One `schedulesByChannel[]` entry of a store. */
@Entity({ name: 'store_channel_schedule_group' })
export class StoreChannelScheduleGroupEntity {
  @PrimaryColumn({ type: 'bigint' })
  @ForeignKey(() => StoreEntity, { name: 'fk_store_channel_schedule_group_store', onDelete: 'CASCADE' })
  storeId: string;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;

  @Column({ type: 'varchar', length: 100 })
  @ForeignKey(() => SalesChannelEntity, { name: 'fk_store_channel_schedule_group_channel', onDelete: 'CASCADE' })
  @Index('ix_store_channel_schedule_group_channel_id')
  channelId: string;
}

/** `schedulesByChannel[].schedules[]`; gone with their group (ON DELETE CASCADE). */
@Entity({ name: 'store_channel_schedule' })
@ForeignKey(() => StoreChannelScheduleGroupEntity, ['storeId', 'groupOrdinal'], ['storeId', 'ordinal'], {
  name: 'fk_store_channel_schedule_group',
  onDelete: 'CASCADE',
})
@ScheduleChecks('store_channel_schedule')
export class StoreChannelScheduleEntity extends ScheduleColumns {
  @PrimaryColumn({ type: 'bigint' })
  storeId: string;

  @PrimaryColumn({ type: 'integer' })
  groupOrdinal: number;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;
}
