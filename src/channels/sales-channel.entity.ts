import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import type { JsonObject } from './channels-stores.types.js';

/** A sales channel (`channels[]`), `additionalInfo` flattened into `media_*` columns. */
@Entity({ name: 'sales_channel' })
export class SalesChannelEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  channelId: string;

  /** Position in the request, so GET answers in the order sent. */
  @Column({ type: 'integer' })
  ordinal: number;

  @Column({ type: 'boolean', nullable: true })
  active: boolean | null;

  @Column({ type: 'text', nullable: true })
  channel: string | null;

  /** bigint: read back as text. */
  @Column({ type: 'bigint', nullable: true })
  vendorId: string | null;

  @Column({ type: 'text', nullable: true })
  channelReferenceName: string | null;

  @Column({ type: 'text', nullable: true })
  mediaId: string | null;

  @Column({ type: 'text', nullable: true })
  mediaName: string | null;

  /** Sent properties the spec does not list, as a tree mirroring the sent channel. */
  @Column({ type: 'jsonb', default: () => `'{}'` })
  extra: JsonObject;
}

/** `additionalInfo.relatedLists[]` of a channel; gone with the channel (ON DELETE CASCADE). */
@Entity({ name: 'sales_channel_related_list' })
export class SalesChannelRelatedListEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  @ForeignKey(() => SalesChannelEntity, { name: 'fk_sales_channel_related_list_channel', onDelete: 'CASCADE' })
  channelId: string;

  @PrimaryColumn({ type: 'integer' })
  ordinal: number;

  @Column({ type: 'text' })
  listId: string;

  @Column({ type: 'text', nullable: true })
  listName: string | null;
}
