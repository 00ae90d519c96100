import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `orders.payload_bytes`: the bytes of the order's two JSON documents as text (what the admin
 * routes send), kept by a trigger on every write of them. The list and the detail read it to
 * leave out an order too large to send without converting it to text first: the stored
 * (compressed) size says nothing of a compressible order of 60 MB.
 *
 * Stored rows are not measured here: that rewrites every order (about 6 minutes per million,
 * with writes to existing orders blocked meanwhile). They stay NULL and OrderPayloadMeasurer
 * measures them after start, in short batches; `ix_orders_payload_unmeasured` finds them, and
 * is empty once they are done.
 */
export class OrderPayloadBytes1763830000000 implements MigrationInterface {
  name = 'OrderPayloadBytes1763830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN payload_bytes bigint`);
    await queryRunner.query(`
      CREATE FUNCTION measure_order_payloads() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.payload_bytes := octet_length(NEW.payload::text) + coalesce(octet_length(NEW.enriched_payload::text), 0);
        RETURN NEW;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_orders_payload_bytes BEFORE INSERT OR UPDATE OF payload, enriched_payload ON orders ` +
        `FOR EACH ROW EXECUTE FUNCTION measure_order_payloads()`,
    );
    await queryRunner.query(`CREATE INDEX ix_orders_payload_unmeasured ON orders (id) WHERE payload_bytes IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_orders_payload_unmeasured`);
    await queryRunner.query(`DROP TRIGGER trg_orders_payload_bytes ON orders`);
    await queryRunner.query(`DROP FUNCTION measure_order_payloads()`);
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN payload_bytes`);
  }
}
