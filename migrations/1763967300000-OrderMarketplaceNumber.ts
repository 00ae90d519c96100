import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The marketplaces whose documents the enrichment reads (`?profile=`), as `orders.source` names them. */
const MARKETPLACES = `('ifood', 'rappi', '99food', 'opendelivery', 'keeta')`;

/**
 * The marketplace's own order number (docs/order-list.md, "Search"): iFood's and Open Delivery's (and Keeta's)
 * `displayId`, the short number the customer and the store see; Rappi's and 99Food's order id, which is the service's
 * `orderId` (99Food's is kept exact past 2^53 only there, never in the stored document). Only an order read through a
 * marketplace profile has one: its payload keeps the marketplace's document under `sourceOrder`.
 *
 * `order_marketplace_number()` is the one definition: the trigger runs it within the statement that stores or
 * rewrites the order (before the row is written, as `measure_order_payloads()` does), and this migration runs it once
 * over the orders already stored. `ix_orders_marketplace_number` serves the list's search box, newest first.
 */
export class OrderMarketplaceNumber1763967300000 implements MigrationInterface {
  name = 'OrderMarketplaceNumber1763967300000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN marketplace_order_number varchar(100)`);
    await queryRunner.query(`
      CREATE FUNCTION order_marketplace_number(source varchar, order_id varchar, payload jsonb) RETURNS varchar
      LANGUAGE sql IMMUTABLE AS $$
        SELECT CASE
          WHEN NOT (payload ? 'sourceOrder') THEN NULL
          WHEN source IN ('rappi', '99food') THEN order_id
          WHEN source IN ('ifood', 'opendelivery', 'keeta')
            AND jsonb_typeof(payload #> '{sourceOrder,displayId}') IN ('string', 'number')
            THEN nullif(left(payload #>> '{sourceOrder,displayId}', 100), '')
        END
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION set_order_marketplace_number() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.marketplace_order_number := order_marketplace_number(NEW.source, NEW.order_id, NEW.payload);
        RETURN NEW;
      END
      $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_marketplace_number BEFORE INSERT OR UPDATE OF payload, source, order_id ON orders ` +
        `FOR EACH ROW EXECUTE FUNCTION set_order_marketplace_number()`,
    );
    // Only the marketplaces' orders can have a number: the source index finds them without reading the others.
    await queryRunner.query(
      `UPDATE orders SET marketplace_order_number = order_marketplace_number(source, order_id, payload) ` +
        `WHERE source IN ${MARKETPLACES} AND payload ? 'sourceOrder'`,
    );
    await queryRunner.query(
      `CREATE INDEX ix_orders_marketplace_number ON orders (marketplace_order_number, created_at DESC, id DESC) ` +
        `WHERE marketplace_order_number IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_orders_marketplace_number`);
    await queryRunner.query(`DROP TRIGGER trg_orders_marketplace_number ON orders`);
    await queryRunner.query(`DROP FUNCTION set_order_marketplace_number()`);
    await queryRunner.query(`DROP FUNCTION order_marketplace_number(varchar, varchar, jsonb)`);
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN marketplace_order_number`);
  }
}
