import type { MarketplaceProfile } from '../profiles/marketplace-profile.js';
import { IFOOD_ORDER_EXAMPLE } from './ifood-order-example.js';
import { mapIfoodDocument } from './ifood-order.js';

/** Where an iFood order holds personal data (dotted paths, `*` for any index or key). */
export const personalDataFields: readonly string[] = [
  'customer.id',
  'customer.name',
  'customer.documentNumber',
  'customer.taxPayerIdentificationNumber',
  'customer.email',
  'customer.phone.number',
  'customer.phone.localizer',
  'delivery.deliveryAddress.*',
  'delivery.deliveryAddress.coordinates.*',
  'delivery.observations',
  'delivery.pickupCode',
];

/** How `?profile=ifood` reads iFood's order, for the descriptions of the routes that take it (docs/ifood-profile.md). */
export const IFOOD_PROFILE_DOC =
  "`?profile=ifood` takes the order as iFood's order details (`GET /order/v1.0/orders/{id}`) return it and maps it before anything else (a store-limited client's store check applies to the mapped store): " +
  '`id` → `orderId`, `merchant.id` → `store.id`, each item → a line of `order.products` (productId: its non-empty `externalCode`, else its `id`; amount: `unitPrice` × `quantity`), ' +
  "each option → a selected modifier (amount: its `price` × the item's `quantity`; where the options do not add up to the item's `optionsPrice`, as on a half-and-half pizza charged at its dearer flavour, the difference is split over them in proportion, half-up, the last one with an amount taking the remainder, so the line and its modifiers total the item's `totalPrice`), " +
  "`benefits[]` → `order.discounts` (one per `sponsorshipValues[]` entry above 0: MERCHANT is the store's own discount, any other sponsor PLATFORM; target CART → ITEMS, ITEM → the item whose `index` (else `id`) is `targetId`, DELIVERY_FEE → DELIVERY_FEE; " +
  'a target that names nothing (a `targetId` that is no item, DELIVERY_FEE on an order without a fee, a target iFood does not document) is the whole cart, ITEMS, with the warning DISCOUNT_TARGET_NOT_FOUND; a benefit without `sponsorshipValues`, or a sponsorship without a name, is PLATFORM with the warning DISCOUNT_SPONSOR_UNKNOWN; a description past 500 characters is cut), ' +
  '`total.deliveryFee` → `order.deliveryFee` (`delivery.deliveredBy` MERCHANT → MERCHANT, IFOOD → PLATFORM), `additionalFees[]` → `order.otherCharges` charged by PLATFORM. ' +
  "Other fields are kept at the root, and the whole iFood order under `sourceOrder`; the warnings of what the order says inconsistently are in `taxSummary.warnings` (their path under `sourceOrder`) and in `intakeWarnings`. Only a body that cannot be read as an order is a 400; its details, like those of any other error about the order, name the paths in iFood's body (`items[0].unitPrice`, `merchant.id`).";

export const ifoodProfile: MarketplaceProfile = {
  name: 'ifood',
  label: 'iFood',
  description: IFOOD_PROFILE_DOC,
  map: mapIfoodDocument,
  example: IFOOD_ORDER_EXAMPLE,
  personalDataFields,
};
