import { describe, expect, it } from 'vitest';
import { readStoreConflicts } from './matrix-model';

// The store conflict as the API sends it: the code, and the store and its group as typed fields of each detail.
describe('readStoreConflicts', () => {
  it('reads the store, the group id and the group name of each STORE_IN_ANOTHER_GROUP detail', () => {
    const conflicts = readStoreConflicts({
      code: 'STORE_IN_ANOTHER_GROUP',
      details: [
        {
          field: 'stores',
          problem: 'any sentence: it is not read',
          storeId: 'loja-7',
          fiscalGroupId: '0b6f3c1e-2a4d-4c5e-9f10-1a2b3c4d5e6f',
          fiscalGroupName: 'Rede "Sul" SP',
        },
        // A holder that let the store go while the request ran: the store without its group.
        { field: 'stores', problem: '', storeId: 'loja-8', fiscalGroupId: null, fiscalGroupName: null },
        { field: 'stores', problem: 'a detail without a store is skipped' },
      ],
    });

    expect(conflicts).toEqual([
      { storeId: 'loja-7', groupId: '0b6f3c1e-2a4d-4c5e-9f10-1a2b3c4d5e6f', groupName: 'Rede "Sul" SP' },
      { storeId: 'loja-8', groupId: undefined, groupName: undefined },
    ]);
  });

  it('reads nothing from another code, even with the same sentence', () => {
    const detail = { field: 'stores', problem: 'store "loja-7" already belongs to fiscal group g ("G")', storeId: 'loja-7' };
    expect(readStoreConflicts({ code: 'CONFLICT', details: [detail] })).toEqual([]);
    expect(readStoreConflicts({ code: 'EXTERNAL_ID_IN_USE' })).toEqual([]);
    expect(readStoreConflicts({})).toEqual([]);
  });
});
