import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Orders1763730000000 implements MigrationInterface {
  name = 'Orders1763730000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE orders (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        order_id varchar(100) NOT NULL,
        status varchar(30) NOT NULL,
        payload jsonb NOT NULL,
        enriched_payload jsonb,
        webhook_attempts integer NOT NULL DEFAULT 0,
        store_id varchar(100),
        source varchar(100),
        webhook_last_response jsonb,
        fiscal_group_id uuid,
        last_changed_by varchar(20),
        last_changed_via varchar(100),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT uq_orders_order_id UNIQUE (order_id),
        CONSTRAINT ck_orders_webhook_attempts CHECK (webhook_attempts >= 0),
        CONSTRAINT ck_orders_status CHECK (status IN ('RECEIVED', 'ENRICHED', 'ENRICHMENT_FAILED', 'FORWARDED', 'FORWARD_FAILED',
          'ACCEPTED', 'IN_PREPARATION', 'READY', 'DISPATCHED', 'DELIVERED', 'CANCELLED', 'REJECTED'))
      )`);
    await queryRunner.query(`CREATE INDEX ix_orders_created ON orders (created_at DESC, id DESC)`);
    await queryRunner.query(`
      CREATE TABLE order_status_history (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_db_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        from_status varchar(30),
        to_status varchar(30) NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        client_id varchar(20),
        via varchar(100)
      )`);
    await queryRunner.query(`CREATE INDEX ix_order_status_history_order ON order_status_history (order_db_id, id)`);
    // Every status change, whichever statement makes it, leaves a history row; the row's
    // last_changed_by / last_changed_via say who and through which route.
    await queryRunner.query(`
      CREATE FUNCTION record_order_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via)
          VALUES (NEW.id, NULL, NEW.status, NEW.last_changed_by, NEW.last_changed_via);
        ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via)
          VALUES (NEW.id, OLD.status, NEW.status, NEW.last_changed_by, NEW.last_changed_via);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_status_history AFTER INSERT OR UPDATE OF status ON orders FOR EACH ROW EXECUTE FUNCTION record_order_status_change()`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE order_status_history`);
    await queryRunner.query(`DROP TABLE orders`);
    await queryRunner.query(`DROP FUNCTION record_order_status_change()`);
  }
}
