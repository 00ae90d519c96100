import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Credential rate-limit counters shared by every instance (AUTH_RATE_LIMIT_PER_MINUTE): one row per
 * route and client address, counted by an atomic upsert; expired rows are swept through the index.
 */
export class RateLimitCounter1763810000000 implements MigrationInterface {
  name = 'RateLimitCounter1763810000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE rate_limit_counter (
        counter_key text NOT NULL,
        hits integer NOT NULL,
        expires_at timestamptz NOT NULL,
        CONSTRAINT pk_rate_limit_counter PRIMARY KEY (counter_key)
      )`);
    await queryRunner.query(`CREATE INDEX ix_rate_limit_counter_expires_at ON rate_limit_counter (expires_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE rate_limit_counter`);
  }
}
