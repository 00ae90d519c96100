import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `orders.transferred_at`: when a transfer last moved the order to another store. A re-sent
 * order keeps the store a transfer moved it to; the order upsert checks this column on the
 * locked row (a subquery on `order_transfer` would not see a transfer committed meanwhile).
 */
export class OrderTransferredAt1763780000000 implements MigrationInterface {
  name = 'OrderTransferredAt1763780000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN transferred_at timestamptz`);
    await queryRunner.query(`
      UPDATE orders o SET transferred_at = moved.at
      FROM (SELECT order_db_id, max(created_at) AS at FROM order_transfer GROUP BY order_db_id) AS moved
      WHERE moved.order_db_id = o.id`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN transferred_at`);
  }
}
