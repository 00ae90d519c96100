import type { MarketplaceProfile } from '../profiles/marketplace-profile.js';
import { NINETY_NINE_FOOD_ORDER_EXAMPLE } from './ninety-nine-food-order-example.js';
import { mapNinetyNineFoodDocument } from './ninety-nine-food-order.js';

/** Where a 99Food order holds personal data (dotted paths, `*` for any index or key), bare or in its envelope. */
export const personalDataFields: readonly string[] = [
  'order_info.receive_address.*',
  'data.order_info.receive_address.*',
  'receive_address.*',
];

export const ninetyNineFoodProfile: MarketplaceProfile = {
  name: '99food',
  label: '99Food',
  description:
    "`?profile=99food` takes 99Food's (DiDi Food's) order details (`order_info` with `order_items`, `price`, `promotions`, `others_fees`), bare or in its webhook envelope (`{app_shop_id, type, data}`), money in cents: " +
    "`order_id` → `orderId`, kept as text exactly (19 digits, also when sent as a JSON number); `shop.app_shop_id` (else the envelope's `app_shop_id`) → `store.id`; each item → a line (productId `app_item_id`, else `app_external_id`; amount `sku_price` × `amount`), each `sub_item_list` entry, nested → a modifier (`sku_price` × its `amount` × the units of the item above); " +
    'each order-level promotion: `shop_subside_price` → MERCHANT, `promo_discount` − `shop_subside_price` → PLATFORM (no `shop_subside_price`: PLATFORM with DISCOUNT_SPONSOR_UNKNOWN), target DELIVERY_FEE for the delivery promotion types 3, 12, 20 and 30, else ITEMS (the sponsor is never inferred from the type); ' +
    '`price.delivery_price` → the delivery fee (`delivery_type` 2: the store delivers; 1: 99Food; `fulfillment_mode` 1, pickup: none); `small_order_price` and `meal_top_up_price` → MERCHANT charges on the invoice; `service_price` → a PLATFORM charge, outside it; tips (`total_tip_money`) never. Webhook types other than an order, and statuses 901 to 981 (cancellations), are 422 NOT_AN_ORDER.',
  map: mapNinetyNineFoodDocument,
  example: NINETY_NINE_FOOD_ORDER_EXAMPLE,
  personalDataFields,
};
