import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The order's two JSON documents: compressed when their row is written, decompressed by every read of them. */
const ORDER_DOCUMENT_COLUMNS = ['payload', 'enriched_payload'] as const;

function setDocumentsCompression(method: 'lz4' | 'default'): string {
  return `ALTER TABLE orders ${ORDER_DOCUMENT_COLUMNS.map((column) => `ALTER COLUMN ${column} SET COMPRESSION ${method}`).join(', ')}`;
}

/** Whether the server can compress a column with lz4 (PostgreSQL 14 or newer, built with lz4, as the usual packages are). */
export async function serverHasLz4(database: { query: (query: string) => Promise<unknown> }): Promise<boolean> {
  const rows = (await database.query(
    `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
  )) as Array<{ lz4: boolean }>;
  return rows[0]?.lz4 === true;
}

/**
 * The order's documents are compressed with lz4 where the server has it: each order's row compresses about 15 kB of
 * JSON, and PostgreSQL's own method (pglz) spent a sixth of the database's CPU per stored order doing it. With lz4 the
 * database spends about a fifth less per order and stores the same number of pages per order (measured in
 * docs/performance.md, "How the order's documents are compressed"). Rows already stored keep their compression until
 * they are written again; reads decompress either. Only the catalog changes: the table's lock is held for
 * milliseconds and nothing is rewritten. A server without lz4 (the embedded PostgreSQL's binaries are built
 * without it) keeps pglz: this migration then changes nothing.
 */
export class OrderDocumentsLz41763930000000 implements MigrationInterface {
  name = 'OrderDocumentsLz41763930000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    if (!(await serverHasLz4(queryRunner))) return;
    await queryRunner.query(setDocumentsCompression('lz4'));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // The server's default again (pglz unless default_toast_compression says otherwise); rows keep what they have.
    await queryRunner.query(setDocumentsCompression('default'));
  }
}
