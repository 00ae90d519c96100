import { isPlainObject } from '../../common/plain-object.js';
import type { Cents } from '../../tax-engine/money.js';
import type { MappedDocument } from '../profiles/mapped-document.js';
import {
  DocumentReading,
  documentObject,
  lineTotal,
  mappedOrder,
  notAnOrder,
  textOf,
  type MappedCharge,
  type MappedDiscount,
  type MappedLine,
  type MappedOption,
} from '../profiles/document-reading.js';

/**
 * Rappi's order (the `NEW_ORDER` webhook's body, one element of `GET orders`: `{order_detail, customer, store}`)
 * in the service's order shape. Money in currency units. The mapping: docs/marketplace-profiles.md. Pure: no I/O.
 */

const MARKETPLACE = 'Rappi';
/** Discount types that take money off the delivery fee. */
const SHIPPING_TYPES = new Set(['shipping', 'free_shipping', 'delivery', 'free_delivery', 'shipping_discount']);
/** The webhook's notices that carry an order's shape but are not an order to tax (money zeroed). */
const ORDER_ACTION = 'NEW_ORDER';

function mapSubitem(reading: DocumentReading, subitem: unknown, at: string, itemQuantity: string): MappedOption | undefined {
  if (!isPlainObject(subitem)) {
    reading.problems.add(at, 'must be an object');
    return undefined;
  }
  const productId = reading.id(subitem, 'sku', `${at}.sku`) ?? reading.id(subitem, 'id', `${at}.id`);
  if (productId === undefined) reading.problems.add(`${at}.id`, 'is required (the option, used when sku is empty)');
  const quantity = reading.quantity(subitem.quantity, `${at}.quantity`, '1');
  const price = reading.money(subitem.price ?? 0, `${at}.price`);
  if (productId === undefined || quantity === undefined || price === undefined) return undefined;
  // Rappi prices a subitem per unit of the item: price × its quantity × the item's quantity.
  const perItem = reading.times(price, quantity, `${at}.price`);
  const amount = perItem === undefined ? undefined : reading.times(perItem, itemQuantity, `${at}.price`);
  if (amount === undefined) return undefined;
  return {
    productId,
    name: subitem.name,
    quantity: Number(quantity) * Number(itemQuantity),
    amount,
    at,
    priceAt: `${at}.price`,
  };
}

function mapItem(reading: DocumentReading, item: unknown, at: string): MappedLine | undefined {
  if (!isPlainObject(item)) {
    reading.problems.add(at, 'must be an object');
    return undefined;
  }
  const before = reading.problems.count;
  const productId = reading.id(item, 'sku', `${at}.sku`) ?? reading.id(item, 'id', `${at}.id`);
  if (productId === undefined) reading.problems.add(`${at}.id`, 'is required (the product, used when sku is empty)');
  const quantity = reading.quantity(item.quantity, `${at}.quantity`);
  // `price` is the unit price before discounts; never the discounted unit price.
  const priceKey = item.price === undefined || item.price === null ? 'unit_price_without_discount' : 'price';
  const unitPrice = reading.money(item[priceKey], `${at}.${priceKey}`);
  const subitems = item.subitems ?? [];
  if (!Array.isArray(subitems)) reading.problems.add(`${at}.subitems`, 'must be an array');
  if (quantity === undefined || unitPrice === undefined || productId === undefined) return undefined;
  const options = (Array.isArray(subitems) ? subitems : [])
    .map((subitem, index) => mapSubitem(reading, subitem, `${at}.subitems[${index}]`, quantity))
    .filter((option) => option !== undefined);
  const amount = reading.times(unitPrice, quantity, `${at}.${priceKey}`);
  if (amount === undefined || reading.problems.count > before) return undefined;
  return { productId, name: item.name, quantity: Number(quantity), unitPrice, amount, options, at, unitPriceAt: `${at}.${priceKey}` };
}

/**
 * The line a discount's `product_id` or `sku` names (by the item's `id` or `sku`; either may match), -1 when they
 * name nothing of the order, undefined when the discount names no product.
 */
function namedLine(discount: Record<string, unknown>, items: unknown[], reading: DocumentReading, at: string): number | undefined {
  const names = [reading.id(discount, 'product_id', `${at}.product_id`), reading.id(discount, 'sku', `${at}.sku`)].filter(
    (name) => name !== undefined,
  );
  if (names.length === 0) return undefined;
  return items.findIndex(
    (item) => isPlainObject(item) && names.some((name) => reading.id(item, 'id', '') === name || reading.id(item, 'sku', '') === name),
  );
}

function mapDiscounts(
  reading: DocumentReading,
  detail: Record<string, unknown>,
  items: unknown[],
  hasDeliveryFee: boolean,
): MappedDiscount[] {
  const discounts: MappedDiscount[] = [];
  const list = detail.discounts ?? [];
  if (!Array.isArray(list)) {
    reading.problems.add('order_detail.discounts', 'must be an array');
    return discounts;
  }
  list.forEach((entry, index) => {
    const at = `order_detail.discounts[${index}]`;
    if (!isPlainObject(entry)) return reading.problems.add(at, 'must be an object');
    const type = textOf(entry.type) ?? '';
    const title = textOf(entry.title) ?? textOf(entry.description) ?? type;
    let applied: Pick<MappedDiscount, 'target' | 'productIndex'> = { target: 'ITEMS' };
    if (SHIPPING_TYPES.has(type.toLowerCase())) {
      if (hasDeliveryFee) applied = { target: 'DELIVERY_FEE' };
      else
        reading.warnings.add(
          'DISCOUNT_TARGET_NOT_FOUND',
          `${at}.type`,
          `a ${type} discount on an order without a delivery fee: it was applied to the whole cart (ITEMS)`,
        );
    } else {
      const line = namedLine(entry, items, reading, at);
      if (line !== undefined && line >= 0) applied = { target: 'ITEM', productIndex: line };
      else if (line !== undefined)
        reading.warnings.add(
          'DISCOUNT_TARGET_NOT_FOUND',
          `${at}.product_id`,
          'the discount names a product the order does not have: it was applied to the whole cart (ITEMS)',
        );
    }
    const value = reading.optionalMoney(entry.value, `${at}.value`);
    const byPartner = reading.optionalMoney(entry.amount_by_partner, `${at}.amount_by_partner`) ?? 0;
    const byRappi = reading.optionalMoney(entry.amount_by_rappi, `${at}.amount_by_rappi`) ?? 0;
    if (byPartner > 0)
      discounts.push({
        amount: byPartner,
        sponsor: 'MERCHANT',
        ...applied,
        description: `Rappi discount paid by the store: ${title}`,
        descriptionCode: 'PAID_BY_STORE',
        descriptionParams: { marketplace: 'Rappi', detail: title },
        amountAt: `${at}.amount_by_partner`,
        sponsorAt: `${at}.amount_by_partner`,
      });
    if (byRappi > 0)
      discounts.push({
        amount: byRappi,
        sponsor: 'PLATFORM',
        ...applied,
        description: `Rappi discount paid by Rappi: ${title}`,
        descriptionCode: 'PAID_BY_MARKETPLACE',
        descriptionParams: { marketplace: 'Rappi', detail: title },
        amountAt: `${at}.amount_by_rappi`,
        sponsorAt: `${at}.amount_by_rappi`,
      });
    // What neither share covers: nobody is named to pay it, so no base is lowered on a guess.
    const uncovered = value === undefined ? 0 : value - byPartner - byRappi;
    if (uncovered > 0) {
      reading.unknownSponsor(`${at}.value`, uncovered);
      discounts.push({
        amount: uncovered,
        sponsor: 'PLATFORM',
        ...applied,
        description: `Rappi discount, sponsor unknown: ${title}`,
        descriptionCode: 'SPONSOR_UNKNOWN',
        descriptionParams: { marketplace: 'Rappi', detail: title },
        amountAt: `${at}.value`,
        sponsorAt: `${at}.value`,
      });
    }
  });
  const totals = isPlainObject(detail.totals) ? detail.totals : {};
  const support = reading.optionalMoney(totals.discount_by_support, 'order_detail.totals.discount_by_support') ?? 0;
  if (support > 0)
    discounts.push({
      amount: support,
      sponsor: 'PLATFORM',
      target: 'ITEMS',
      description: "Rappi support's discount, paid by Rappi",
      descriptionCode: 'MARKETPLACE_SUPPORT',
      descriptionParams: { marketplace: 'Rappi' },
      amountAt: 'order_detail.totals.discount_by_support',
      sponsorAt: 'order_detail.totals.discount_by_support',
    });
  return discounts;
}

/** Rappi's order as the service's order; see the module's comment. */
export function mapRappiDocument(body: unknown): MappedDocument {
  const unwrapped = Array.isArray(body) && body.length === 1 ? body[0] : body;
  const document = documentObject(unwrapped, MARKETPLACE);
  const action = textOf(document.action) ?? textOf(document.event_type);
  if (action !== undefined && action !== ORDER_ACTION)
    throw notAnOrder(document.action !== undefined ? 'action' : 'event_type', action, MARKETPLACE);
  if (!isPlainObject(document.order_detail)) {
    // A cancellation or another order event: `{ event, order_id, store_id }` (`order_event` in some sends).
    for (const field of ['event', 'order_event']) {
      const event = textOf(document[field]);
      if (event !== undefined) throw notAnOrder(field, event, MARKETPLACE);
    }
  }
  const reading = new DocumentReading('units');
  const { problems } = reading;
  const detail = isPlainObject(document.order_detail) ? document.order_detail : {};
  if (!isPlainObject(document.order_detail)) problems.add('order_detail', 'must be an object (the order)');
  const store = isPlainObject(document.store) ? document.store : {};
  if (!isPlainObject(document.store)) problems.add('store', 'must be an object with the store ids');

  const orderId = reading.id(detail, 'order_id', 'order_detail.order_id');
  const storeId = reading.id(store, 'external_id', 'store.external_id') ?? reading.id(store, 'internal_id', 'store.internal_id');
  const items: unknown[] = Array.isArray(detail.items) ? detail.items : [];
  if (isPlainObject(document.order_detail) && !Array.isArray(detail.items)) problems.add('order_detail.items', 'must be an array');
  const lines = items.map((item, index) => mapItem(reading, item, `order_detail.items[${index}]`)).filter((line) => line !== undefined);

  const totals = isPlainObject(detail.totals) ? detail.totals : {};
  const charges = isPlainObject(totals.charges) ? totals.charges : {};
  const method = textOf(detail.delivery_method)?.toLowerCase();
  const shipping = reading.optionalMoney(charges.shipping, 'order_detail.totals.charges.shipping') ?? 0;
  // `marketplace`: the store delivers with its own couriers; `delivery`: Rappi's couriers; `pickup`: no delivery.
  const deliveredBy: 'MERCHANT' | 'PLATFORM' | undefined =
    method === 'marketplace' ? 'MERCHANT' : method === 'pickup' ? undefined : 'PLATFORM';
  const deliveryFee =
    shipping > 0 && deliveredBy
      ? { amount: shipping, deliveredBy, amountAt: 'order_detail.totals.charges.shipping', deliveredByAt: 'order_detail.delivery_method' }
      : undefined;
  const discounts = mapDiscounts(reading, detail, items, deliveryFee !== undefined);
  const otherCharges: MappedCharge[] = [];
  const serviceFee = reading.optionalMoney(charges.service_fee, 'order_detail.totals.charges.service_fee') ?? 0;
  // Rappi's service fee is Rappi's own: outside the invoice. Tips, Rappi Pay and credits are never the store's sale.
  if (serviceFee > 0)
    otherCharges.push({
      amount: serviceFee,
      chargedBy: 'PLATFORM',
      description: "Rappi's service fee",
      amountAt: 'order_detail.totals.charges.service_fee',
    });

  const itemsTotal: Cents = lines.reduce((sum, line) => sum + lineTotal(line), 0);
  if (problems.count === 0)
    reading.compareTotal(
      reading.optionalMoney(totals.total_products, 'order_detail.totals.total_products'),
      itemsTotal,
      'order_detail.totals.total_products',
      'the products total',
    );
  return mappedOrder(
    reading,
    {
      orderId,
      storeId,
      storeName: store.name,
      source: 'rappi',
      orderType: method === 'pickup' ? 'TAKEOUT' : 'DELIVERY',
      lines,
      discounts,
      deliveryFee,
      otherCharges,
      orderIdAt: 'order_detail.order_id',
      storeIdAt: 'store.internal_id',
      itemsAt: 'order_detail.items',
    },
    document,
  );
}
