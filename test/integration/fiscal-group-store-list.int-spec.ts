import { FiscalGroupStoreList1763846000000 } from '../../migrations/1763846000000-FiscalGroupStoreList.js';
import { fiscalGroup } from '../factories/index.js';
import { FiscalGroupEntity, FiscalGroupStoreEntity } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { bootIntegration, type IntegrationContext } from '../support/integration.js';

/**
 * Migration FiscalGroupStoreList moves the group's stores from the `stores` jsonb into
 * `fiscal_group_store`: taken back down (the jsonb rebuilt from the table) and up again on this
 * file's own database, the stores come back with their names in the order of the list.
 * Raw SQL on the migration's runner: the `stores` column exists only between down and up, where no entity maps it.
 */
describe('migration FiscalGroupStoreList (integration)', () => {
  let db: IntegrationContext;
  const migration = new FiscalGroupStoreList1763846000000();

  beforeAll(async () => {
    db = await bootIntegration({ imports: [], entities: [FiscalGroupEntity, FiscalGroupStoreEntity] });
  });
  afterAll(async () => {
    await db?.close();
  });

  it('moves each store name and place from the jsonb list into the table, and drops the list', async () => {
    const group = await fiscalGroup(db.dataSource, {
      stores: [
        { store_id: 'moved-b', store_name: 'Bee' },
        { store_id: 'moved-a', store_name: 'Ay' },
      ],
    });
    const runner = db.dataSource.createQueryRunner();
    try {
      await migration.down(runner);
      const [before] = await runner.query(`SELECT stores FROM fiscal_group WHERE id = $1`, [group.id]);
      expect(before.stores).toEqual([
        { store_id: 'moved-b', store_name: 'Bee' },
        { store_id: 'moved-a', store_name: 'Ay' },
      ]);
      // The list as an older version wrote it: reordered and renamed, the table only claiming the ids.
      await runner.query(`UPDATE fiscal_group SET stores = $2::jsonb WHERE id = $1`, [
        group.id,
        JSON.stringify([
          { store_id: 'moved-a', store_name: 'Ay (renamed)' },
          { store_id: 'moved-b', store_name: 'Bee' },
        ]),
      ]);
      await migration.up(runner);
      const rows = await runner.query(
        `SELECT store_id, store_name, position FROM fiscal_group_store WHERE fiscal_group_id = $1 ORDER BY position`,
        [group.id],
      );
      expect(rows).toEqual([
        { store_id: 'moved-a', store_name: 'Ay (renamed)', position: 0 },
        { store_id: 'moved-b', store_name: 'Bee', position: 1 },
      ]);
      const [column] = await runner.query(
        `SELECT count(*)::int AS n FROM information_schema.columns WHERE table_name = 'fiscal_group' AND column_name = 'stores'`,
      );
      expect(column.n).toBe(0);
    } finally {
      await runner.release();
    }
  });
});
