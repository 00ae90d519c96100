import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A store cannot squat another store's order id (docs/access.md, "An order id stored first by a store's client"): an
 * order stored first by a client limited to stores keeps that client in `intake_client_id` (null when an every-store
 * writer, the platform, stored it first or has written it since). When the platform sends that `orderId` for another
 * store, the earlier order moves to `<orderId>#moved-<n>`: the order ids get room for the suffix.
 */
export class OrderIdReclaim1763956000000 implements MigrationInterface {
  name = 'OrderIdReclaim1763956000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN intake_client_id varchar(20)`);
    // Widening a varchar neither rewrites the table nor rebuilds its indexes; the trigger naming the column goes meanwhile.
    await widenOrderIds(queryRunner, 120);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await widenOrderIds(queryRunner, 100);
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN intake_client_id`);
  }
}

async function widenOrderIds(queryRunner: QueryRunner, length: number): Promise<void> {
  await queryRunner.query(`DROP TRIGGER trg_orders_id_fragments_change ON orders`);
  await queryRunner.query(`ALTER TABLE orders ALTER COLUMN order_id TYPE varchar(${length})`);
  await queryRunner.query(`ALTER TABLE order_id_fragment_delta ALTER COLUMN order_id TYPE varchar(${length})`);
  await queryRunner.query(`
    CREATE TRIGGER trg_orders_id_fragments_change AFTER UPDATE OF order_id ON orders FOR EACH ROW
    WHEN (OLD.order_id IS DISTINCT FROM NEW.order_id) EXECUTE FUNCTION record_order_id_fragments()`);
}
