import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { FiscalGroupSettings, TaxMatrix } from '../tax-engine/tax-rule.js';

export interface StoreRef {
  store_id: string;
  store_name: string;
}

@Entity({ name: 'fiscal_group' })
export class FiscalGroupEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'varchar', length: 100, nullable: true })
  externalId: string | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'char', length: 2 })
  uf: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  taxRegime: string | null;

  @Column({ type: 'jsonb' })
  stores: StoreRef[];

  @Column({ type: 'jsonb' })
  taxMatrix: TaxMatrix;

  @Column({ type: 'jsonb' })
  settings: FiscalGroupSettings;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/** Which group holds a store: maintained with the group, in the same transaction. */
@Entity({ name: 'fiscal_group_store' })
export class FiscalGroupStoreEntity {
  @Column({ type: 'varchar', length: 100, primary: true })
  storeId: string;

  @Column({ type: 'uuid' })
  fiscalGroupId: string;
}
