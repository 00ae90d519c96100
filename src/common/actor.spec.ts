import { mayTouchStore, type Actor } from './actor.js';

describe('mayTouchStore', () => {
  const via = 'POST /api/enrich-order';

  it('lets a client without stores touch every store, and orders without one', () => {
    for (const actor of [
      { clientId: '1', via },
      { clientId: '1', via, stores: null },
    ] satisfies Actor[]) {
      expect([mayTouchStore(actor, '162'), mayTouchStore(actor, null)]).toEqual([true, true]);
    }
  });

  it('lets a store-limited client touch only its stores, compared as text, and no order without a store', () => {
    const actor: Actor = { clientId: '1', via, stores: ['162', '163'] };
    expect(['162', '163', '164', '0162', null].map((store) => mayTouchStore(actor, store))).toEqual([true, true, false, false, false]);
  });
});
