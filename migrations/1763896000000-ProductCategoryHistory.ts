import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The history of the product fiscal categories (docs/fiscal-configuration-over-time.md): one row per
 * creation, change and deletion, with its time, its actor and the fields before and after. A trigger on
 * `product_fiscal_category` writes the row in the statement's own transaction, so a write through the
 * service, the demo seeding or SQL by hand is kept alike; the service names its actor first in
 * transaction-local settings (none for the others). Append-only: a trigger refuses UPDATE and DELETE.
 * Existing categories get an `initial` row, as they are now, at their last change.
 */
export class ProductCategoryHistory1763896000000 implements MigrationInterface {
  name = 'ProductCategoryHistory1763896000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No foreign key to product_fiscal_category: a deleted category's history stays readable.
    await queryRunner.query(`
      CREATE TABLE product_fiscal_category_history (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        product_id varchar(100) NOT NULL,
        kind varchar(10) NOT NULL
          CONSTRAINT ck_product_fiscal_category_history_kind CHECK (kind IN ('initial', 'create', 'update', 'delete')),
        changed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor_type varchar(10) CONSTRAINT ck_product_fiscal_category_history_actor_type CHECK (actor_type IN ('client', 'user')),
        actor_id varchar(100),
        actor_name varchar(200),
        product_name_before varchar(300),
        product_name_after varchar(300),
        ncm_before char(8),
        ncm_after char(8),
        external_product_id_before varchar(100),
        external_product_id_after varchar(100)
      )`);
    await queryRunner.query(`CREATE INDEX ix_product_fiscal_category_history_product ON product_fiscal_category_history (product_id, id)`);
    await queryRunner.query(`
      CREATE FUNCTION product_fiscal_category_history_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'product fiscal category history is append-only' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER product_fiscal_category_history_append_only BEFORE UPDATE OR DELETE ON product_fiscal_category_history
      FOR EACH ROW EXECUTE FUNCTION product_fiscal_category_history_append_only()`);

    await queryRunner.query(`
      INSERT INTO product_fiscal_category_history (product_id, kind, changed_at, product_name_after, ncm_after, external_product_id_after)
      SELECT product_id, 'initial', updated_at, product_name, ncm, external_product_id FROM product_fiscal_category ORDER BY product_id`);

    // The actor is read from settings the service sets for its transaction only (set_config(..., true)); empty or unset: none.
    await queryRunner.query(`
      CREATE FUNCTION product_fiscal_category_history_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        actor_type text := nullif(current_setting('product_category_history.actor_type', true), '');
        actor_id text := nullif(current_setting('product_category_history.actor_id', true), '');
        actor_name text := nullif(current_setting('product_category_history.actor_name', true), '');
      BEGIN
        IF TG_OP = 'UPDATE' AND (NEW.product_id, NEW.product_name, NEW.ncm, NEW.external_product_id)
            IS NOT DISTINCT FROM (OLD.product_id, OLD.product_name, OLD.ncm, OLD.external_product_id) THEN
          RETURN NULL;
        END IF;
        IF TG_OP = 'UPDATE' AND NEW.product_id IS DISTINCT FROM OLD.product_id THEN
          -- A product id changed by hand: the old one ends, the new one begins.
          INSERT INTO product_fiscal_category_history (product_id, kind, actor_type, actor_id, actor_name,
            product_name_before, ncm_before, external_product_id_before)
          VALUES (OLD.product_id, 'delete', actor_type, actor_id, actor_name, OLD.product_name, OLD.ncm, OLD.external_product_id);
          INSERT INTO product_fiscal_category_history (product_id, kind, actor_type, actor_id, actor_name,
            product_name_after, ncm_after, external_product_id_after)
          VALUES (NEW.product_id, 'create', actor_type, actor_id, actor_name, NEW.product_name, NEW.ncm, NEW.external_product_id);
          RETURN NULL;
        END IF;
        IF TG_OP = 'INSERT' THEN
          INSERT INTO product_fiscal_category_history (product_id, kind, actor_type, actor_id, actor_name,
            product_name_after, ncm_after, external_product_id_after)
          VALUES (NEW.product_id, 'create', actor_type, actor_id, actor_name, NEW.product_name, NEW.ncm, NEW.external_product_id);
        ELSIF TG_OP = 'UPDATE' THEN
          INSERT INTO product_fiscal_category_history (product_id, kind, actor_type, actor_id, actor_name,
            product_name_before, product_name_after, ncm_before, ncm_after, external_product_id_before, external_product_id_after)
          VALUES (NEW.product_id, 'update', actor_type, actor_id, actor_name, OLD.product_name, NEW.product_name,
            OLD.ncm, NEW.ncm, OLD.external_product_id, NEW.external_product_id);
        ELSE
          INSERT INTO product_fiscal_category_history (product_id, kind, actor_type, actor_id, actor_name,
            product_name_before, ncm_before, external_product_id_before)
          VALUES (OLD.product_id, 'delete', actor_type, actor_id, actor_name, OLD.product_name, OLD.ncm, OLD.external_product_id);
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER product_fiscal_category_history_of_row AFTER INSERT OR UPDATE OR DELETE ON product_fiscal_category
      FOR EACH ROW EXECUTE FUNCTION product_fiscal_category_history_of_row()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER product_fiscal_category_history_of_row ON product_fiscal_category`);
    await queryRunner.query(`DROP FUNCTION product_fiscal_category_history_of_row()`);
    await queryRunner.query(`DROP TABLE product_fiscal_category_history`);
    await queryRunner.query(`DROP FUNCTION product_fiscal_category_history_append_only()`);
  }
}
