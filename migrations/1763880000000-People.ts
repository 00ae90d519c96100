import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * People who sign in to the console, their one-time password links and their sessions. Emails are
 * unique whatever their case (a unique index on lower(email)); link tokens and session ids are
 * stored only as SHA-256 hashes, so a copy of the database opens no account.
 */
export class People1763880000000 implements MigrationInterface {
  name = 'People1763880000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE app_user (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        active boolean NOT NULL DEFAULT true,
        password_hash text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        last_sign_in_at timestamptz,
        CONSTRAINT pk_app_user PRIMARY KEY (id),
        CONSTRAINT ck_app_user_role CHECK (role IN ('support', 'fiscal', 'admin'))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX ux_app_user_email ON app_user (lower(email))`);
    await queryRunner.query(`
      CREATE TABLE password_link (
        token_hash text NOT NULL,
        user_id uuid NOT NULL,
        purpose text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        CONSTRAINT pk_password_link PRIMARY KEY (token_hash),
        CONSTRAINT fk_password_link_user FOREIGN KEY (user_id) REFERENCES app_user (id) ON DELETE CASCADE,
        CONSTRAINT ck_password_link_purpose CHECK (purpose IN ('invitation', 'reset'))
      )`);
    await queryRunner.query(`CREATE INDEX ix_password_link_user_id ON password_link (user_id)`);
    await queryRunner.query(`
      CREATE TABLE user_session (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        token_hash text NOT NULL,
        user_id uuid NOT NULL,
        csrf_token text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        ended_at timestamptz,
        CONSTRAINT pk_user_session PRIMARY KEY (id),
        CONSTRAINT uq_user_session_token_hash UNIQUE (token_hash),
        CONSTRAINT fk_user_session_user FOREIGN KEY (user_id) REFERENCES app_user (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX ix_user_session_user_id ON user_session (user_id) WHERE ended_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE user_session`);
    await queryRunner.query(`DROP TABLE password_link`);
    await queryRunner.query(`DROP TABLE app_user`);
  }
}
