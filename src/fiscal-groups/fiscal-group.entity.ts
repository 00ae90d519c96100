import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
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

  /** The stores the group holds (`fiscal_group_store`), loaded with the group; in no particular order (see `position`). */
  @OneToMany(() => FiscalGroupStoreEntity, (store) => store.group, { eager: true })
  stores: FiscalGroupStoreEntity[];

  @Column({ type: 'jsonb', default: () => `'{}'` })
  taxMatrix: TaxMatrix;

  @Column({ type: 'jsonb', default: () => `'{}'` })
  settings: FiscalGroupSettings;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;

  /**
   * The revision whose content the row holds (null for a group written outside the service, without revisions). A
   * scheduled revision that has taken effect since is newer: readers take the revision in force (FiscalGroupRevisions).
   */
  @Column({ type: 'integer', nullable: true })
  revision: number | null;
}

/**
 * A store a group holds, the one record of a group's stores: written with the group, in the same transaction. The
 * primary key makes a store belong to at most one group; the rows go with their group (ON DELETE CASCADE).
 */
@Entity({ name: 'fiscal_group_store' })
export class FiscalGroupStoreEntity {
  @Column({ type: 'varchar', length: 100, primary: true })
  storeId: string;

  @Column({ type: 'uuid' })
  @Index('ix_fiscal_group_store_group')
  fiscalGroupId: string;

  @ManyToOne(() => FiscalGroupEntity, (group) => group.stores, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'fiscal_group_id', foreignKeyConstraintName: 'fiscal_group_store_fiscal_group_id_fkey' })
  group?: FiscalGroupEntity;

  @Column({ type: 'varchar', length: 200 })
  storeName: string;

  /** The store's place in the group's list, from 0: the API answers the stores in the order they were sent. */
  @Column({ type: 'integer' })
  position: number;
}

/** The group's stores as the API answers them: in the order they were sent. */
export function storeRefsOf(group: FiscalGroupEntity): StoreRef[] {
  return [...group.stores]
    .sort((a, b) => a.position - b.position)
    .map((store) => ({ store_id: store.storeId, store_name: store.storeName }));
}
