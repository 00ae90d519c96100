import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in (docs/access.md, "Two-factor sign-in"): a person's TOTP secret, encrypted, with the last time step
 * a code was accepted for (a code is taken once); the single-use recovery codes, kept only as keyed hashes; and the
 * roles whose people must have a second factor to get a session.
 */
export class TwoFactorSignIn1763975000000 implements MigrationInterface {
  name = 'TwoFactorSignIn1763975000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE user_totp (
        user_id uuid NOT NULL,
        secret_ciphertext text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        enabled_at timestamptz,
        last_used_step bigint,
        CONSTRAINT pk_user_totp PRIMARY KEY (user_id),
        CONSTRAINT fk_user_totp_user FOREIGN KEY (user_id) REFERENCES app_user (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE user_recovery_code (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL,
        code_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        used_at timestamptz,
        CONSTRAINT pk_user_recovery_code PRIMARY KEY (id),
        CONSTRAINT uq_user_recovery_code_hash UNIQUE (user_id, code_hash),
        CONSTRAINT fk_user_recovery_code_user FOREIGN KEY (user_id) REFERENCES app_user (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE two_factor_requirement (
        role text NOT NULL,
        required_since timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT pk_two_factor_requirement PRIMARY KEY (role),
        CONSTRAINT ck_two_factor_requirement_role CHECK (role IN ('fiscal', 'admin'))
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE two_factor_requirement`);
    await queryRunner.query(`DROP TABLE user_recovery_code`);
    await queryRunner.query(`DROP TABLE user_totp`);
  }
}
