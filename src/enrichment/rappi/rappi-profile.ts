import type { MarketplaceProfile } from '../profiles/marketplace-profile.js';
import { RAPPI_ORDER_EXAMPLE } from './rappi-order-example.js';
import { mapRappiDocument } from './rappi-order.js';

/** Where a Rappi order holds personal data (dotted paths, `*` for any index or key). */
export const personalDataFields: readonly string[] = [
  'customer.first_name',
  'customer.last_name',
  'customer.phone_number',
  'customer.document_number',
  'customer.email',
  'order_detail.delivery_information.*',
  'order_detail.billing_information.*',
];

export const rappiProfile: MarketplaceProfile = {
  name: 'rappi',
  label: 'Rappi',
  description:
    "`?profile=rappi` takes Rappi's order (`{order_detail, customer, store}`, the NEW_ORDER webhook's body or one element of GET orders), money in reais: " +
    "`order_detail.order_id` → `orderId`; `store.external_id` (else `internal_id`) → `store.id`; each item → a line (productId `sku`, else `id`; amount `price` × `quantity`, `unit_price_without_discount` where `price` is absent), each subitem → a modifier (`price` × its quantity × the item's quantity); " +
    "each discount's `amount_by_partner` → a MERCHANT discount and `amount_by_rappi` → PLATFORM (what neither covers: PLATFORM with DISCOUNT_SPONSOR_UNKNOWN), `totals.discount_by_support` → PLATFORM; target DELIVERY_FEE for shipping types, ITEM when `product_id`/`sku` names an item, else ITEMS; " +
    '`totals.charges.shipping` → the delivery fee (`delivery_method` marketplace: the store delivers; delivery: Rappi; pickup: none); `totals.charges.service_fee` → a PLATFORM charge, outside the invoice; tips, Rappi Pay and credits are never on the invoice. A notice with `action` other than NEW_ORDER, or an order event (`event`), is 422 NOT_AN_ORDER.',
  map: mapRappiDocument,
  example: RAPPI_ORDER_EXAMPLE,
  personalDataFields,
};
