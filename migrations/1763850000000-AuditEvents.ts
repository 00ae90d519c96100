import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log: one row per change made through the API or the console. Append-only: a trigger
 * refuses every UPDATE, and every DELETE except the retention job's, which says so with
 * `SET LOCAL audit.retention = 'on'` and only removes events older than the retention.
 */
export class AuditEvents1763850000000 implements MigrationInterface {
  name = 'AuditEvents1763850000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE audit_event (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT clock_timestamp(),
        actor_type varchar(10) NOT NULL CONSTRAINT ck_audit_event_actor_type CHECK (actor_type IN ('client', 'user')),
        actor_id varchar(100) NOT NULL,
        actor_name varchar(200) NOT NULL,
        action varchar(60) NOT NULL,
        target_type varchar(40) NOT NULL,
        target_id varchar(200) NOT NULL,
        changes jsonb NOT NULL,
        request_id varchar(200),
        address varchar(100)
      )`);
    await queryRunner.query(`CREATE INDEX ix_audit_event_at ON audit_event (at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX ix_audit_event_target ON audit_event (target_type, target_id, at DESC, id DESC)`);
    await queryRunner.query(`CREATE INDEX ix_audit_event_actor ON audit_event (actor_type, actor_id, at DESC, id DESC)`);
    await queryRunner.query(`
      CREATE FUNCTION audit_event_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('audit.retention', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit events are append-only' USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER audit_event_append_only BEFORE UPDATE OR DELETE ON audit_event
      FOR EACH ROW EXECUTE FUNCTION audit_event_append_only()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE audit_event`);
    await queryRunner.query(`DROP FUNCTION audit_event_append_only()`);
  }
}
