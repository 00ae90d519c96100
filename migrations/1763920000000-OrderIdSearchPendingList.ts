import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The orderId substring index (`ix_orders_order_id_trgm`, GIN over trigrams) takes new entries into a small pending
 * list (64 kB) and merges them into the tree a list at a time. With the list off, every new row version of an order
 * wrote its trigram entries into the tree one by one: an order's insert, and again each forward attempt, status
 * change or transfer, since those updates are never HOT (they change the list indexes' columns). Merging a list of
 * a few hundred orders at once is cheaper per entry. The list is kept small so that the request which finds it full
 * and merges it waits only a few milliseconds, and so that each search, which reads the whole list, reads little.
 * Measured in docs/performance.md ("The orderId index's pending list").
 */
export class OrderIdSearchPendingList1763920000000 implements MigrationInterface {
  name = 'OrderIdSearchPendingList1763920000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX ix_orders_order_id_trgm SET (fastupdate = on, gin_pending_list_limit = 64)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER INDEX ix_orders_order_id_trgm SET (fastupdate = off)`);
    await queryRunner.query(`ALTER INDEX ix_orders_order_id_trgm RESET (gin_pending_list_limit)`);
    // Turning the list off does not empty it: its entries go into the tree now.
    await queryRunner.query(`SELECT gin_clean_pending_list('ix_orders_order_id_trgm'::regclass)`);
  }
}
