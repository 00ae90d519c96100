import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { FiscalGroupSettings, TaxMatrix } from '../tax-engine/tax-rule.js';

export interface StoreRef {
  store_id: string;
  store_name: string;
}

/**
 * The list indexes are `(created_at DESC, id DESC)` and `(uf, created_at DESC, id DESC)` in the migration; TypeORM
 * has no sort direction for an index column, and a B-tree read backwards serves the same orderings.
 */
@Entity({ name: 'fiscal_group' })
@Index('ix_fiscal_group_created', ['createdAt', 'id'])
@Index('ix_fiscal_group_uf_created', ['uf', 'createdAt', 'id'])
export class FiscalGroupEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Unique when set. */
  @Column({ type: 'varchar', length: 100, nullable: true })
  @Index('uq_fiscal_group_external_id', { unique: true, where: '(external_id IS NOT NULL)' })
  externalId: string | null;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'char', length: 2 })
  uf: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  taxRegime: string | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  stores: StoreRef[];

  @Column({ type: 'jsonb', default: () => `'{}'` })
  taxMatrix: TaxMatrix;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  settings: FiscalGroupSettings;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}

/**
 * Which group holds a store: maintained with the group, in the same transaction. The primary key makes a store
 * belong to at most one group; the rows go with their group (ON DELETE CASCADE).
 */
@Entity({ name: 'fiscal_group_store' })
export class FiscalGroupStoreEntity {
  @Column({ type: 'varchar', length: 100, primary: true })
  storeId: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => FiscalGroupEntity, { name: 'fiscal_group_store_fiscal_group_id_fkey', onDelete: 'CASCADE' })
  @Index('ix_fiscal_group_store_group')
  fiscalGroupId: string;
}
