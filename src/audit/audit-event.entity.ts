import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { AuditChanges } from './audit-event.types.js';

/** One recorded change (docs/audit-log.md). Written by AuditLog only, never updated; deleted only by the retention job. */
@Entity({ name: 'audit_event' })
@Index('ix_audit_event_at', ['at', 'id'])
@Index('ix_audit_event_target', ['targetType', 'targetId', 'at', 'id'])
@Index('ix_audit_event_actor', ['actorType', 'actorId', 'at', 'id'])
@Check('ck_audit_event_actor_type', `((actor_type)::text = ANY ((ARRAY['client'::character varying, 'user'::character varying])::text[]))`)
export class AuditEventEntity {
  @PrimaryGeneratedColumn('identity', { type: 'bigint', generatedIdentity: 'ALWAYS' })
  id: string;

  @Column({ type: 'timestamptz', default: () => 'clock_timestamp()' })
  at: Date;

  @Column({ type: 'varchar', length: 10 })
  actorType: 'client' | 'user';

  @Column({ type: 'varchar', length: 100 })
  actorId: string;

  @Column({ type: 'varchar', length: 200 })
  actorName: string;

  @Column({ type: 'varchar', length: 60 })
  action: string;

  @Column({ type: 'varchar', length: 40 })
  targetType: string;

  @Column({ type: 'varchar', length: 200 })
  targetId: string;

  @Column({ type: 'jsonb' })
  changes: AuditChanges;

  @Column({ type: 'varchar', length: 200, nullable: true })
  requestId: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  address: string | null;
}
