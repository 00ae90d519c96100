import type { MarketplaceProfile } from '../profiles/marketplace-profile.js';
import { mapKeetaDocument } from './keeta-order.js';
import { KEETA_ORDER_EXAMPLE, OPEN_DELIVERY_ORDER_EXAMPLE } from './open-delivery-order-example.js';
import { mapOpenDeliveryDocument } from './open-delivery-order.js';

/** Where an Open Delivery order holds personal data (dotted paths, `*` for any index or key). */
export const personalDataFields: readonly string[] = [
  'customer.name',
  'customer.documentNumber',
  'customer.email',
  'customer.phone.number',
  'customer.phone.localizer',
  'delivery.deliveryAddress.*',
  'delivery.deliveryAddress.coordinates.*',
];

/** The same, for Keeta: the order bare or under `data`. */
export const keetaPersonalDataFields: readonly string[] = [...personalDataFields, ...personalDataFields.map((path) => `data.${path}`)];

const OPEN_DELIVERY_MAPPING =
  "`id` → `orderId`; `merchant.id` → `store.id`; each item → a line (productId `externalCode`, else `id`; amount `unitPrice.value` × `quantity`, a fractional quantity allowed; `originalPrice` is no discount), each option → a modifier (`unitPrice` × its quantity × the item's quantity); " +
  "each discount's `sponsorshipValues[]`: MERCHANT → a MERCHANT discount, any other name (MARKETPLACE, CHAIN, …) → PLATFORM, what they leave uncovered → PLATFORM with DISCOUNT_SPONSOR_UNKNOWN; target CART → ITEMS, ITEM → the item whose `id` is `targetId`, DELIVERY_FEE → DELIVERY_FEE (naming nothing: ITEMS, with DISCOUNT_TARGET_NOT_FOUND); " +
  "`otherFees[]`: DELIVERY_FEE → the delivery fee (received by MERCHANT: the store delivers, else the platform); SERVICE_FEE received by the marketplace → a PLATFORM charge outside the invoice; MIN_ORDER_FEE and a delivery order's SERVICE_FEE received by the merchant → MERCHANT charges on the invoice; on an INDOOR order a merchant SERVICE_FEE or TIP → the service charge; TIP otherwise never. An event (`eventType` without items) is 422 NOT_AN_ORDER.";

export const openDeliveryProfile: MarketplaceProfile = {
  name: 'opendelivery',
  label: 'Open Delivery',
  description: `\`?profile=opendelivery\` takes an order of Abrasel's Open Delivery standard (v1.x, the order of \`GET /v1/orders/{orderId}\`), money as \`{value, currency}\`: ${OPEN_DELIVERY_MAPPING}`,
  map: (document) => mapOpenDeliveryDocument(document),
  example: OPEN_DELIVERY_ORDER_EXAMPLE,
  personalDataFields,
};

export const keetaProfile: MarketplaceProfile = {
  name: 'keeta',
  label: 'Keeta',
  description: `\`?profile=keeta\` takes Keeta's order: Open Delivery's order, bare or wrapped in \`{code, message, data}\` (a 400 then names paths under \`data.\`), read as \`?profile=opendelivery\` reads it.`,
  map: mapKeetaDocument,
  example: KEETA_ORDER_EXAMPLE,
  personalDataFields: keetaPersonalDataFields,
};
