import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * First key of the two-key transaction advisory lock on one fiscal group's revisions (the second key is the group id's
 * `hashtext`): a revision write or cancellation holds it exclusively, an order's storing statement shares it.
 */
export const FISCAL_GROUP_REVISIONS_LOCK_CLASS = 7_310_090;

/**
 * An order names the revision the revision table says was in force at its tax instant, whichever instance taxed it and
 * however fresh its cache ("Which revision taxes an order" in docs/fiscal-configuration-over-time.md):
 *
 * - `fiscal_group_revision_in_force(group, at)`: the table's answer, as the order path picks among its cached revisions
 *   (the last one not cancelled that took effect at or before `at`, on equal instants the later revision; before the
 *   first revision, the first one).
 * - `fiscal_revision_taxes_at(group, at, revision)`: whether `revision` is that answer, read after taking the group's
 *   revisions lock shared. The order's storing statement stores nothing otherwise. A writer of revisions holds the lock
 *   exclusively until its commit, so the check either waits for the writer and then reads the new revision (its query
 *   runs with a snapshot taken after the wait: a volatile function's), or commits before the writer reads the orders.
 * - `ix_orders_dated_ahead`: the orders whose tax instant is later than their row's creation (dated ahead of their
 *   receipt). Only they can be taxed at an instant that is still to come: the writer reads them to make a revision
 *   take effect after every order already taxed, and a cancellation to find whether an order names the revision.
 */
export class RevisionInForceAtTaxInstant1763957000000 implements MigrationInterface {
  name = 'RevisionInForceAtTaxInstant1763957000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION fiscal_group_revision_in_force(group_id uuid, at timestamptz) RETURNS integer
      LANGUAGE sql STABLE AS $$
        SELECT coalesce(
          (SELECT r.revision FROM fiscal_group_revision r
           WHERE r.fiscal_group_id = group_id AND r.cancelled_at IS NULL AND r.kind <> 'delete' AND r.effective_from <= at
           ORDER BY r.effective_from DESC, r.revision DESC LIMIT 1),
          (SELECT r.revision FROM fiscal_group_revision r
           WHERE r.fiscal_group_id = group_id AND r.cancelled_at IS NULL AND r.kind <> 'delete'
           ORDER BY r.effective_from, r.revision LIMIT 1))
      $$`);
    await queryRunner.query(`
      CREATE FUNCTION fiscal_revision_taxes_at(group_id uuid, at timestamptz, named integer) RETURNS boolean
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        in_force integer;
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(${FISCAL_GROUP_REVISIONS_LOCK_CLASS}, hashtext(group_id::text));
        -- A query of its own: in READ COMMITTED it sees what committed before the lock was granted.
        SELECT fiscal_group_revision_in_force(group_id, at) INTO in_force;
        RETURN in_force IS NOT DISTINCT FROM named;
      END $$`);
    await queryRunner.query(
      `CREATE INDEX ix_orders_dated_ahead ON orders (fiscal_group_id, tax_instant) INCLUDE (fiscal_group_revision)
       WHERE tax_instant > created_at`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX ix_orders_dated_ahead`);
    await queryRunner.query(`DROP FUNCTION fiscal_revision_taxes_at(uuid, timestamptz, integer)`);
    await queryRunner.query(`DROP FUNCTION fiscal_group_revision_in_force(uuid, timestamptz)`);
  }
}
