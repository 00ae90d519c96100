import { isPlainObject } from '../../common/plain-object.js';
import type { Cents } from '../../tax-engine/money.js';
import type { MappedDocument } from '../profiles/mapped-document.js';
import {
  DocumentReading,
  documentObject,
  lineTotal,
  mappedOrder,
  MAX_OPTION_DEPTH,
  notAnOrder,
  type MappedCharge,
  type MappedDiscount,
  type MappedLine,
  type MappedOption,
} from '../profiles/document-reading.js';
import { fitText } from '../profiles/mapped-document.js';

/**
 * 99Food's (DiDi Food's) order details (`order_info` with `order_items`, `price`, `promotions`, `others_fees`), bare
 * or in its webhook envelope (`{app_id, app_shop_id, type, data: {order_id, order_info}}`), in the service's order
 * shape. Money in integer cents; ids of 19 digits kept as text. The mapping: docs/marketplace-profiles.md. Pure.
 */

const MARKETPLACE = '99Food';
/** The webhook's types that carry an order (compared without case: `orderNew`, `OrderNew`); other types are notices. */
const ORDER_TYPES = new Set(['ordernew', 'orderconfirm', 'orderupdate']);
/** Order statuses 901 to 981 are cancellations: nothing to tax. */
const CANCELLED_FROM = 901;
const CANCELLED_TO = 981;
/**
 * Promotion types 99Food documents as taking money off the delivery fee: 3 free delivery, 12 delivery coupon,
 * 20 member's delivery discount, 30 shared-courier discount. Only the target is read from the type, never the sponsor.
 */
const DELIVERY_PROMO_TYPES = new Set([3, 12, 20, 30]);

interface Located {
  details: Record<string, unknown>;
  info: Record<string, unknown>;
  infoAt: string;
  envelope?: Record<string, unknown>;
}

/** The order details and its `order_info`, from the envelope, the details or `order_info` alone. */
function locate(document: Record<string, unknown>): Located {
  if (isPlainObject(document.data) && (document.type !== undefined || document.app_shop_id !== undefined)) {
    const type = typeof document.type === 'string' ? document.type : undefined;
    if (type !== undefined && !ORDER_TYPES.has(type.toLowerCase())) throw notAnOrder('type', type, MARKETPLACE);
    const details = document.data;
    return isPlainObject(details.order_info)
      ? { details, info: details.order_info, infoAt: 'data.order_info.', envelope: document }
      : { details, info: details, infoAt: 'data.', envelope: document };
  }
  if (isPlainObject(document.order_info)) return { details: document, info: document.order_info, infoAt: 'order_info.' };
  return { details: document, info: document, infoAt: '' };
}

function mapSubItems(reading: DocumentReading, list: unknown, at: string, perLineUnits: string, depth: number, into: MappedOption[]): void {
  if (list === undefined || list === null) return;
  if (!Array.isArray(list)) return reading.problems.add(at, 'must be an array');
  if (list.length > 0 && depth > MAX_OPTION_DEPTH)
    return reading.problems.add(at, `options nest more than ${MAX_OPTION_DEPTH} levels deep`);
  list.forEach((sub, index) => {
    const subAt = `${at}[${index}]`;
    if (!isPlainObject(sub)) return reading.problems.add(subAt, 'must be an object');
    const productId =
      reading.id(sub, 'app_item_id', `${subAt}.app_item_id`) ?? reading.id(sub, 'app_external_id', `${subAt}.app_external_id`);
    if (productId === undefined) reading.problems.add(`${subAt}.app_item_id`, 'is required (the option, else app_external_id)');
    const amount = reading.quantity(sub.amount, `${subAt}.amount`, '1');
    const price = reading.money(sub.sku_price ?? 0, `${subAt}.sku_price`);
    if (productId === undefined || amount === undefined || price === undefined) return;
    // Per unit of the item above: sku_price × amount × that item's units in the line.
    const units = String(Number(amount) * Number(perLineUnits));
    const perUnit = reading.times(price, amount, `${subAt}.sku_price`);
    const lineAmount = perUnit === undefined ? undefined : reading.times(perUnit, perLineUnits, `${subAt}.sku_price`);
    if (lineAmount === undefined) return;
    into.push({ productId, name: sub.name, quantity: Number(units), amount: lineAmount, at: subAt, priceAt: `${subAt}.sku_price` });
    mapSubItems(reading, sub.sub_item_list, `${subAt}.sub_item_list`, units, depth + 1, into);
  });
}

function mapItem(reading: DocumentReading, item: unknown, at: string): MappedLine | undefined {
  if (!isPlainObject(item)) {
    reading.problems.add(at, 'must be an object');
    return undefined;
  }
  const before = reading.problems.count;
  const productId = reading.id(item, 'app_item_id', `${at}.app_item_id`) ?? reading.id(item, 'app_external_id', `${at}.app_external_id`);
  if (productId === undefined) reading.problems.add(`${at}.app_item_id`, 'is required (the product, else app_external_id)');
  const amount = reading.quantity(item.amount, `${at}.amount`);
  const skuPrice = reading.money(item.sku_price, `${at}.sku_price`);
  if (productId === undefined || amount === undefined || skuPrice === undefined) return undefined;
  const options: MappedOption[] = [];
  mapSubItems(reading, item.sub_item_list, `${at}.sub_item_list`, amount, 1, options);
  const lineAmount = reading.times(skuPrice, amount, `${at}.sku_price`);
  if (lineAmount === undefined || reading.problems.count > before) return undefined;
  const line = {
    productId,
    name: item.name,
    quantity: Number(amount),
    unitPrice: skuPrice,
    amount: lineAmount,
    options,
    at,
    unitPriceAt: `${at}.sku_price`,
  };
  // 99Food's item total: (the item's sku_price + its options' sku_price) × the item's amount.
  reading.compareTotal(
    reading.optionalMoney(item.total_price, `${at}.total_price`),
    lineTotal(line),
    `${at}.total_price`,
    "the item's total",
  );
  return line;
}

function mapPromotions(reading: DocumentReading, info: Record<string, unknown>, infoAt: string, hasDeliveryFee: boolean): MappedDiscount[] {
  const discounts: MappedDiscount[] = [];
  const list = info.promotions ?? [];
  if (!Array.isArray(list)) {
    reading.problems.add(`${infoAt}promotions`, 'must be an array');
    return discounts;
  }
  list.forEach((promotion, index) => {
    const at = `${infoAt}promotions[${index}]`;
    if (!isPlainObject(promotion)) return reading.problems.add(at, 'must be an object');
    const total = reading.money(promotion.promo_discount ?? 0, `${at}.promo_discount`);
    const byStore = reading.optionalMoney(promotion.shop_subside_price, `${at}.shop_subside_price`);
    if (total === undefined || total === 0) return;
    const type = typeof promotion.promo_type === 'number' ? promotion.promo_type : Number(promotion.promo_type);
    const onDelivery = DELIVERY_PROMO_TYPES.has(type) && hasDeliveryFee;
    const target: MappedDiscount['target'] = onDelivery ? 'DELIVERY_FEE' : 'ITEMS';
    const promotionType = fitText(String(promotion.promo_type), 20);
    const kind = `99Food promotion (type ${promotionType})`;
    const descriptionParams = { marketplace: '99Food', promotionType };
    // The store's share is what it subsidises; the rest is 99Food's. Never inferred from the type.
    const storeShare = byStore === undefined ? 0 : Math.min(byStore, total);
    if (byStore === undefined) reading.unknownSponsor(`${at}.shop_subside_price`, total);
    if (storeShare > 0)
      discounts.push({
        amount: storeShare,
        sponsor: 'MERCHANT',
        target,
        description: `${kind} paid by the store`,
        descriptionCode: 'PAID_BY_STORE',
        descriptionParams,
        amountAt: `${at}.shop_subside_price`,
        sponsorAt: `${at}.shop_subside_price`,
      });
    if (total - storeShare > 0)
      discounts.push({
        amount: total - storeShare,
        sponsor: 'PLATFORM',
        target,
        description: byStore === undefined ? `${kind}, sponsor unknown` : `${kind} paid by 99Food`,
        descriptionCode: byStore === undefined ? 'SPONSOR_UNKNOWN' : 'PAID_BY_MARKETPLACE',
        descriptionParams,
        amountAt: `${at}.promo_discount`,
        sponsorAt: `${at}.shop_subside_price`,
      });
  });
  return discounts;
}

/** 99Food's order as the service's order; see the module's comment. */
export function mapNinetyNineFoodDocument(body: unknown): MappedDocument {
  const document = documentObject(body, MARKETPLACE);
  const { details, info, infoAt, envelope } = locate(document);
  const status = typeof info.status === 'number' ? info.status : Number.NaN;
  if (status >= CANCELLED_FROM && status <= CANCELLED_TO) throw notAnOrder(`${infoAt}status`, String(status), MARKETPLACE);
  const reading = new DocumentReading('cents');
  const { problems } = reading;
  const detailsAt = infoAt === 'data.order_info.' ? 'data.' : infoAt === 'order_info.' ? '' : infoAt;
  const orderId = reading.id(info, 'order_id', `${infoAt}order_id`) ?? reading.id(details, 'order_id', `${detailsAt}order_id`);
  const shop = isPlainObject(info.shop) ? info.shop : {};
  const storeId =
    reading.id(shop, 'app_shop_id', `${infoAt}shop.app_shop_id`) ??
    (envelope ? reading.id(envelope, 'app_shop_id', 'app_shop_id') : undefined);

  const items: unknown[] = Array.isArray(info.order_items) ? info.order_items : [];
  if (!Array.isArray(info.order_items)) problems.add(`${infoAt}order_items`, 'must be an array');
  const lines = items.map((item, index) => mapItem(reading, item, `${infoAt}order_items[${index}]`)).filter((line) => line !== undefined);

  const price = isPlainObject(info.price) ? info.price : {};
  const fees = isPlainObject(price.others_fees) ? price.others_fees : {};
  const feesAt = `${infoAt}price.others_fees`;
  const pickup = Number(info.fulfillment_mode) === 1;
  const deliveryPrice = reading.optionalMoney(price.delivery_price, `${infoAt}price.delivery_price`) ?? 0;
  const deliveryType = Number(info.delivery_type);
  const deliveryFee =
    !pickup && deliveryPrice > 0
      ? {
          amount: deliveryPrice,
          // delivery_type 2: the store's own couriers; 1: 99Food's.
          deliveredBy: deliveryType === 2 ? ('MERCHANT' as const) : ('PLATFORM' as const),
          amountAt: `${infoAt}price.delivery_price`,
          deliveredByAt: `${infoAt}delivery_type`,
        }
      : undefined;
  const discounts = mapPromotions(reading, info, infoAt, deliveryFee !== undefined);
  const otherCharges: MappedCharge[] = [];
  const charge = (key: string, chargedBy: MappedCharge['chargedBy'], description: string) => {
    const amount = reading.optionalMoney(fees[key], `${feesAt}.${key}`) ?? 0;
    if (amount > 0) otherCharges.push({ amount, chargedBy, description, amountAt: `${feesAt}.${key}` });
  };
  // The store's own surcharges are its sale (vOutro); 99Food's service fee is 99Food's; tips are the courier's.
  charge('small_order_price', 'MERCHANT', "99Food small order fee, the store's");
  charge('meal_top_up_price', 'MERCHANT', "99Food meal top-up, the store's");
  charge('service_price', 'PLATFORM', "99Food's service fee");

  if (problems.count === 0) {
    const itemsTotal: Cents = lines.reduce((total, line) => total + lineTotal(line), 0);
    const stated = reading.optionalMoney(price.order_price, `${infoAt}price.order_price`);
    reading.compareTotal(stated, itemsTotal, `${infoAt}price.order_price`, 'the items total (order_price)');
  }
  return mappedOrder(
    reading,
    {
      orderId,
      storeId,
      storeName: shop.shop_name,
      source: '99food',
      orderType: pickup ? 'TAKEOUT' : 'DELIVERY',
      lines,
      discounts,
      deliveryFee,
      otherCharges,
      orderIdAt: `${infoAt}order_id`,
      storeIdAt: `${infoAt}shop.app_shop_id`,
      itemsAt: `${infoAt}order_items`,
    },
    document,
  );
}
