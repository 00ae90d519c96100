import type { WindowOrder } from '../orders/order-window.repository.js';
import type { CategoryIndex, FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';
import type { ImpactFigures } from './impact-tally.js';

/** What a preview's worker starts with. */
export interface ImpactWorkerData {
  inForce: FiscalGroupSnapshot;
  proposed: FiscalGroupSnapshot;
  now: Date;
}

/** A batch of orders to parse (answered with their product ids), its comparison once the categories are read, and the figures at the end. */
export type ImpactWorkerRequest =
  { type: 'batch'; orders: WindowOrder[] } | { type: 'compare'; categories: CategoryIndex } | { type: 'figures' };

export type ImpactWorkerReply =
  { type: 'products'; productIds: string[] } | { type: 'compared' } | { type: 'figures'; figures: ImpactFigures };
