import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The fiscal groups' revisions (docs/fiscal-configuration-over-time.md): every write to a group keeps
 * the whole group as it then is, with its actor and the instant it takes effect. Append-only: a
 * trigger refuses every DELETE and every UPDATE but the cancellation of a revision not yet in force.
 * Existing groups get their first revision, as they are now, in force since their last change. Orders keep
 * their tax instant and the revision that taxed them.
 */
export class FiscalGroupRevisions1763890000000 implements MigrationInterface {
  name = 'FiscalGroupRevisions1763890000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // No foreign key to fiscal_group: the revisions of a deleted group stay readable.
    await queryRunner.query(`
      CREATE TABLE fiscal_group_revision (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        fiscal_group_id uuid NOT NULL,
        revision integer NOT NULL,
        kind varchar(20) NOT NULL
          CONSTRAINT ck_fiscal_group_revision_kind CHECK (kind IN ('initial', 'create', 'update', 'import-matrix', 'delete')),
        actor_type varchar(10) CONSTRAINT ck_fiscal_group_revision_actor_type CHECK (actor_type IN ('client', 'user')),
        actor_id varchar(100),
        actor_name varchar(200),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        effective_from timestamptz NOT NULL,
        snapshot jsonb NOT NULL,
        cancelled_at timestamptz,
        cancelled_by_type varchar(10),
        cancelled_by_id varchar(100),
        cancelled_by_name varchar(200),
        CONSTRAINT uq_fiscal_group_revision UNIQUE (fiscal_group_id, revision)
      )`);
    await queryRunner.query(`CREATE INDEX ix_fiscal_group_revision_effective ON fiscal_group_revision (fiscal_group_id, effective_from)`);
    await queryRunner.query(`
      CREATE FUNCTION fiscal_group_revision_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'UPDATE' AND OLD.cancelled_at IS NULL AND NEW.cancelled_at IS NOT NULL AND OLD.effective_from > clock_timestamp()
           AND (NEW.id, NEW.fiscal_group_id, NEW.revision, NEW.kind, NEW.actor_type, NEW.actor_id, NEW.actor_name,
                NEW.created_at, NEW.effective_from, NEW.snapshot)
               IS NOT DISTINCT FROM
               (OLD.id, OLD.fiscal_group_id, OLD.revision, OLD.kind, OLD.actor_type, OLD.actor_id, OLD.actor_name,
                OLD.created_at, OLD.effective_from, OLD.snapshot) THEN
          RETURN NEW;
        END IF;
        RAISE EXCEPTION 'fiscal group revisions are append-only (only a revision not yet in force may be cancelled)'
          USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER fiscal_group_revision_append_only BEFORE UPDATE OR DELETE ON fiscal_group_revision
      FOR EACH ROW EXECUTE FUNCTION fiscal_group_revision_append_only()`);
    // A new or cancelled revision changes what the order path must pick: every instance drops its cache.
    await queryRunner.query(
      `CREATE TRIGGER trg_fiscal_group_revision_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fiscal_group_revision FOR EACH STATEMENT EXECUTE FUNCTION notify_fiscal_config_changed()`,
    );

    await queryRunner.query(`ALTER TABLE fiscal_group ADD COLUMN revision integer`);
    await queryRunner.query(`
      INSERT INTO fiscal_group_revision (fiscal_group_id, revision, kind, effective_from, snapshot)
      SELECT g.id, 1, 'initial', g.updated_at, jsonb_build_object(
        'externalId', g.external_id, 'name', g.name, 'uf', g.uf, 'taxRegime', g.tax_regime,
        'settings', g.settings, 'taxMatrix', g.tax_matrix,
        'stores', coalesce((SELECT jsonb_agg(jsonb_build_object('store_id', s.store_id, 'store_name', s.store_name) ORDER BY s.position)
                            FROM fiscal_group_store s WHERE s.fiscal_group_id = g.id), '[]'::jsonb))
      FROM fiscal_group g`);
    await queryRunner.query(`UPDATE fiscal_group SET revision = 1`);
    // A group written outside the service (SQL by hand, the test factories) gets its revision all the same, without an
    // actor, in force at once: the order path reads revisions. The service numbers its own writes (NEW.revision set).
    await queryRunner.query(`
      CREATE FUNCTION fiscal_group_revision_of_row() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        next_revision integer;
      BEGIN
        IF TG_OP = 'INSERT' AND NEW.revision IS NOT NULL THEN
          RETURN NEW;
        END IF;
        IF TG_OP = 'UPDATE' AND (NEW.revision IS DISTINCT FROM OLD.revision
            OR (NEW.external_id, NEW.name, NEW.uf, NEW.tax_regime, NEW.settings, NEW.tax_matrix)
               IS NOT DISTINCT FROM (OLD.external_id, OLD.name, OLD.uf, OLD.tax_regime, OLD.settings, OLD.tax_matrix)) THEN
          RETURN NEW;
        END IF;
        SELECT coalesce(max(revision), 0) + 1 INTO next_revision FROM fiscal_group_revision WHERE fiscal_group_id = NEW.id;
        INSERT INTO fiscal_group_revision (fiscal_group_id, revision, kind, effective_from, snapshot)
        VALUES (NEW.id, next_revision, CASE WHEN TG_OP = 'INSERT' THEN 'create' ELSE 'update' END,
          date_trunc('milliseconds', clock_timestamp()),
          jsonb_build_object(
            'externalId', NEW.external_id, 'name', NEW.name, 'uf', NEW.uf, 'taxRegime', NEW.tax_regime,
            'settings', NEW.settings, 'taxMatrix', NEW.tax_matrix,
            'stores', coalesce((SELECT jsonb_agg(jsonb_build_object('store_id', s.store_id, 'store_name', s.store_name) ORDER BY s.position)
                                FROM fiscal_group_store s WHERE s.fiscal_group_id = NEW.id), '[]'::jsonb)));
        NEW.revision := next_revision;
        RETURN NEW;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER fiscal_group_revision_of_row BEFORE INSERT OR UPDATE ON fiscal_group
      FOR EACH ROW EXECUTE FUNCTION fiscal_group_revision_of_row()`);

    await queryRunner.query(`ALTER TABLE orders ADD COLUMN tax_instant timestamptz, ADD COLUMN fiscal_group_revision integer`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE orders DROP COLUMN tax_instant, DROP COLUMN fiscal_group_revision`);
    await queryRunner.query(`DROP TRIGGER fiscal_group_revision_of_row ON fiscal_group`);
    await queryRunner.query(`DROP FUNCTION fiscal_group_revision_of_row()`);
    await queryRunner.query(`ALTER TABLE fiscal_group DROP COLUMN revision`);
    await queryRunner.query(`DROP TABLE fiscal_group_revision`);
    await queryRunner.query(`DROP FUNCTION fiscal_group_revision_append_only()`);
  }
}
