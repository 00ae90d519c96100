import { Check, Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { JsonObject } from './channels-stores.types.js';

/** The one row of request-level data: the top-level properties the spec does not list (the platform's `vendorId`). */
@Entity({ name: 'channel_store_config' })
@Check('ck_channel_store_config_single_row', '(id = 1)')
export class ChannelStoreConfigEntity {
  /** Always 1: the table holds one row. */
  @PrimaryColumn({ type: 'smallint', default: 1 })
  id: number;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  extra: JsonObject;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
