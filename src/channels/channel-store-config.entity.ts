import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { JsonObject } from './channels-stores.types.js';

/** The one row of request-level data: the top-level properties the spec does not list (the platform's `vendorId`). */
@Entity({ name: 'channel_store_config' })
export class ChannelStoreConfigEntity {
  @PrimaryColumn({ type: 'smallint' })
  id: number;

  @Column({ type: 'jsonb' })
  extra: JsonObject;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
