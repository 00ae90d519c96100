import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { AppUserEntity } from './app-user.entity.js';

/** A person's console session; the cookie's random token is kept only as its SHA-256. */
@Entity({ name: 'user_session' })
@Unique('uq_user_session_token_hash', ['tokenHash'])
// Partial (open sessions only): TypeORM does not describe it.
@Index('ix_user_session_user_id', { synchronize: false })
export class UserSessionEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_user_session' })
  id: string;

  @Column({ type: 'text' })
  tokenHash: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => AppUserEntity, { name: 'fk_user_session_user', onDelete: 'CASCADE' })
  userId: string;

  /** Sent back in `x-csrf-token` by every state-changing request made with the cookie. */
  @Column({ type: 'text' })
  csrfToken: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /** Moved by every request of the session: the idle timeout counts from here. */
  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastSeenAt: Date;

  /** Set by sign-out, a password change, deactivation or a new sign-in over it. */
  @Column({ type: 'timestamptz', nullable: true })
  endedAt: Date | null;
}
