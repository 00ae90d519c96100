import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Any write to the fiscal configuration (API, CLI, seeding, another instance, SQL by hand)
 * notifies `fiscal_config_changed`, so that every instance drops its cached copy.
 */
export class FiscalChangeNotifications1763745000000 implements MigrationInterface {
  name = 'FiscalChangeNotifications1763745000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION notify_fiscal_config_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('fiscal_config_changed', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    for (const table of ['fiscal_group', 'fiscal_group_store', 'product_fiscal_category']) {
      await queryRunner.query(
        `CREATE TRIGGER trg_${table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION notify_fiscal_config_changed()`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of ['fiscal_group', 'fiscal_group_store', 'product_fiscal_category']) {
      await queryRunner.query(`DROP TRIGGER trg_${table}_changed ON ${table}`);
    }
    await queryRunner.query(`DROP FUNCTION notify_fiscal_config_changed()`);
  }
}
