import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ORDER_COUNT_FOLD_LOCK_KEY } from './1763760000000-OrderListIndexes.js';

/**
 * `TRUNCATE orders` empties the order counters through its triggers. A fold under way at that moment had already
 * moved delta rows into new counter rows that the reset's first `DELETE` could not see; they survived its commit, and
 * the list's totals then counted orders that no longer existed, for good. The resets now take the folders' lock first
 * (waiting for a fold under way to commit, and keeping the next one out until the truncate commits), so each `DELETE`
 * sees every counter row there is.
 */
export class OrderCountResetWaitsForFold1763940000000 implements MigrationInterface {
  name = 'OrderCountResetWaitsForFold1763940000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(resetOrderCounts(`PERFORM pg_advisory_xact_lock(${ORDER_COUNT_FOLD_LOCK_KEY});`));
    await queryRunner.query(resetFragmentCounts(`PERFORM pg_advisory_xact_lock(${ORDER_COUNT_FOLD_LOCK_KEY});`));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(resetOrderCounts(''));
    await queryRunner.query(resetFragmentCounts(''));
  }
}

function resetOrderCounts(first: string): string {
  return `
    CREATE OR REPLACE FUNCTION reset_order_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${first}
      DELETE FROM order_count_day;
      DELETE FROM order_count_hour;
      DELETE FROM order_count_delta;
      RETURN NULL;
    END $$`;
}

function resetFragmentCounts(first: string): string {
  return `
    CREATE OR REPLACE FUNCTION reset_order_id_fragment_counts() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      ${first}
      DELETE FROM order_id_fragment_count;
      DELETE FROM order_id_fragment_delta;
      RETURN NULL;
    END $$`;
}
