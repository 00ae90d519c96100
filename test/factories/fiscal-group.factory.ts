import { FiscalGroupEntity, FiscalGroupStoreEntity, type StoreRef } from '../../src/fiscal-groups/fiscal-group.entity.js';
import { managerOf, nextNumber, type Db } from './sequence.js';

export interface FiscalGroupOverrides extends Partial<Omit<FiscalGroupEntity, 'stores' | 'id'>> {
  /** Store ids, or full references; each store is also claimed in `fiscal_group_store`, as the service does. */
  stores?: Array<string | StoreRef>;
}

type TaxMatrix = FiscalGroupEntity['taxMatrix'];

/**
 * One rule: prepared food (NCM 21069090) at `icmsRate` % ICMS, PIS 0.65 %, COFINS 3 %; in the
 * form the service stores (no empty optional field).
 */
export function taxMatrixWith(icmsRate = 18): TaxMatrix {
  return {
    '21069090': {
      NCM: '21069090',
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: icmsRate,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
      CFOP: '5102',
    },
  };
}

/**
 * A fiscal group row and its store ownership rows, written in one transaction through the
 * entities (no service, no HTTP). Defaults: uf SP, Lucro Presumido, one store `store-<n>`,
 * the matrix of `taxMatrixWith()`.
 */
export async function fiscalGroup(db: Db, overrides: FiscalGroupOverrides = {}): Promise<FiscalGroupEntity> {
  const n = nextNumber();
  const { stores = [`store-${n}`], ...columns } = overrides;
  const refs: StoreRef[] = stores.map((store) => (typeof store === 'string' ? { store_id: store, store_name: `Store ${store}` } : store));
  return managerOf(db).transaction(async (manager) => {
    const group = manager.create(FiscalGroupEntity, {
      externalId: null,
      name: `Fiscal group ${n}`,
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      taxMatrix: taxMatrixWith(),
      settings: {},
      ...columns,
    });
    await manager.insert(FiscalGroupEntity, group);
    if (refs.length > 0) {
      await manager.insert(
        FiscalGroupStoreEntity,
        refs.map((store, position) => ({ storeId: store.store_id, fiscalGroupId: group.id, storeName: store.store_name, position })),
      );
    }
    return manager.findOneByOrFail(FiscalGroupEntity, { id: group.id });
  });
}
