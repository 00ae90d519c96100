import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Fulfillment records: tracking updates, store transfers and pickup dispatches of an
 * order, each kept as history (oldest first by `id`) and gone with the order (ON DELETE CASCADE).
 * The order-detail route reads `order_tracking` and `order_transfer` by these names.
 */
export class Fulfillment1763770000000 implements MigrationInterface {
  name = 'Fulfillment1763770000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE order_tracking (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_db_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        status varchar(100) NOT NULL,
        order_status_applied boolean NOT NULL DEFAULT false,
        trackurl text,
        tracking_number varchar(200),
        delivery_confirmation_code varchar(200),
        shipping_coordinates jsonb NOT NULL DEFAULT '[]',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        client_id varchar(20)
      )`);
    await queryRunner.query(`CREATE INDEX ix_order_tracking_order ON order_tracking (order_db_id, id)`);
    await queryRunner.query(`
      CREATE TABLE order_transfer (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_db_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        from_store varchar(100) NOT NULL,
        to_store varchar(100) NOT NULL,
        from_store_id varchar(100),
        to_store_id varchar(100) NOT NULL,
        processed_by varchar(200) NOT NULL,
        transfer_reason varchar(1000) NOT NULL,
        shipping_address jsonb,
        refiscalized boolean NOT NULL,
        from_fiscal_group_id uuid,
        to_fiscal_group_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        client_id varchar(20)
      )`);
    await queryRunner.query(`CREATE INDEX ix_order_transfer_order ON order_transfer (order_db_id, id)`);
    await queryRunner.query(`
      CREATE TABLE order_dispatch (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        order_db_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
        id_transaccion varchar(100) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        client_id varchar(20),
        CONSTRAINT uq_order_dispatch_transaction UNIQUE (order_db_id, id_transaccion)
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE order_dispatch`);
    await queryRunner.query(`DROP TABLE order_transfer`);
    await queryRunner.query(`DROP TABLE order_tracking`);
  }
}
