import { Column, Entity, ForeignKey, PrimaryGeneratedColumn, Unique } from 'typeorm';
import { AppUserEntity } from '../app-user.entity.js';

/** A single-use recovery code; only its keyed hash is kept. */
@Entity({ name: 'user_recovery_code' })
@Unique('uq_user_recovery_code_hash', ['userId', 'codeHash'])
export class UserRecoveryCodeEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'pk_user_recovery_code' })
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey(() => AppUserEntity, { name: 'fk_user_recovery_code_user', onDelete: 'CASCADE' })
  userId: string;

  @Column({ type: 'text' })
  codeHash: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  usedAt: Date | null;
}
