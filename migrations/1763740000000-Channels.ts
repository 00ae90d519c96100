import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stores and sales channels (`POST /v3/channels-stores`, "Stores and sales channels" in docs/api-decisions.md). Every row hanging off a store
 * or a channel goes with it (ON DELETE CASCADE). `ordinal` keeps the order of the request; `extra`
 * keeps the properties the spec does not list, so that GET returns them.
 */
export class Channels1763740000000 implements MigrationInterface {
  name = 'Channels1763740000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE channel_store_config (
        id smallint PRIMARY KEY DEFAULT 1,
        extra jsonb NOT NULL DEFAULT '{}',
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT ck_channel_store_config_single_row CHECK (id = 1)
      )`);
    await queryRunner.query(`
      CREATE TABLE sales_channel (
        channel_id varchar(100) PRIMARY KEY,
        ordinal integer NOT NULL,
        active boolean,
        channel text,
        vendor_id bigint,
        channel_reference_name text,
        media_id text,
        media_name text,
        extra jsonb NOT NULL DEFAULT '{}'
      )`);
    await queryRunner.query(`
      CREATE TABLE sales_channel_related_list (
        channel_id varchar(100) NOT NULL,
        ordinal integer NOT NULL,
        list_id text NOT NULL,
        list_name text,
        CONSTRAINT pk_sales_channel_related_list PRIMARY KEY (channel_id, ordinal),
        CONSTRAINT fk_sales_channel_related_list_channel FOREIGN KEY (channel_id) REFERENCES sales_channel (channel_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE store (
        store_id bigint PRIMARY KEY,
        ordinal integer NOT NULL,
        name text,
        active boolean,
        vendor_id bigint,
        store_code text,
        tax_rate numeric,
        vat_rate_percentage numeric,
        phone text,
        address text,
        cook_time text,
        delivery_id bigint,
        minimum_order numeric,
        shipping_cost numeric,
        city text,
        latitude varchar(40),
        longitude varchar(40),
        extra jsonb NOT NULL DEFAULT '{}',
        CONSTRAINT ck_store_minimum_order CHECK (minimum_order >= 0)
      )`);
    await queryRunner.query(`
      CREATE TABLE store_service (
        store_id bigint NOT NULL,
        ordinal integer NOT NULL,
        name text NOT NULL,
        active boolean,
        CONSTRAINT pk_store_service PRIMARY KEY (store_id, ordinal),
        CONSTRAINT fk_store_service_store FOREIGN KEY (store_id) REFERENCES store (store_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`
      CREATE TABLE store_channel (
        store_id bigint NOT NULL,
        channel_id varchar(100) NOT NULL,
        ordinal integer NOT NULL,
        CONSTRAINT pk_store_channel PRIMARY KEY (store_id, channel_id),
        CONSTRAINT fk_store_channel_store FOREIGN KEY (store_id) REFERENCES store (store_id) ON DELETE CASCADE,
        CONSTRAINT fk_store_channel_channel FOREIGN KEY (channel_id) REFERENCES sales_channel (channel_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX ix_store_channel_channel_id ON store_channel (channel_id)`);

    const scheduleColumns = `
        day varchar(9) NOT NULL,
        start_time varchar(5) NOT NULL,
        end_time varchar(5) NOT NULL,
        start_date date,
        end_date date`;
    const scheduleChecks = (table: string) => `
        CONSTRAINT ck_${table}_day CHECK (day IN ('MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY', 'SPECIAL')),
        CONSTRAINT ck_${table}_start_time CHECK (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT ck_${table}_end_time CHECK (end_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
        CONSTRAINT ck_${table}_dates CHECK (day = 'SPECIAL' OR (start_date IS NULL AND end_date IS NULL))`;

    // Opening hours of the store itself (the platform's store-level \`schedules\`).
    await queryRunner.query(`
      CREATE TABLE store_schedule (
        store_id bigint NOT NULL,
        ordinal integer NOT NULL,${scheduleColumns},
        CONSTRAINT pk_store_schedule PRIMARY KEY (store_id, ordinal),
        CONSTRAINT fk_store_schedule_store FOREIGN KEY (store_id) REFERENCES store (store_id) ON DELETE CASCADE,${scheduleChecks('store_schedule')}
      )`);
    // \`schedulesByChannel\`: one group per entry, its schedules below.
    await queryRunner.query(`
      CREATE TABLE store_channel_schedule_group (
        store_id bigint NOT NULL,
        ordinal integer NOT NULL,
        channel_id varchar(100) NOT NULL,
        CONSTRAINT pk_store_channel_schedule_group PRIMARY KEY (store_id, ordinal),
        CONSTRAINT fk_store_channel_schedule_group_store FOREIGN KEY (store_id) REFERENCES store (store_id) ON DELETE CASCADE,
        CONSTRAINT fk_store_channel_schedule_group_channel FOREIGN KEY (channel_id) REFERENCES sales_channel (channel_id) ON DELETE CASCADE
      )`);
    await queryRunner.query(`CREATE INDEX ix_store_channel_schedule_group_channel_id ON store_channel_schedule_group (channel_id)`);
    await queryRunner.query(`
      CREATE TABLE store_channel_schedule (
        store_id bigint NOT NULL,
        group_ordinal integer NOT NULL,
        ordinal integer NOT NULL,${scheduleColumns},
        CONSTRAINT pk_store_channel_schedule PRIMARY KEY (store_id, group_ordinal, ordinal),
        CONSTRAINT fk_store_channel_schedule_group FOREIGN KEY (store_id, group_ordinal)
          REFERENCES store_channel_schedule_group (store_id, ordinal) ON DELETE CASCADE,${scheduleChecks('store_channel_schedule')}
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE store_channel_schedule`);
    await queryRunner.query(`DROP TABLE store_channel_schedule_group`);
    await queryRunner.query(`DROP TABLE store_schedule`);
    await queryRunner.query(`DROP TABLE store_channel`);
    await queryRunner.query(`DROP TABLE store_service`);
    await queryRunner.query(`DROP TABLE store`);
    await queryRunner.query(`DROP TABLE sales_channel_related_list`);
    await queryRunner.query(`DROP TABLE sales_channel`);
    await queryRunner.query(`DROP TABLE channel_store_config`);
  }
}
