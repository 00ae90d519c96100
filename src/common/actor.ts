/** Who writes an order: recorded with every status change and every stored attempt. */
export interface Actor {
  clientId: string | null;
  /** The route, e.g. `POST /api/enrich-order`. */
  via: string;
  /** The stores a store-limited client may touch (orders' `store.id`); absent or null: every store. */
  stores?: readonly string[] | null;
  /** Who sent the request and from where, for an audit event the write may cause; absent outside a request. */
  origin?: ActorOrigin;
}

/** The principal behind an actor (a machine client or a person), with the request's id and address. */
export interface ActorOrigin {
  type: 'client' | 'user';
  id: string;
  name: string;
  requestId: string | null;
  address: string | null;
}

/** Whether the actor may touch an order of `storeId` (an order without a store is outside every list). */
export function mayTouchStore(actor: Actor, storeId: string | null): boolean {
  return !actor.stores || (storeId !== null && actor.stores.includes(storeId));
}
