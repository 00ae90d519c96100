import { Decimal } from 'decimal.js';
import { ApiError, type ErrorDetail } from '../../common/errors/api-error.js';
import { idText, MAX_ID_LENGTH } from '../../common/id-text.js';
import { isPlainObject } from '../../common/plain-object.js';
import { centsTimes, decimalText, isBeyondTextDigits, TEXT_DIGITS_PROBLEM, toCents, toMoney, type Cents } from '../../tax-engine/money.js';
import { splitProportionally } from '../../tax-engine/split.js';

/**
 * iFood's order details (`GET /order/v1.0/orders/{id}`) in the service's order shape. The mapping
 * and what iFood's documents say of each field: docs/ifood-profile.md. Pure: no I/O.
 */

/** Fields of iFood's order that the mapping turns into the service's own; the others are copied to the root. */
const MAPPED_FIELDS = new Set(['id', 'merchant', 'items', 'benefits', 'additionalFees']);
/** The service's names that an iFood field of the same name must not overwrite (it stays in `sourceOrder`). */
const SERVICE_FIELDS = new Set(['orderId', 'store', 'order', 'source', 'sourceOrder', 'taxSummary', 'payload']);

const BENEFIT_TARGETS: Record<string, 'ITEMS' | 'ITEM' | 'DELIVERY_FEE'> = {
  CART: 'ITEMS',
  ITEM: 'ITEM',
  // A discount on one item for buying several of it: it targets that item too.
  PROGRESSIVE_DISCOUNT_ITEM: 'ITEM',
  DELIVERY_FEE: 'DELIVERY_FEE',
};

export interface MappedDiscount {
  amount: number;
  sponsor: 'MERCHANT' | 'PLATFORM';
  target: 'ITEMS' | 'ITEM' | 'DELIVERY_FEE';
  productIndex?: number;
  description: string;
}

class Problems {
  readonly list: ErrorDetail[] = [];
  add(field: string, problem: string): void {
    this.list.push({ field, problem });
  }
}

/** Cents of a non-negative amount (number or numeric text, rounded half-up to the cent), or a problem. */
function amountAt(value: unknown, field: string, problems: Problems): Cents | undefined {
  const text = decimalText(value);
  if (text === undefined) {
    problems.add(field, 'must be a number');
    return undefined;
  }
  if (typeof value === 'string' && isBeyondTextDigits(text)) {
    problems.add(field, TEXT_DIGITS_PROBLEM);
    return undefined;
  }
  let cents: Cents;
  try {
    cents = toCents(text).cents;
  } catch {
    cents = Number.NaN;
  }
  if (!Number.isSafeInteger(cents)) {
    problems.add(field, 'is too large');
    return undefined;
  }
  if (cents < 0) {
    problems.add(field, 'must not be negative');
    return undefined;
  }
  return cents;
}

/** An optional amount: absent (or null) is undefined without a problem. */
function optionalAmountAt(value: unknown, field: string, problems: Problems): Cents | undefined {
  return value === undefined || value === null ? undefined : amountAt(value, field, problems);
}

/** A quantity's decimal text (above 0), or a problem; text is bounded, as it is multiplied exactly. */
function quantityAt(value: unknown, field: string, problems: Problems): string | undefined {
  const text = decimalText(value);
  if (text === undefined || !(Number(text) > 0)) {
    problems.add(field, 'must be a number above 0');
    return undefined;
  }
  if (typeof value === 'string' && isBeyondTextDigits(text)) {
    problems.add(field, TEXT_DIGITS_PROBLEM);
    return undefined;
  }
  return text;
}

/**
 * Adds `difference` to the options' amounts, split as the order-level amounts are (in proportion,
 * half-up, the last option with an amount taking the remainder). The difference is negative when the
 * options are priced above what iFood charged for them: its absolute value is split and each share
 * taken off, so a share is rounded half-up away from zero. Options all at 0.00 weigh nothing: the last
 * one takes the whole difference.
 */
function spreadDifference(difference: Cents, optionAmounts: Cents[]): void {
  const negative = difference < 0;
  const { shares, unplaced } = splitProportionally(Math.abs(difference), optionAmounts);
  for (let index = 0; index < optionAmounts.length; index++) {
    optionAmounts[index] = negative ? optionAmounts[index]! - shares[index]! : optionAmounts[index]! + shares[index]!;
  }
  const last = optionAmounts.length - 1;
  optionAmounts[last] = negative ? optionAmounts[last]! - unplaced : optionAmounts[last]! + unplaced;
}

/**
 * round(cents × quantity) half-up, exact for fractional quantities (items sold by weight): the engine's
 * exact product, rounded once (decimal.js's default 20 digits would round it before the cent); or a
 * problem at `field` when it is beyond exact cents.
 */
function times(cents: Cents, quantity: string, field: string, problems: Problems): Cents | undefined {
  const product = centsTimes(cents, quantity);
  if (product === undefined) problems.add(field, 'times the quantity is too large to be an order amount');
  return product;
}

/** A non-empty `externalCode` (the store's own code for the product), else iFood's `id`. */
function productIdOf(entry: Record<string, unknown>, at: string, problems: Problems): string | undefined {
  // Compared exactly with the product categories' ids, so kept as sent (a blank code is no code).
  const external = idText(entry.externalCode);
  const id = external ?? idText(entry.id);
  if (id === undefined) {
    problems.add(`${at}.id`, 'is required (the product id, used when externalCode is empty)');
    return undefined;
  }
  if (id.length > MAX_ID_LENGTH) {
    problems.add(external ? `${at}.externalCode` : `${at}.id`, `must have at most ${MAX_ID_LENGTH} characters`);
    return undefined;
  }
  return id;
}

interface OptionRead {
  productId: string;
  name: unknown;
  /** The option's units per unit of the item. */
  quantity: string;
  /** The option's price per unit of the item (its unit price × its quantity). */
  price: Cents;
}

function readOption(option: unknown, at: string, problems: Problems): OptionRead | undefined {
  if (!isPlainObject(option)) {
    problems.add(at, 'must be an object');
    return undefined;
  }
  const before = problems.list.length;
  const productId = productIdOf(option, at, problems);
  const quantity =
    option.quantity === undefined || option.quantity === null ? '1' : quantityAt(option.quantity, `${at}.quantity`, problems);
  let price = optionalAmountAt(option.price, `${at}.price`, problems);
  if (price === undefined && (option.price === undefined || option.price === null) && quantity !== undefined) {
    const unitPrice = amountAt(option.unitPrice, `${at}.unitPrice`, problems);
    if (unitPrice !== undefined) price = times(unitPrice, quantity, `${at}.unitPrice`, problems);
  }
  if (problems.list.length > before || productId === undefined || quantity === undefined || price === undefined) return undefined;
  return { productId, name: option.name, quantity, price };
}

/** One iFood item as a line with its options as selected modifiers; the line plus its modifiers total the item's `totalPrice`. */
function mapItem(item: unknown, at: string, problems: Problems): Record<string, unknown> | undefined {
  if (!isPlainObject(item)) {
    problems.add(at, 'must be an object');
    return undefined;
  }
  const before = problems.list.length;
  const productId = productIdOf(item, at, problems);
  const quantity = quantityAt(item.quantity, `${at}.quantity`, problems);
  const unitPrice = amountAt(item.unitPrice, `${at}.unitPrice`, problems);
  const totalPrice = optionalAmountAt(item.totalPrice, `${at}.totalPrice`, problems);
  const optionsPrice = optionalAmountAt(item.optionsPrice, `${at}.optionsPrice`, problems);
  let options: OptionRead[] = [];
  if (item.options !== undefined && item.options !== null) {
    if (!Array.isArray(item.options)) problems.add(`${at}.options`, 'must be an array');
    else
      options = item.options.map((option, index) => readOption(option, `${at}.options[${index}]`, problems)).filter((o) => o !== undefined);
  }
  if (problems.list.length > before || productId === undefined || quantity === undefined || unitPrice === undefined) return undefined;

  // iFood prices options per unit of the item: an option's amount is its price × the item's quantity.
  let lineAmount = times(unitPrice, quantity, `${at}.unitPrice`, problems);
  const optionAmounts: Cents[] = [];
  options.forEach((option, index) => {
    const amount = times(option.price, quantity, `${at}.options[${index}].price`, problems);
    if (amount !== undefined) optionAmounts.push(amount);
  });
  if (lineAmount === undefined || optionAmounts.length < options.length) return undefined;
  const optionsSum = optionAmounts.reduce((sum, amount) => sum + amount, 0);
  if (options.length === 0) {
    // No option to carry a difference: the line is the item's total (equal to unitPrice × quantity on every documented order).
    if (totalPrice !== undefined) lineAmount = totalPrice;
  } else {
    // The options must add up to what iFood charged for them (a half-and-half pizza is charged at its dearer flavour).
    const optionsTarget = totalPrice !== undefined ? totalPrice - lineAmount : (optionsPrice ?? optionsSum);
    const difference = optionsTarget - optionsSum;
    if (difference !== 0) spreadDifference(difference, optionAmounts);
  }

  const line: Record<string, unknown> = {
    productId,
    ...(item.name !== undefined ? { name: item.name } : {}),
    quantity: Number(quantity),
    ...(item.unit !== undefined ? { unit: item.unit } : {}),
    ...(item.observations !== undefined ? { observations: item.observations } : {}),
    price: { unitPrice: { total: toMoney(unitPrice) }, totalPrice: { total: toMoney(lineAmount) } },
  };
  if (options.length > 0) {
    line.modifierGroups = [
      {
        name: 'Options',
        selectedModifiers: options.map((option, index) => ({
          productId: option.productId,
          ...(option.name !== undefined ? { name: option.name } : {}),
          quantity: new Decimal(option.quantity).times(quantity).toNumber(),
          price: { totalPrice: { total: toMoney(optionAmounts[index]) } },
        })),
      },
    ];
  }
  return line;
}

/** The key a benefit's `targetId` names an item by: its `index`, else its `id`. */
function itemKey(item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  return idText(item.index) ?? idText(item.id);
}

function sponsorDescription(name: string, benefit: Record<string, unknown>, sponsorship: Record<string, unknown>): string {
  const campaign = isPlainObject(benefit.campaign) && typeof benefit.campaign.name === 'string' ? benefit.campaign.name : undefined;
  const detail = typeof sponsorship.description === 'string' && sponsorship.description.trim() ? sponsorship.description : campaign;
  return `iFood benefit sponsored by ${name}${detail ? `: ${detail}` : ''}`;
}

function mapBenefits(benefits: unknown, items: unknown[], problems: Problems): MappedDiscount[] {
  if (benefits === undefined || benefits === null) return [];
  if (!Array.isArray(benefits)) {
    problems.add('benefits', 'must be an array');
    return [];
  }
  const discounts: MappedDiscount[] = [];
  benefits.forEach((benefit, index) => {
    const at = `benefits[${index}]`;
    if (!isPlainObject(benefit)) return problems.add(at, 'must be an object');
    const target = typeof benefit.target === 'string' ? BENEFIT_TARGETS[benefit.target] : undefined;
    if (target === undefined) return problems.add(`${at}.target`, `must be one of ${Object.keys(BENEFIT_TARGETS).join(', ')}`);
    let productIndex: number | undefined;
    if (target === 'ITEM') {
      const targetId = idText(benefit.targetId);
      productIndex = targetId === undefined ? -1 : items.findIndex((item) => itemKey(item) === targetId);
      if (productIndex < 0) return problems.add(`${at}.targetId`, 'must name an item by its index (else its id)');
    }
    if (!Array.isArray(benefit.sponsorshipValues)) return problems.add(`${at}.sponsorshipValues`, 'must be an array');
    benefit.sponsorshipValues.forEach((sponsorship, position) => {
      const sponsorAt = `${at}.sponsorshipValues[${position}]`;
      if (!isPlainObject(sponsorship)) return problems.add(sponsorAt, 'must be an object');
      if (typeof sponsorship.name !== 'string' || sponsorship.name.trim() === '')
        return problems.add(`${sponsorAt}.name`, 'must be a text');
      const value = amountAt(sponsorship.value, `${sponsorAt}.value`, problems);
      if (value === undefined || value === 0) return;
      discounts.push({
        amount: toMoney(value),
        // The store grants a MERCHANT share; iFood and partners pay theirs back to the store.
        sponsor: sponsorship.name === 'MERCHANT' ? 'MERCHANT' : 'PLATFORM',
        target,
        ...(productIndex !== undefined ? { productIndex } : {}),
        description: sponsorDescription(sponsorship.name, benefit, sponsorship),
      });
    });
  });
  return discounts;
}

function mapDeliveryFee(
  body: Record<string, unknown>,
  problems: Problems,
): { amount: number; deliveredBy: 'MERCHANT' | 'PLATFORM' } | undefined {
  if (body.total === undefined || body.total === null) return undefined;
  if (!isPlainObject(body.total)) {
    problems.add('total', 'must be an object');
    return undefined;
  }
  const fee = optionalAmountAt(body.total.deliveryFee, 'total.deliveryFee', problems);
  if (fee === undefined || fee === 0) return undefined; // takeout and dine-in orders carry none
  const deliveredBy = isPlainObject(body.delivery) ? body.delivery.deliveredBy : undefined;
  if (typeof deliveredBy !== 'string' || deliveredBy === '') {
    problems.add('delivery.deliveredBy', 'is required when total.deliveryFee is above 0 (MERCHANT or IFOOD)');
    return undefined;
  }
  return { amount: toMoney(fee), deliveredBy: deliveredBy === 'MERCHANT' ? 'MERCHANT' : 'PLATFORM' };
}

function mapAdditionalFees(fees: unknown, problems: Problems): Array<{ amount: number; chargedBy: 'PLATFORM'; description: string }> {
  if (fees === undefined || fees === null) return [];
  if (!Array.isArray(fees)) {
    problems.add('additionalFees', 'must be an array');
    return [];
  }
  const charges: Array<{ amount: number; chargedBy: 'PLATFORM'; description: string }> = [];
  fees.forEach((fee, index) => {
    const at = `additionalFees[${index}]`;
    if (!isPlainObject(fee)) return problems.add(at, 'must be an object');
    const value = amountAt(fee.value, `${at}.value`, problems);
    if (value === undefined || value === 0) return;
    const kind = typeof fee.type === 'string' && fee.type ? fee.type : 'ADDITIONAL_FEE';
    const detail = typeof fee.description === 'string' && fee.description.trim() ? `: ${fee.description}` : '';
    // iFood's own fees (SMALL_ORDER_FEE...): the customer pays them to iFood, not to the store.
    charges.push({ amount: toMoney(value), chargedBy: 'PLATFORM', description: `iFood ${kind}${detail}` });
  });
  return charges;
}

/**
 * The service's order for an iFood order: `orderId`, `store.id`, `order.products` (lines and
 * selected modifiers), `order.discounts`, `order.deliveryFee`, `order.otherCharges`; the fields
 * the mapping does not read are copied to the root, and the whole iFood order is kept under
 * `sourceOrder`. A body that is not an iFood order is a 400 naming every path in iFood's body.
 */
export function mapIfoodOrder(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '')
    throw ApiError.badRequest('The body is empty: send the order as iFood returns it');
  if (!isPlainObject(body)) throw ApiError.badRequest("The body must be a JSON object: the order as iFood's order details return it");
  const problems = new Problems();

  const orderId = idText(body.id);
  if (orderId === undefined) problems.add('id', "is required (iFood's order id)");
  else if (orderId.length > MAX_ID_LENGTH) problems.add('id', `must have at most ${MAX_ID_LENGTH} characters`);

  let storeId: string | undefined;
  if (!isPlainObject(body.merchant)) problems.add('merchant', 'must be an object with the id of the store');
  else {
    storeId = idText(body.merchant.id);
    if (storeId === undefined) problems.add('merchant.id', 'is required (the store)');
    else if (storeId.length > MAX_ID_LENGTH) problems.add('merchant.id', `must have at most ${MAX_ID_LENGTH} characters`);
  }

  const items: unknown[] = Array.isArray(body.items) ? body.items : [];
  if (!Array.isArray(body.items)) problems.add('items', 'must be an array');
  const products = items.map((item, index) => mapItem(item, `items[${index}]`, problems));
  const discounts = mapBenefits(body.benefits, items, problems);
  const deliveryFee = mapDeliveryFee(body, problems);
  const otherCharges = mapAdditionalFees(body.additionalFees, problems);
  if (problems.list.length > 0) throw ApiError.validation(problems.list);

  const kept = Object.fromEntries(Object.entries(body).filter(([key]) => !MAPPED_FIELDS.has(key) && !SERVICE_FIELDS.has(key)));
  const merchant = body.merchant as Record<string, unknown>;
  return {
    ...kept,
    orderId,
    source: 'ifood',
    store: { id: storeId, ...(merchant.name !== undefined ? { name: merchant.name } : {}) },
    order: {
      ...(typeof body.orderType === 'string' ? { type: body.orderType } : {}),
      products,
      ...(discounts.length > 0 ? { discounts } : {}),
      ...(deliveryFee ? { deliveryFee } : {}),
      ...(otherCharges.length > 0 ? { otherCharges } : {}),
    },
    sourceOrder: body,
  };
}
