import { ifoodProfile } from '../ifood/ifood-profile.js';
import { ninetyNineFoodProfile } from '../ninety-nine-food/ninety-nine-food-profile.js';
import { keetaProfile, openDeliveryProfile } from '../open-delivery/open-delivery-profile.js';
import { rappiProfile } from '../rappi/rappi-profile.js';
import type { MarketplaceProfile } from '../profiles/marketplace-profile.js';

/**
 * The marketplaces the enrichment routes read (`?profile=`). Adding one is a module of its own and one entry
 * here, nothing else (docs/adding-a-marketplace.md; test/structure/marketplace-profiles.spec.ts checks it).
 */
export const REGISTERED_PROFILES: readonly MarketplaceProfile[] = [
  ifoodProfile,
  rappiProfile,
  ninetyNineFoodProfile,
  openDeliveryProfile,
  keetaProfile,
];

/** The `?profile=` values: `standard` (the service's own order, the default) and each marketplace's. */
export const PROFILE_NAMES: readonly string[] = ['standard', ...REGISTERED_PROFILES.map((profile) => profile.name)];
