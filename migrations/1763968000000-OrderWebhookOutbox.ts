import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The forward's outbox as a column of the order ("The forward's outbox" in docs/webhook-retries.md): the forward's
 * upsert writes when the retry worker takes the order's current message over, and the attempt that records a 2xx of
 * that message clears it in the row it rewrites anyway, instead of a `webhook_retry_job` row inserted before every send
 * and deleted after it. `ix_orders_webhook_outbox_due` holds only the forwards in flight (and those a crash left): the
 * retry worker finds the due ones through it.
 */
export class OrderWebhookOutbox1763968000000 implements MigrationInterface {
  name = 'OrderWebhookOutbox1763968000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN webhook_outbox_due_at timestamptz`);
    await queryRunner.query(
      `CREATE INDEX ix_orders_webhook_outbox_due ON orders (webhook_outbox_due_at) WHERE webhook_outbox_due_at IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // An outbox entry still pending goes to the retry queue as the version before kept it, due at once.
    await queryRunner.query(`
      INSERT INTO webhook_retry_job (order_db_id, webhook_id, body, retries_done, run_at)
      SELECT id, webhook_id, NULL, 0, now() FROM orders WHERE webhook_outbox_due_at IS NOT NULL AND webhook_id IS NOT NULL
      ON CONFLICT (order_db_id) DO NOTHING`);
    await queryRunner.query(`DROP INDEX ix_orders_webhook_outbox_due`);
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN webhook_outbox_due_at`);
  }
}
