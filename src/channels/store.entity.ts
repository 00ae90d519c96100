import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JsonObject, ScheduleDay } from './channels-stores.types.js';

/**
 * A store (`stores[]`), with `taxesInfo`, `contactInfo`, `deliveryInfo` and `locationInfo` flattened
 * into columns. bigint and numeric columns are read back as text; the mapper turns them into JSON numbers.
 */
@Entity({ name: 'store' })
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
  @Column({ type: 'jsonb' })
  extra: JsonObject;
}

/** `services[]` of a store. */
@Entity({ name: 'store_service' })
export class StoreServiceEntity {
  @PrimaryColumn({ type: 'bigint' })
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
  storeId: string;

  @PrimaryColumn({ type: 'varchar', length: 100 })
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

/** The store's own opening hours (the platform's store-level `schedules[]`). */
@Entity({ name: 'store_schedule' })
export class StoreScheduleEntity extends ScheduleColumns {
  @PrimaryColumn({ type: 'bigint' })
  storeId: string;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;
}

/** One `schedulesByChannel[]` entry of a store. */
@Entity({ name: 'store_channel_schedule_group' })
export class StoreChannelScheduleGroupEntity {
  @PrimaryColumn({ type: 'bigint' })
  storeId: string;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;

  @Column({ type: 'varchar', length: 100 })
  channelId: string;
}

/** `schedulesByChannel[].schedules[]`. */
@Entity({ name: 'store_channel_schedule' })
export class StoreChannelScheduleEntity extends ScheduleColumns {
  @PrimaryColumn({ type: 'bigint' })
  storeId: string;

  @PrimaryColumn({ type: 'integer' })
  groupOrdinal: number;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;
}
