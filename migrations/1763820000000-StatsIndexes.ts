import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes for the dashboard's aggregates (`/api/admin/stats/…`), each read by an index-only scan
 * of the range asked for instead of the order rows:
 * - `ix_orders_created` also carries the status (orders per hour by status). Status changes were
 *   already not HOT updates (other list indexes include the status), so this adds no write cost.
 * - `ix_orders_enrichment_failed`: the few orders that failed for want of a fiscal group, by time,
 *   with their store.
 * - `ix_webhook_delivery_attempted` also carries the answer's status code (forward outcomes).
 */
export class StatsIndexes1763820000000 implements MigrationInterface {
  name = 'StatsIndexes1763820000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_orders_created`);
    await queryRunner.query(`CREATE INDEX ix_orders_created ON orders (created_at DESC, id DESC) INCLUDE (status)`);
    await queryRunner.query(
      `CREATE INDEX ix_orders_enrichment_failed ON orders (created_at) INCLUDE (store_id) WHERE status = 'ENRICHMENT_FAILED'`,
    );
    await queryRunner.query(`DROP INDEX ix_webhook_delivery_attempted`);
    await queryRunner.query(`CREATE INDEX ix_webhook_delivery_attempted ON webhook_delivery (attempted_at) INCLUDE (status_code)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_webhook_delivery_attempted`);
    await queryRunner.query(`CREATE INDEX ix_webhook_delivery_attempted ON webhook_delivery (attempted_at)`);
    await queryRunner.query(`DROP INDEX ix_orders_enrichment_failed`);
    await queryRunner.query(`DROP INDEX ix_orders_created`);
    await queryRunner.query(`CREATE INDEX ix_orders_created ON orders (created_at DESC, id DESC)`);
  }
}
