import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Clients limited to stores, and secret rotation with a grace period: `stores` lists the orders'
 * `store.id` a client may touch (empty: every store); the previous secret's hash keeps working
 * until `previous_secret_valid_until`.
 */
export class ClientStores1763870000000 implements MigrationInterface {
  name = 'ClientStores1763870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_client
        ADD COLUMN stores text[] NOT NULL DEFAULT '{}',
        ADD COLUMN previous_secret_hash text,
        ADD COLUMN previous_secret_valid_until timestamptz`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      ALTER TABLE api_client DROP COLUMN previous_secret_valid_until, DROP COLUMN previous_secret_hash, DROP COLUMN stores`);
  }
}
