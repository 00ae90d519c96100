import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AppUserEntity } from './app-user.entity.js';

export type PasswordLinkPurpose = 'invitation' | 'reset';

/** A one-time link where a person sets a password; only the token's SHA-256 is kept. */
@Entity({ name: 'password_link' })
@Check('ck_password_link_purpose', "(purpose = ANY (ARRAY['invitation'::text, 'reset'::text]))")
@Index('ix_password_link_user_id', ['userId'])
export class PasswordLinkEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_password_link' })
  tokenHash: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => AppUserEntity, { name: 'fk_password_link_user', onDelete: 'CASCADE' })
  userId: string;

  @Column({ type: 'text' })
  purpose: PasswordLinkPurpose;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
