import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A primary key for the two order counter tables that had none, so that they have an entity like
 * every other table (TypeORM needs a key to describe a table). The counters' own unique key stays
 * what `fold_order_counts()` upserts on; the trigger and the fold name their columns, so they are
 * unchanged. The delta table is emptied every few seconds: its key's index stays tiny.
 */
export class CounterKeys1763845000000 implements MigrationInterface {
  name = 'CounterKeys1763845000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE order_count_day ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT pk_order_count_day PRIMARY KEY`,
    );
    await queryRunner.query(
      `ALTER TABLE order_count_delta ADD COLUMN id bigint GENERATED ALWAYS AS IDENTITY CONSTRAINT pk_order_count_delta PRIMARY KEY`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE order_count_delta DROP COLUMN id`);
    await queryRunner.query(`ALTER TABLE order_count_day DROP COLUMN id`);
  }
}
