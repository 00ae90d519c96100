import { toCents } from '../../common/order-total';
import { isObj, num, text } from '../../common/values';

/** The marketplaces whose documents the service reads (`?profile=`), as the stored order's `source` names them. */
export const MARKETPLACES = ['ifood', 'rappi', '99food', 'opendelivery', 'keeta'] as const;
export type Marketplace = (typeof MARKETPLACES)[number];

/** Each marketplace's own name: a brand, the same in every language. */
export const MARKETPLACE_NAMES: Record<Marketplace, string> = {
  ifood: 'iFood',
  rappi: 'Rappi',
  '99food': '99Food',
  opendelivery: 'Open Delivery',
  keeta: 'Keeta',
};

export const isMarketplace = (source: string | null | undefined): source is Marketplace =>
  typeof source === 'string' && (MARKETPLACES as readonly string[]).includes(source);

/** Where the order came from: a marketplace its `source` names, or the platform itself (any other source, or none). */
export function marketplaceOf(source: string | null | undefined): Marketplace | 'platform' {
  return isMarketplace(source) ? source : 'platform';
}

/** Who gave the order's discounts, in cents; a side is absent when it gave none. */
export interface SponsorSplit {
  /** The discounts the store gave (sponsor MERCHANT): they lower what the store receives. */
  store?: number;
  /** The discounts the platform (the marketplace) gave and pays back to the store (sponsor PLATFORM). */
  platform?: number;
  /** The discounts a third party gave and pays back to the store (sponsor THIRD_PARTY). */
  thirdParty?: number;
}

const SIDES = { MERCHANT: 'store', PLATFORM: 'platform', THIRD_PARTY: 'thirdParty' } as const;

/**
 * The sponsor split of an order's discounts (`order.discounts`, as the service read them: a marketplace's sponsors are
 * already mapped to MERCHANT, PLATFORM or THIRD_PARTY). Read from the order rather than from `thirdPartyPayments`,
 * which lists the paid-back discounts only when they stay out of the invoice (a fiscal group may put them in its base).
 */
export function sponsorSplitOf(payload: unknown): SponsorSplit {
  const split: SponsorSplit = {};
  const order = isObj(payload) && isObj(payload.order) ? payload.order : undefined;
  for (const discount of Array.isArray(order?.discounts) ? order.discounts : []) {
    if (!isObj(discount)) continue;
    const sponsor = text(discount.sponsor);
    const amount = num(discount.amount);
    if (amount === undefined || sponsor === undefined || !Object.hasOwn(SIDES, sponsor)) continue;
    const side = SIDES[sponsor as keyof typeof SIDES];
    split[side] = (split[side] ?? 0) + toCents(amount);
  }
  return split;
}
