import { Check, Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '../auth/principal.js';

/** A person who signs in to the console. */
@Entity({ name: 'app_user' })
@Check('ck_app_user_role', "(role = ANY (ARRAY['support'::text, 'fiscal'::text, 'admin'::text]))")
// Unique whatever the case: lower(email), an expression TypeORM cannot describe.
@Index('ux_app_user_email', { synchronize: false })
export class AppUserEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_app_user' })
  id: string;

  /** As the admin typed it; compared in lower case. */
  @Column({ type: 'text' })
  email: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  role: Role;

  @Column({ type: 'boolean', default: true })
  active: boolean;

  /** argon2id (PHC string); null until the person sets a password through a link. */
  @Column({ type: 'text', nullable: true })
  passwordHash: string | null;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  updatedAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  lastSignInAt: Date | null;
}
