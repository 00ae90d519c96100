import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** What made a history row: a creation, a change, a deletion, or the category as it was when the history began. */
export const CATEGORY_HISTORY_KINDS = ['initial', 'create', 'update', 'delete'] as const;
export type CategoryHistoryKind = (typeof CATEGORY_HISTORY_KINDS)[number];

/**
 * One change of a product fiscal category (docs/fiscal-configuration-over-time.md), written by a trigger
 * in the transaction of the change; never updated nor deleted (a trigger refuses both). No foreign key:
 * a deleted category's history stays. A field's `Before` is null on a creation, its `After` on a deletion.
 */
@Entity({ name: 'product_fiscal_category_history' })
@Index('ix_product_fiscal_category_history_product', ['productId', 'id'])
@Check(
  'ck_product_fiscal_category_history_kind',
  `((kind)::text = ANY ((ARRAY['initial'::character varying, 'create'::character varying, 'update'::character varying, 'delete'::character varying])::text[]))`,
)
@Check(
  'ck_product_fiscal_category_history_actor_type',
  `((actor_type)::text = ANY ((ARRAY['client'::character varying, 'user'::character varying])::text[]))`,
)
export class ProductFiscalCategoryHistoryEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  productId: string;

  @Column({ type: 'varchar', length: 10 })
  kind: CategoryHistoryKind;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  changedAt: Date;

  /** Null for a write that names no actor (demo seeding, SQL by hand, the initial row). */
  @Column({ type: 'varchar', length: 10, nullable: true })
  actorType: 'client' | 'user' | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  actorId: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  actorName: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  productNameBefore: string | null;

  @Column({ type: 'varchar', length: 300, nullable: true })
  productNameAfter: string | null;

  @Column({ type: 'char', length: 8, nullable: true })
  ncmBefore: string | null;

  @Column({ type: 'char', length: 8, nullable: true })
  ncmAfter: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  externalProductIdBefore: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  externalProductIdAfter: string | null;
}
