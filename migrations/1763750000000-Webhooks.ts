import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Forwarding to the order webhook: the delivery log (one row per attempt, read by the
 * order detail as `deliveries`) and the retry queue (one pending job per order, shared by
 * every instance through `FOR UPDATE SKIP LOCKED`).
 */
export class Webhooks1763750000000 implements MigrationInterface {
  name = 'Webhooks1763750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE webhook_delivery (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_db_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        trigger varchar(20) NOT NULL,
        webhook_id varchar(64) NOT NULL,
        url text NOT NULL,
        request_headers jsonb NOT NULL,
        status_code integer,
        response_body text,
        duration_ms integer NOT NULL,
        error text,
        attempted_at timestamptz NOT NULL,
        CONSTRAINT ck_webhook_delivery_trigger CHECK (trigger IN ('forward', 'redeliver', 'retry'))
      )`);
    await queryRunner.query(`CREATE INDEX ix_webhook_delivery_order ON webhook_delivery (order_db_id, attempt)`);

    await queryRunner.query(`
      CREATE TABLE webhook_retry_job (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_db_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        webhook_id varchar(64) NOT NULL,
        body text NOT NULL,
        retries_done integer NOT NULL DEFAULT 0,
        run_at timestamptz NOT NULL,
        lease uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_webhook_retry_job_order UNIQUE (order_db_id)
      )`);
    await queryRunner.query(`CREATE INDEX ix_webhook_retry_job_run_at ON webhook_retry_job (run_at)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE webhook_retry_job`);
    await queryRunner.query(`DROP TABLE webhook_delivery`);
  }
}
