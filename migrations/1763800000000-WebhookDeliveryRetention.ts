import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The delivery log is pruned by age (WEBHOOK_DELIVERY_RETENTION_DAYS): the oldest rows are found through this index. */
export class WebhookDeliveryRetention1763800000000 implements MigrationInterface {
  name = 'WebhookDeliveryRetention1763800000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE INDEX ix_webhook_delivery_attempted ON webhook_delivery (attempted_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_webhook_delivery_attempted`);
  }
}
