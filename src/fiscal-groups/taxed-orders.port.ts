import type { EntityManager } from 'typeorm';

/**
 * What the fiscal groups need to know of the orders their revisions taxed, asked on the writer's transaction while it
 * holds the group's revisions lock (so no order of the group is being stored meanwhile). Owned here, implemented by
 * the orders module (the owner of the table), bound to `TAXED_ORDERS` in `OrdersPortsModule`: this module never
 * imports the orders module. See "Ports" in docs/adding-a-module.md.
 *
 * Both ask only about tax instants still to come (an order dated ahead of its receipt): no other order can name a
 * revision that has not taken effect, or be taxed at an instant after now.
 */
export interface TaxedOrders {
  /** The revisions of the group that stored orders taxed at `from` or later name; `from` is not in the past. */
  revisionsNamedFrom(manager: EntityManager, groupId: string, from: Date): Promise<Set<number>>;
  /** The latest tax instant of the group's stored orders dated ahead of their receipt, or null. */
  latestTaxInstantAhead(manager: EntityManager, groupId: string): Promise<Date | null>;
}

export const TAXED_ORDERS = Symbol('TaxedOrders');
