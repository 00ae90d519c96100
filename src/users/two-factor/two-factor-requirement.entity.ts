import { Check, Column, Entity, PrimaryColumn } from 'typeorm';
import type { Role } from '../../auth/principal.js';

/** A role whose people must sign in with a second factor (one row per role that requires it). */
@Entity({ name: 'two_factor_requirement' })
@Check('ck_two_factor_requirement_role', "(role = ANY (ARRAY['fiscal'::text, 'admin'::text]))")
export class TwoFactorRequirementEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_two_factor_requirement' })
  role: Extract<Role, 'fiscal' | 'admin'>;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  requiredSince: Date;
}
