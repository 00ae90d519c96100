import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The personal-data lookup (docs/personal-data.md): `personal_data_keys` holds the keyed hashes of the e-mails, phones
 * and CPF/CNPJ an order holds, written by the statement that stores the order; `ix_orders_personal_data_keys` finds a
 * person's orders through them. Null: an order stored before this column, which the backfill job has still to read
 * (`ix_orders_personal_data_unkeyed` finds them without a scan). `personal_data_erased_at`: when the order's personal
 * data was erased (by a request or by retention), so that a rerun skips it; `ix_orders_personal_data_held` finds the
 * oldest orders still holding it for the retention job.
 */
export class OrderPersonalDataKeys1763961000000 implements MigrationInterface {
  name = 'OrderPersonalDataKeys1763961000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders ADD COLUMN personal_data_keys text[], ADD COLUMN personal_data_erased_at timestamptz`);
    await queryRunner.query(
      `CREATE INDEX ix_orders_personal_data_keys ON orders USING gin (personal_data_keys) WITH (fastupdate = on) WHERE personal_data_keys IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX ix_orders_personal_data_unkeyed ON orders (id) WHERE personal_data_keys IS NULL`);
    await queryRunner.query(`CREATE INDEX ix_orders_personal_data_held ON orders (created_at) WHERE personal_data_erased_at IS NULL`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_orders_personal_data_held`);
    await queryRunner.query(`DROP INDEX ix_orders_personal_data_unkeyed`);
    await queryRunner.query(`DROP INDEX ix_orders_personal_data_keys`);
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN personal_data_erased_at, DROP COLUMN personal_data_keys`);
  }
}
