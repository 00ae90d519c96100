import { describe, expect, it } from 'vitest';
import { storeConflicts } from './matrix-model';

// The store conflict as the API words it today; replaced by its typed details when the API sends them.
describe('storeConflicts', () => {
  it('reads the store, the group id and the group name of each conflict, and skips other problems', () => {
    const conflicts = storeConflicts([
      { field: 'stores', problem: 'store "loja-7" already belongs to fiscal group 0b6f3c1e-2a4d-4c5e-9f10-1a2b3c4d5e6f ("Rede "Sul" SP")' },
      { field: 'stores', problem: 'stores must contain at least 1 elements' },
      { field: 'stores', problem: 'store "x" already belongs to fiscal group not-a-uuid ("G")' },
    ]);

    // The group's name is everything between the first `("` after the id and the closing `")`, quotes included.
    expect(conflicts).toEqual([{ storeId: 'loja-7', groupId: '0b6f3c1e-2a4d-4c5e-9f10-1a2b3c4d5e6f', groupName: 'Rede "Sul" SP' }]);
    expect(storeConflicts(undefined)).toEqual([]);
  });
});
