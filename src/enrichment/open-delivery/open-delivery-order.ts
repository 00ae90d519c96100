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
  type OrderParts,
} from '../profiles/document-reading.js';
import { fitText } from '../profiles/mapped-document.js';

/**
 * An order of Abrasel's Open Delivery standard (v1.x; the order object of `GET /v1/orders/{orderId}`) in the
 * service's order shape; Keeta sends the same order, wrapped in `{code, message, data}`. Money as
 * `{value, currency}` in currency units. The mapping: docs/marketplace-profiles.md. Pure: no I/O.
 */

const DISCOUNT_TARGETS: Record<string, MappedDiscount['target']> = { CART: 'ITEMS', ITEM: 'ITEM', DELIVERY_FEE: 'DELIVERY_FEE' };

function productIdOf(reading: DocumentReading, entry: Record<string, unknown>, at: string): string | undefined {
  const id = reading.id(entry, 'externalCode', `${at}.externalCode`) ?? reading.id(entry, 'id', `${at}.id`);
  if (id === undefined) reading.problems.add(`${at}.id`, 'is required (the product, used when externalCode is empty)');
  return id;
}

function mapOption(reading: DocumentReading, option: unknown, at: string, itemQuantity: string): MappedOption | undefined {
  if (!isPlainObject(option)) {
    reading.problems.add(at, 'must be an object');
    return undefined;
  }
  const productId = productIdOf(reading, option, at);
  const quantity = reading.quantity(option.quantity, `${at}.quantity`, '1');
  const unitPrice = reading.money(option.unitPrice, `${at}.unitPrice`);
  if (productId === undefined || quantity === undefined || unitPrice === undefined) return undefined;
  // Per unit of the item: the option's unitPrice × its quantity × the item's quantity.
  const perItem = reading.times(unitPrice, quantity, `${at}.unitPrice`);
  const amount = perItem === undefined ? undefined : reading.times(perItem, itemQuantity, `${at}.unitPrice`);
  if (amount === undefined) return undefined;
  return { productId, name: option.name, quantity: Number(quantity) * Number(itemQuantity), amount, at, priceAt: `${at}.unitPrice` };
}

function mapItem(reading: DocumentReading, item: unknown, at: string): MappedLine | undefined {
  if (!isPlainObject(item)) {
    reading.problems.add(at, 'must be an object');
    return undefined;
  }
  const before = reading.problems.count;
  const productId = productIdOf(reading, item, at);
  // Items sold by weight have a fractional quantity; `originalPrice` is the list price, not a discount.
  const quantity = reading.quantity(item.quantity, `${at}.quantity`);
  const unitPrice = reading.money(item.unitPrice, `${at}.unitPrice`);
  const list = item.options ?? [];
  if (!Array.isArray(list)) reading.problems.add(`${at}.options`, 'must be an array');
  if (productId === undefined || quantity === undefined || unitPrice === undefined) return undefined;
  const options = (Array.isArray(list) ? list : [])
    .map((option, index) => mapOption(reading, option, `${at}.options[${index}]`, quantity))
    .filter((option) => option !== undefined);
  const amount = reading.times(unitPrice, quantity, `${at}.unitPrice`);
  if (amount === undefined || reading.problems.count > before) return undefined;
  return { productId, name: item.name, quantity: Number(quantity), unitPrice, amount, options, at, unitPriceAt: `${at}.unitPrice` };
}

interface Fees {
  deliveryFee?: OrderParts['deliveryFee'];
  otherCharges: MappedCharge[];
  serviceCharge?: OrderParts['serviceCharge'];
}

function mapFees(reading: DocumentReading, document: Record<string, unknown>, orderType: string | undefined): Fees {
  const fees: Fees = { otherCharges: [] };
  const list = document.otherFees ?? [];
  if (!Array.isArray(list)) {
    reading.problems.add('otherFees', 'must be an array');
    return fees;
  }
  const indoor = orderType === 'INDOOR';
  list.forEach((fee, index) => {
    const at = `otherFees[${index}]`;
    if (!isPlainObject(fee)) return reading.problems.add(at, 'must be an object');
    const amount = reading.money(fee.price, `${at}.price`);
    if (amount === undefined || amount === 0) return;
    const type = textOf(fee.type) ?? '';
    const byMerchant = fee.receivedBy === 'MERCHANT';
    const described = `Open Delivery ${fitText(type || 'fee', 40)}${textOf(fee.name) ? `: ${fee.name as string}` : ''}`;
    if (type === 'DELIVERY_FEE') {
      // Several delivery fees add up; whoever receives the first decides who delivers.
      const deliveredBy = fees.deliveryFee?.deliveredBy ?? (byMerchant ? 'MERCHANT' : 'PLATFORM');
      fees.deliveryFee = {
        amount: (fees.deliveryFee?.amount ?? 0) + amount,
        deliveredBy,
        amountAt: fees.deliveryFee?.amountAt ?? `${at}.price`,
        deliveredByAt: fees.deliveryFee?.deliveredByAt ?? `${at}.receivedBy`,
      };
      return;
    }
    if (indoor && byMerchant && (type === 'SERVICE_FEE' || type === 'TIP')) {
      // At the table, the store's service charge (taxa de serviço): taxed by its own rule.
      fees.serviceCharge = { amount: (fees.serviceCharge?.amount ?? 0) + amount, amountAt: fees.serviceCharge?.amountAt ?? `${at}.price` };
      return;
    }
    // A tip on delivery or takeout is the courier's or the staff's, never the store's sale.
    if (type === 'TIP') return;
    fees.otherCharges.push({ amount, chargedBy: byMerchant ? 'MERCHANT' : 'PLATFORM', description: described, amountAt: `${at}.price` });
  });
  return fees;
}

function mapDiscounts(
  reading: DocumentReading,
  document: Record<string, unknown>,
  items: unknown[],
  hasDeliveryFee: boolean,
): MappedDiscount[] {
  const discounts: MappedDiscount[] = [];
  const list = document.discounts ?? [];
  if (!Array.isArray(list)) {
    reading.problems.add('discounts', 'must be an array');
    return discounts;
  }
  list.forEach((discount, index) => {
    const at = `discounts[${index}]`;
    if (!isPlainObject(discount)) return reading.problems.add(at, 'must be an object');
    let applied: Pick<MappedDiscount, 'target' | 'productIndex'> = { target: 'ITEMS' };
    const target = typeof discount.target === 'string' ? DISCOUNT_TARGETS[discount.target] : undefined;
    const cart = 'the discount was applied to the whole cart (ITEMS)';
    if (target === 'ITEM') {
      const targetId = reading.id(discount, 'targetId', `${at}.targetId`);
      const line = targetId === undefined ? -1 : items.findIndex((item) => isPlainObject(item) && reading.id(item, 'id', '') === targetId);
      if (line >= 0) applied = { target, productIndex: line };
      else reading.warnings.add('DISCOUNT_TARGET_NOT_FOUND', `${at}.targetId`, `the targetId names no item of the order: ${cart}`);
    } else if (target === 'DELIVERY_FEE') {
      if (hasDeliveryFee) applied = { target };
      else
        reading.warnings.add(
          'DISCOUNT_TARGET_NOT_FOUND',
          `${at}.target`,
          `target DELIVERY_FEE on an order without a delivery fee: ${cart}`,
        );
    } else if (target === undefined) {
      reading.warnings.add('DISCOUNT_TARGET_NOT_FOUND', `${at}.target`, `the target is not CART, ITEM or DELIVERY_FEE: ${cart}`);
    }
    const total = reading.money(discount.amount, `${at}.amount`);
    const sponsorships = discount.sponsorshipValues ?? [];
    if (!Array.isArray(sponsorships)) return reading.problems.add(`${at}.sponsorshipValues`, 'must be an array');
    let covered: Cents = 0;
    sponsorships.forEach((sponsorship, position) => {
      const sponsorAt = `${at}.sponsorshipValues[${position}]`;
      if (!isPlainObject(sponsorship)) return reading.problems.add(sponsorAt, 'must be an object');
      const amount = reading.money(sponsorship.amount, `${sponsorAt}.amount`);
      if (amount === undefined || amount === 0) return;
      covered += amount;
      const name = textOf(sponsorship.name);
      if (name === undefined) reading.unknownSponsor(`${sponsorAt}.name`, amount);
      discounts.push({
        amount,
        // The store grants a MERCHANT share; the marketplace, a chain or a partner pays theirs back to the store.
        sponsor: name === 'MERCHANT' ? 'MERCHANT' : 'PLATFORM',
        ...applied,
        description: `Open Delivery discount sponsored by ${name ? fitText(name, 60) : 'an unknown sponsor'}`,
        ...(name
          ? { descriptionCode: 'SPONSORED_BY', descriptionParams: { marketplace: 'Open Delivery', sponsor: fitText(name, 60) } }
          : { descriptionCode: 'SPONSOR_UNKNOWN', descriptionParams: { marketplace: 'Open Delivery' } }),
        amountAt: `${sponsorAt}.amount`,
        sponsorAt: `${sponsorAt}.name`,
      });
    });
    const uncovered = total === undefined ? 0 : total - covered;
    if (uncovered > 0) {
      reading.unknownSponsor(`${at}.sponsorshipValues`, uncovered);
      discounts.push({
        amount: uncovered,
        sponsor: 'PLATFORM',
        ...applied,
        description: 'Open Delivery discount, sponsor unknown',
        descriptionCode: 'SPONSOR_UNKNOWN',
        descriptionParams: { marketplace: 'Open Delivery' },
        amountAt: `${at}.amount`,
        sponsorAt: `${at}.sponsorshipValues`,
      });
    }
  });
  return discounts;
}

/** An Open Delivery order as the service's order; `source` names the marketplace that sent it. */
export function mapOpenDeliveryDocument(body: unknown, source = 'opendelivery', marketplace = 'Open Delivery'): MappedDocument {
  const document = documentObject(body, marketplace);
  // An event (`{eventId, eventType, orderId}`) says something happened to an order; it is not the order.
  const eventType = textOf(document.eventType);
  if (eventType !== undefined && document.items === undefined) throw notAnOrder('eventType', eventType, marketplace);
  const reading = new DocumentReading('valueObject');
  const { problems } = reading;
  const orderId = reading.id(document, 'id', 'id');
  const merchant = isPlainObject(document.merchant) ? document.merchant : {};
  if (!isPlainObject(document.merchant)) problems.add('merchant', 'must be an object with the id of the store');
  const storeId = reading.id(merchant, 'id', 'merchant.id');
  const items: unknown[] = Array.isArray(document.items) ? document.items : [];
  if (!Array.isArray(document.items)) problems.add('items', 'must be an array');
  const lines = items.map((item, index) => mapItem(reading, item, `items[${index}]`)).filter((line) => line !== undefined);
  const orderType = textOf(document.type);
  const fees = mapFees(reading, document, orderType);
  const discounts = mapDiscounts(reading, document, items, fees.deliveryFee !== undefined);
  if (problems.count === 0 && isPlainObject(document.total)) {
    const itemsTotal: Cents = lines.reduce((sum, line) => sum + lineTotal(line), 0);
    const stated = reading.optionalMoney(document.total.itemsPrice, 'total.itemsPrice');
    reading.compareTotal(stated, itemsTotal, 'total.itemsPrice', "the items' price");
  }
  return mappedOrder(
    reading,
    {
      orderId,
      storeId,
      storeName: merchant.name,
      source,
      orderType,
      lines,
      discounts,
      ...fees,
      orderIdAt: 'id',
      storeIdAt: 'merchant.id',
      itemsAt: 'items',
    },
    document,
  );
}
