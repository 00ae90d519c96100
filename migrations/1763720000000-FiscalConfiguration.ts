import type { MigrationInterface, QueryRunner } from 'typeorm';

export class FiscalConfiguration1763720000000 implements MigrationInterface {
  name = 'FiscalConfiguration1763720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE fiscal_group (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        external_id varchar(100),
        name varchar(200) NOT NULL,
        uf char(2) NOT NULL,
        tax_regime varchar(50),
        stores jsonb NOT NULL DEFAULT '[]',
        tax_matrix jsonb NOT NULL DEFAULT '{}',
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX uq_fiscal_group_external_id ON fiscal_group (external_id) WHERE external_id IS NOT NULL`);
    await queryRunner.query(`CREATE INDEX ix_fiscal_group_uf_created ON fiscal_group (uf, created_at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX ix_fiscal_group_created ON fiscal_group (created_at DESC, id DESC)`);
    // One row per store a group holds: the primary key makes a store belong to at most one group,
    // even under concurrent writes, and serves the order path's lookup by store id.
    await queryRunner.query(`
      CREATE TABLE fiscal_group_store (
        store_id varchar(100) PRIMARY KEY,
        fiscal_group_id uuid NOT NULL REFERENCES fiscal_group (id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX ix_fiscal_group_store_group ON fiscal_group_store (fiscal_group_id)`);
    await queryRunner.query(`
      CREATE TABLE product_fiscal_category (
        product_id varchar(100) PRIMARY KEY,
        product_name varchar(300) NOT NULL,
        ncm char(8) NOT NULL,
        external_product_id varchar(100),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ck_product_fiscal_category_ncm CHECK (ncm ~ '^[0-9]{8}$')
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX uq_product_fiscal_category_external_product_id ON product_fiscal_category (external_product_id) WHERE external_product_id IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE product_fiscal_category`);
    await queryRunner.query(`DROP TABLE fiscal_group_store`);
    await queryRunner.query(`DROP TABLE fiscal_group`);
  }
}
