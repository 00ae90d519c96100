import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';
import { AppUserEntity } from '../app-user.entity.js';

/** A person's TOTP authenticator: pending until a first code confirms it (`enabledAt`). */
@Entity({ name: 'user_totp' })
export class UserTotpEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_user_totp' })
  @ForeignKey(() => AppUserEntity, { name: 'fk_user_totp_user', onDelete: 'CASCADE' })
  userId: string;

  /** The shared secret, AES-256-GCM encrypted with a key derived from JWT_SECRET; never answered after enrolment. */
  @Column({ type: 'text' })
  secretCiphertext: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /** Null while enrolment waits for its first code. */
  @Column({ type: 'timestamptz', nullable: true })
  enabledAt: Date | null;

  /** The RFC 6238 time step of the last code accepted: a code of that step or an earlier one is refused (no replay). */
  @Column({ type: 'bigint', nullable: true })
  lastUsedStep: string | null;
}
