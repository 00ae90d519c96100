import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Foundation1763710000000 implements MigrationInterface {
  name = 'Foundation1763710000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE EXTENSION IF NOT EXISTS pg_trgm`);
    await queryRunner.query(`CREATE SEQUENCE api_client_number_seq START WITH 1001`);
    await queryRunner.query(`
      CREATE TABLE api_client (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        client_id varchar(20) NOT NULL,
        name varchar(200) NOT NULL,
        secret_hash text NOT NULL,
        scopes text[] NOT NULL DEFAULT '{}',
        active boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_api_client_client_id UNIQUE (client_id),
        CONSTRAINT ck_api_client_client_id_numeric CHECK (client_id ~ '^[0-9]+$')
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE api_client`);
    await queryRunner.query(`DROP SEQUENCE api_client_number_seq`);
  }
}
