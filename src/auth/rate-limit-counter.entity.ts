import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A credential rate-limit counter: hits of one key (route and client address) in the window ending
 * at `expiresAt`. Written only by RateLimitCounterRepository's hand-written statements; declared so
 * that the schema check compares it with its migration.
 */
@Entity({ name: 'rate_limit_counter' })
@Index('ix_rate_limit_counter_expires_at', ['expiresAt'])
export class RateLimitCounterEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'pk_rate_limit_counter' })
  counterKey: string;

  @Column({ type: 'integer' })
  hits: number;

  @Column({ type: 'timestamptz' })
  expiresAt: Date;
}
