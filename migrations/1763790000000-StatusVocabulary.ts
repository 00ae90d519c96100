import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The point-of-sale status vocabulary ("Status labels" in docs/api-decisions.md):
 * - `status_alias`: labels the platform's point-of-sale systems send, each meaning an order
 *   status, keyed by the label's match form (lower case, no accents, `_`/`-`/spaces as one
 *   space); loaded with the default aliases. A write notifies `status_aliases_changed`
 *   so that every instance drops its cached copy.
 * - The history keeps the label as sent (`label`) and the body's other properties (`extra`),
 *   given to the trigger through transaction-local settings by the status writer.
 * - Fulfillment records keep the properties of their body beyond the documented ones (`extra`).
 */
export class StatusVocabulary1763790000000 implements MigrationInterface {
  name = 'StatusVocabulary1763790000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE status_alias (
        match_key varchar(100) PRIMARY KEY,
        label varchar(100) NOT NULL,
        status varchar(30) NOT NULL,
        CONSTRAINT ck_status_alias_status CHECK (status IN ('RECEIVED', 'ENRICHED', 'ENRICHMENT_FAILED', 'FORWARDED', 'FORWARD_FAILED',
          'ACCEPTED', 'IN_PREPARATION', 'READY', 'DISPATCHED', 'DELIVERED', 'CANCELLED', 'REJECTED'))
      )`);
    await queryRunner.query(`
      INSERT INTO status_alias (match_key, label, status) VALUES
        ('pedido recibido', 'Pedido Recibido', 'ACCEPTED'),
        ('en preparacion', 'En Preparacion', 'IN_PREPARATION'),
        ('por asignar', 'Por Asignar', 'READY'),
        ('asignado', 'Asignado', 'READY'),
        ('en camino', 'En Camino', 'DISPATCHED'),
        ('entregado', 'Entregado', 'DELIVERED'),
        ('anulada', 'Anulada', 'CANCELLED'),
        ('anulado', 'Anulado', 'CANCELLED'),
        ('cancelado', 'Cancelado', 'CANCELLED'),
        ('rechazado', 'Rechazado', 'REJECTED')`);
    await queryRunner.query(`
      CREATE FUNCTION notify_status_aliases_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('status_aliases_changed', TG_TABLE_NAME);
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER trg_status_alias_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON status_alias FOR EACH STATEMENT EXECUTE FUNCTION notify_status_aliases_changed()`,
    );

    await queryRunner.query(`ALTER TABLE order_status_history ADD COLUMN label varchar(100), ADD COLUMN extra jsonb`);
    for (const table of ['order_tracking', 'order_transfer', 'order_dispatch']) {
      await queryRunner.query(`ALTER TABLE ${table} ADD COLUMN extra jsonb`);
    }
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION record_order_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via, label, extra)
          VALUES (NEW.id, NULL, NEW.status, NEW.last_changed_by, NEW.last_changed_via,
            NULLIF(current_setting('app.status_label', true), ''), NULLIF(current_setting('app.status_extra', true), '')::jsonb);
        ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via, label, extra)
          VALUES (NEW.id, OLD.status, NEW.status, NEW.last_changed_by, NEW.last_changed_via,
            NULLIF(current_setting('app.status_label', true), ''), NULLIF(current_setting('app.status_extra', true), '')::jsonb);
        END IF;
        RETURN NULL;
      END $$`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION record_order_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via)
          VALUES (NEW.id, NULL, NEW.status, NEW.last_changed_by, NEW.last_changed_via);
        ELSIF NEW.status IS DISTINCT FROM OLD.status THEN
          INSERT INTO order_status_history (order_db_id, from_status, to_status, client_id, via)
          VALUES (NEW.id, OLD.status, NEW.status, NEW.last_changed_by, NEW.last_changed_via);
        END IF;
        RETURN NULL;
      END $$`);
    for (const table of ['order_tracking', 'order_transfer', 'order_dispatch']) {
      await queryRunner.query(`ALTER TABLE ${table} DROP COLUMN extra`);
    }
    await queryRunner.query(`ALTER TABLE order_status_history DROP COLUMN label, DROP COLUMN extra`);
    await queryRunner.query(`DROP TRIGGER trg_status_alias_changed ON status_alias`);
    await queryRunner.query(`DROP FUNCTION notify_status_aliases_changed()`);
    await queryRunner.query(`DROP TABLE status_alias`);
  }
}
