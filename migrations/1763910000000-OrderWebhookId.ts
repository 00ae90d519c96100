import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each stored enrichment carries its webhook message id (`orders.webhook_id`, random, written by the upsert that
 * stores the enriched payload): a forward no longer serializes the payload a second time, keys sorted, to hash it.
 * Orders stored before keep null, and their id stays the hash of the payload's canonical JSON, as before; a
 * transfer, which re-taxes the order, sets it back to null. A retry job no longer copies the payload's text
 * (`webhook_retry_job.body` null): the retry sends the order's stored payload under the job's id, and a job
 * whose id is no longer the order's is a superseded one. Jobs written before keep their text and are sent as before.
 * Both changes only add a nullable column and drop a NOT NULL: no table is rewritten.
 */
export class OrderWebhookId1763910000000 implements MigrationInterface {
  name = 'OrderWebhookId1763910000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN webhook_id varchar(64)`);
    await queryRunner.query(`ALTER TABLE webhook_retry_job ALTER COLUMN body DROP NOT NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // A job without text gets the text a retry would have sent; jobs of orders re-taxed since are superseded anyway.
    await queryRunner.query(
      `UPDATE webhook_retry_job j SET body = o.enriched_payload::text FROM orders o WHERE j.body IS NULL AND o.id = j.order_db_id`,
    );
    await queryRunner.query(`DELETE FROM webhook_retry_job WHERE body IS NULL`);
    await queryRunner.query(`ALTER TABLE webhook_retry_job ALTER COLUMN body SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN webhook_id`);
  }
}
