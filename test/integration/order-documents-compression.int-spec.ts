import { OrderDocumentsLz41763930000000, serverHasLz4 } from '../../migrations/1763930000000-OrderDocumentsLz4.js';
import { OrdersModule } from '../../src/orders/orders.module.js';
import { order } from '../factories/index.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

/**
 * CI's embedded PostgreSQL is built without lz4, so there these tests check that the migration leaves pglz; run them
 * with TEST_DATABASE_URL on a server built with lz4 (Debian's packages, the official images) to check the other side.
 */
describe('Orders: how the documents are compressed (integration)', () => {
  let db: IntegrationContext;
  /** Found by trying lz4, independently of how the migration decides. */
  let lz4: boolean;

  const columnMethods = async () =>
    db.dataSource.query<Array<{ column: string; method: string }>>(
      `SELECT attname AS column, attcompression AS method FROM pg_attribute
       WHERE attrelid = 'orders'::regclass AND attname IN ('payload', 'enriched_payload') ORDER BY attname`,
    );

  beforeAll(async () => {
    db = await bootIntegration({ imports: [OrdersModule] });
    try {
      await db.dataSource.query(`CREATE TEMPORARY TABLE lz4_probe (document text COMPRESSION lz4)`);
      lz4 = true;
    } catch (error) {
      expect(String(error)).toMatch(/lz4/);
      lz4 = false;
    }
  });
  afterAll(() => db.close());

  it('tells whether the server has lz4 as trying it does', async () => {
    await expect(serverHasLz4(db.dataSource)).resolves.toBe(lz4);
  });

  it('compresses a new order with lz4 where the server has it, else with the server default (pglz)', async () => {
    // About 40 kB of repetitive JSON per document: far past the 2 kB at which PostgreSQL compresses a row's values.
    const items = Array.from({ length: 300 }, (_, index) => ({
      id: `item-${index}`,
      name: 'X-Burger Duplo',
      quantity: 1,
      unitPrice: 3490,
    }));
    const stored = await order(db.dataSource, { payload: { orderId: 'LZ-1', items }, enrichedPayload: { orderId: 'LZ-1', items } });
    expect(await columnMethods()).toEqual([
      { column: 'enriched_payload', method: lz4 ? 'l' : '' },
      { column: 'payload', method: lz4 ? 'l' : '' },
    ]);
    const [row] = await db.dataSource.query<Array<{ payload: string; enriched: string }>>(
      `SELECT pg_column_compression(payload) AS payload, pg_column_compression(enriched_payload) AS enriched FROM orders WHERE id = $1`,
      [stored.id],
    );
    const method = lz4 ? 'lz4' : 'pglz';
    expect(row).toEqual({ payload: method, enriched: method });
  });

  it('goes down to the server default and up again', async () => {
    const migration = new OrderDocumentsLz41763930000000();
    const queryRunner = db.dataSource.createQueryRunner();
    try {
      await migration.down(queryRunner);
      expect((await columnMethods()).map(({ method }) => method)).toEqual(['', '']);
      await migration.up(queryRunner);
      expect((await columnMethods()).map(({ method }) => method)).toEqual(lz4 ? ['l', 'l'] : ['', '']);
    } finally {
      await queryRunner.release();
    }
  });
});
