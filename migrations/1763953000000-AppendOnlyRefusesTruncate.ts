import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The append-only tables: their row triggers refuse UPDATE and DELETE, but TRUNCATE fires no row trigger. */
const APPEND_ONLY_TABLES = ['audit_event', 'fiscal_group_revision', 'product_fiscal_category_history'] as const;

/**
 * Append-only means append-only: `TRUNCATE` on the audit log, the fiscal group revisions and the product category
 * history emptied them at once, past the row triggers that refuse every other removal. A statement trigger now
 * refuses it too (also through `TRUNCATE ... CASCADE` from another table). The audit log's retention job deletes
 * row by row, as before, and is not affected.
 */
export class AppendOnlyRefusesTruncate1763953000000 implements MigrationInterface {
  name = 'AppendOnlyRefusesTruncate1763953000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION append_only_refuse_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION '% is append-only: TRUNCATE is refused', TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
      END $$`);
    for (const table of APPEND_ONLY_TABLES) {
      await queryRunner.query(
        `CREATE TRIGGER ${table}_refuse_truncate BEFORE TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION append_only_refuse_truncate()`,
      );
    }
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of APPEND_ONLY_TABLES) await queryRunner.query(`DROP TRIGGER ${table}_refuse_truncate ON ${table}`);
    await queryRunner.query(`DROP FUNCTION append_only_refuse_truncate()`);
  }
}
