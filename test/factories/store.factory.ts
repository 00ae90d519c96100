import { StoreEntity } from '../../src/channels/store.entity.js';
import { insertRow, managerOf, nextNumber, type Db } from './sequence.js';

/** A store of the channel configuration (`/v3/channels-stores`), by its numeric id. Defaults: no code, no name. */
export async function configuredStore(db: Db, overrides: Partial<StoreEntity> & Pick<StoreEntity, 'storeId'>): Promise<StoreEntity> {
  const manager = managerOf(db);
  const row = manager.create(StoreEntity, { ordinal: nextNumber(), ...overrides });
  await insertRow(manager, StoreEntity, row);
  return manager.findOneByOrFail(StoreEntity, { storeId: row.storeId });
}
