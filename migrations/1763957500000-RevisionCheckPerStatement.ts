import type { MigrationInterface, QueryRunner } from 'typeorm';
import { FISCAL_GROUP_REVISIONS_LOCK_CLASS } from './1763957000000-RevisionInForceAtTaxInstant.js';

/** The in-force rule of RevisionInForceAtTaxInstant, unchanged; `$group`/`$at` name the arguments. */
const inForceQuery = (group: string, at: string) => `coalesce(
          (SELECT r.revision FROM fiscal_group_revision r
           WHERE r.fiscal_group_id = ${group} AND r.cancelled_at IS NULL AND r.kind <> 'delete' AND r.effective_from <= ${at}
           ORDER BY r.effective_from DESC, r.revision DESC LIMIT 1),
          (SELECT r.revision FROM fiscal_group_revision r
           WHERE r.fiscal_group_id = ${group} AND r.cancelled_at IS NULL AND r.kind <> 'delete'
           ORDER BY r.effective_from, r.revision LIMIT 1))`;

/**
 * The revision check of an order's storing statement ("Which revision taxes an order" in
 * docs/fiscal-configuration-over-time.md) at a fraction of its cost, with the same guarantee:
 *
 * - `fiscal_group_revision_in_force` becomes PL/pgSQL, same rule. As a SQL function that cannot be inlined (it has
 *   subqueries), every statement that called it parsed and planned its body again: per order, since
 *   `fiscal_revision_taxes_at` calls it from a query of its own, most of the check's time. PL/pgSQL
 *   keeps its plan for the connection's life.
 * - `fiscal_revisions_tax_at(groups, instants, revisions)`: the check of a whole group-commit statement, called once
 *   per statement instead of once per order. It takes each group's revisions lock shared once (in group order), then
 *   reads the revision table in a query of its own, so (READ COMMITTED) it sees every revision write or cancellation
 *   that committed before the locks were granted, as `fiscal_revision_taxes_at` does; it reads it once per distinct
 *   group and instant. The answer: per entry, whether its revision is the one in force at its instant (true for an
 *   entry without a group).
 */
export class RevisionCheckPerStatement1763957500000 implements MigrationInterface {
  name = 'RevisionCheckPerStatement1763957500000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION fiscal_group_revision_in_force(group_id uuid, at timestamptz) RETURNS integer
      LANGUAGE plpgsql STABLE AS $$
      BEGIN
        RETURN ${inForceQuery('fiscal_group_revision_in_force.group_id', 'fiscal_group_revision_in_force.at')};
      END $$`);
    await queryRunner.query(`
      CREATE FUNCTION fiscal_revisions_tax_at(group_ids uuid[], instants timestamptz[], named integer[]) RETURNS boolean[]
      LANGUAGE plpgsql VOLATILE AS $$
      DECLARE
        verdicts boolean[];
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(${FISCAL_GROUP_REVISIONS_LOCK_CLASS}, hashtext(g.id::text))
        FROM (SELECT DISTINCT id FROM unnest(group_ids) AS id WHERE id IS NOT NULL ORDER BY id) AS g;
        -- A query of its own: in READ COMMITTED it sees what committed before the locks were granted.
        WITH wanted AS (
          SELECT * FROM unnest(group_ids, instants, named) WITH ORDINALITY AS w(group_id, at, revision, n)
        ), in_force AS (
          SELECT d.group_id, d.at, fiscal_group_revision_in_force(d.group_id, d.at) AS revision
          FROM (SELECT DISTINCT w.group_id, w.at FROM wanted w WHERE w.group_id IS NOT NULL) AS d
        )
        SELECT array_agg(w.group_id IS NULL OR f.revision IS NOT DISTINCT FROM w.revision ORDER BY w.n) INTO verdicts
        FROM wanted w
        LEFT JOIN in_force f ON f.group_id = w.group_id AND f.at IS NOT DISTINCT FROM w.at;
        RETURN verdicts;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP FUNCTION fiscal_revisions_tax_at(uuid[], timestamptz[], integer[])`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION fiscal_group_revision_in_force(group_id uuid, at timestamptz) RETURNS integer
      LANGUAGE sql STABLE AS $$
        SELECT ${inForceQuery('group_id', 'at')}
      $$`);
  }
}
