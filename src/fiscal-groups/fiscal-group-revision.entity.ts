import { Check, Column, Entity, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import type { FiscalGroupSettings, TaxMatrix } from '../tax-engine/tax-rule.js';
import type { StoreRef } from './fiscal-group.entity.js';

/** What made a revision: a write through the API (or the command line), or the first revision of a group that existed before revisions. */
export const REVISION_KINDS = ['initial', 'create', 'update', 'import-matrix', 'delete'] as const;
export type RevisionKind = (typeof REVISION_KINDS)[number];

/** The whole group as a revision keeps it. */
export interface FiscalGroupRevisionSnapshot {
  externalId: string | null;
  name: string;
  uf: string;
  taxRegime: string | null;
  settings: FiscalGroupSettings;
  /** The stores the group held when the revision was written, in the order of its list. */
  stores: StoreRef[];
  taxMatrix: TaxMatrix;
}

/**
 * One revision of a fiscal group (docs/fiscal-configuration-over-time.md). Written with the change, in
 * its transaction; never updated except to record its cancellation before it takes effect, never
 * deleted (a trigger refuses both). No foreign key: a deleted group's revisions stay.
 */
@Entity({ name: 'fiscal_group_revision' })
@Unique('uq_fiscal_group_revision', ['fiscalGroupId', 'revision'])
@Index('ix_fiscal_group_revision_effective', ['fiscalGroupId', 'effectiveFrom'])
@Check(
  'ck_fiscal_group_revision_kind',
  `((kind)::text = ANY ((ARRAY['initial'::character varying, 'create'::character varying, 'update'::character varying, 'import-matrix'::character varying, 'delete'::character varying])::text[]))`,
)
@Check(
  'ck_fiscal_group_revision_actor_type',
  `((actor_type)::text = ANY ((ARRAY['client'::character varying, 'user'::character varying])::text[]))`,
)
export class FiscalGroupRevisionEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'uuid' })
  fiscalGroupId: string;

  /** 1, 2, 3... per group, in the order the revisions were written. */
  @Column({ type: 'integer' })
  revision: number;

  @Column({ type: 'varchar', length: 20 })
  kind: RevisionKind;

  /** Null for a write that names no actor (demo seeding, SQL by hand, the first revision of an existing group). */
  @Column({ type: 'varchar', length: 10, nullable: true })
  actorType: 'client' | 'user' | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  actorId: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  actorName: string | null;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  effectiveFrom: Date;

  @Column({ type: 'jsonb' })
  snapshot: FiscalGroupRevisionSnapshot;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  cancelledByType: 'client' | 'user' | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  cancelledById: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  cancelledByName: string | null;
}
