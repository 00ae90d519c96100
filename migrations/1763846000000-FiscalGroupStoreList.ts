import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A group's stores were kept twice: the `stores` jsonb (`[{ store_id, store_name }]`, the order the
 * API answers) and `fiscal_group_store` (one row per store, the primary key holding a store to one
 * group). The table is now the one source: it takes each store's name and place in the list from
 * the jsonb, which is dropped. The NOTIFY trigger on the table already reports every change to it.
 */
export class FiscalGroupStoreList1763846000000 implements MigrationInterface {
  name = 'FiscalGroupStoreList1763846000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE fiscal_group_store ADD COLUMN store_name varchar(200), ADD COLUMN position integer`);
    await queryRunner.query(`
      UPDATE fiscal_group_store s SET store_name = listed.ref ->> 'store_name', position = listed.place - 1
      FROM fiscal_group g CROSS JOIN LATERAL jsonb_array_elements(g.stores) WITH ORDINALITY AS listed (ref, place)
      WHERE g.id = s.fiscal_group_id AND listed.ref ->> 'store_id' = s.store_id`);
    // Both were always written together; a row the list lacks (a hand-made one) keeps its place after the listed stores.
    await queryRunner.query(`
      UPDATE fiscal_group_store s SET store_name = coalesce(s.store_name, ''), position = coalesce(s.position, unlisted.place)
      FROM (
        SELECT store_id, 100000 + row_number() OVER (PARTITION BY fiscal_group_id ORDER BY store_id) AS place
        FROM fiscal_group_store WHERE position IS NULL OR store_name IS NULL
      ) AS unlisted
      WHERE s.store_id = unlisted.store_id`);
    await queryRunner.query(`ALTER TABLE fiscal_group_store ALTER COLUMN store_name SET NOT NULL, ALTER COLUMN position SET NOT NULL`);
    await queryRunner.query(`ALTER TABLE fiscal_group DROP COLUMN stores`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE fiscal_group ADD COLUMN stores jsonb NOT NULL DEFAULT '[]'`);
    await queryRunner.query(`
      UPDATE fiscal_group g SET stores = listed.stores
      FROM (
        SELECT fiscal_group_id, jsonb_agg(jsonb_build_object('store_id', store_id, 'store_name', store_name) ORDER BY position) AS stores
        FROM fiscal_group_store GROUP BY fiscal_group_id
      ) AS listed
      WHERE g.id = listed.fiscal_group_id`);
    await queryRunner.query(`ALTER TABLE fiscal_group_store DROP COLUMN position, DROP COLUMN store_name`);
  }
}
