import { Decimal } from 'decimal.js';
import { ApiError } from '../../common/errors/api-error.js';
import { idText, MAX_ID_LENGTH } from '../../common/id-text.js';
import { isPlainObject } from '../../common/plain-object.js';
import { centsTimes, decimalText, isBeyondTextDigits, TEXT_DIGITS_PROBLEM, toCents, toMoney, type Cents } from '../../tax-engine/money.js';
import { splitProportionally } from '../../tax-engine/split.js';
import { MAX_DESCRIPTION_LENGTH, MAX_ORDER_ADJUSTMENTS, type DescriptionLabel } from '../../tax-engine/order-adjustments.js';
import { INTAKE_WARNINGS_FIELD } from '../../tax-engine/tax-engine.js';
import { DocumentProblems, fitText, IntakeWarnings, SourcePaths, type MappedDocument } from '../profiles/mapped-document.js';

/**
 * iFood's order details (`GET /order/v1.0/orders/{id}`) in the service's order shape. The mapping
 * and what iFood's documents say of each field: docs/ifood-profile.md. Pure: no I/O.
 */

/** Fields of iFood's order that the mapping turns into the service's own; the others are copied to the root. */
const MAPPED_FIELDS = new Set(['id', 'merchant', 'items', 'benefits', 'additionalFees']);
/** The service's names that an iFood field of the same name must not overwrite (it stays in `sourceOrder`). */
const SERVICE_FIELDS = new Set(['orderId', 'store', 'order', 'source', 'sourceOrder', 'taxSummary', 'payload', INTAKE_WARNINGS_FIELD]);

const BENEFIT_TARGETS: Record<string, 'ITEMS' | 'ITEM' | 'DELIVERY_FEE'> = {
  CART: 'ITEMS',
  ITEM: 'ITEM',
  // A discount on one item for buying several of it: it targets that item too.
  PROGRESSIVE_DISCOUNT_ITEM: 'ITEM',
  DELIVERY_FEE: 'DELIVERY_FEE',
};

export interface MappedDiscount extends DescriptionLabel {
  amount: number;
  sponsor: 'MERCHANT' | 'PLATFORM';
  target: 'ITEMS' | 'ITEM' | 'DELIVERY_FEE';
  productIndex?: number;
  description: string;
}

type Problems = DocumentProblems;

/** What the reading of one document collects besides the mapped parts. */
interface Reading {
  problems: Problems;
  warnings: IntakeWarnings;
  paths: SourcePaths;
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

function campaignName(benefit: Record<string, unknown>): string | undefined {
  return isPlainObject(benefit.campaign) && typeof benefit.campaign.name === 'string' ? benefit.campaign.name : undefined;
}

/**
 * The discount's description: who pays it and the sponsorship's description (else the campaign's name), cut to fit;
 * beside it the same as a code and parameters, which the console says in the reader's language.
 */
function sponsorDescription(
  name: string | undefined,
  benefit: Record<string, unknown>,
  sponsorship: Record<string, unknown>,
): Required<Pick<MappedDiscount, 'description' | 'descriptionCode' | 'descriptionParams'>> {
  const detail =
    typeof sponsorship.description === 'string' && sponsorship.description.trim() ? sponsorship.description : campaignName(benefit);
  const payer = name === undefined ? 'iFood benefit, sponsor unknown' : `iFood benefit sponsored by ${name}`;
  const fitDetail = detail ? fitText(detail, MAX_DESCRIPTION_LENGTH) : undefined;
  return {
    description: fitText(`${payer}${detail ? `: ${detail}` : ''}`, MAX_DESCRIPTION_LENGTH),
    descriptionCode: name === undefined ? 'SPONSOR_UNKNOWN' : 'SPONSORED_BY',
    descriptionParams: {
      marketplace: 'iFood',
      ...(name !== undefined ? { sponsor: fitText(name, MAX_DESCRIPTION_LENGTH) } : {}),
      ...(fitDetail !== undefined ? { detail: fitDetail } : {}),
    },
  };
}

/**
 * What a benefit applies to. A target that names nothing in the order (an ITEM `targetId` that is no item's
 * `index` nor `id`, a DELIVERY_FEE benefit on an order without a fee, a target iFood does not document) is
 * the whole cart, with the warning DISCOUNT_TARGET_NOT_FOUND: the customer paid that much less for the order.
 */
function benefitTarget(
  benefit: Record<string, unknown>,
  at: string,
  items: unknown[],
  hasDeliveryFee: boolean,
  warnings: IntakeWarnings,
): { target: MappedDiscount['target']; productIndex?: number } {
  const cart = 'the benefit was applied to the whole cart (ITEMS)';
  const target = typeof benefit.target === 'string' ? BENEFIT_TARGETS[benefit.target] : undefined;
  if (target === undefined) {
    const sent = typeof benefit.target === 'string' ? `target "${fitText(benefit.target, 50)}" is not one iFood documents` : 'no target';
    warnings.add('DISCOUNT_TARGET_NOT_FOUND', `${at}.target`, `${sent} (${Object.keys(BENEFIT_TARGETS).join(', ')}): ${cart}`);
    return { target: 'ITEMS' };
  }
  if (target === 'ITEM') {
    const targetId = idText(benefit.targetId);
    const productIndex = targetId === undefined ? -1 : items.findIndex((item) => itemKey(item) === targetId);
    if (productIndex >= 0) return { target, productIndex };
    const named =
      targetId === undefined ? 'no targetId' : `targetId "${fitText(targetId, 50)}" names no item of the order (by index, else id)`;
    warnings.add('DISCOUNT_TARGET_NOT_FOUND', `${at}.targetId`, `${named}: ${cart}`);
    return { target: 'ITEMS' };
  }
  if (target === 'DELIVERY_FEE' && !hasDeliveryFee) {
    warnings.add('DISCOUNT_TARGET_NOT_FOUND', `${at}.target`, `target DELIVERY_FEE on an order without a delivery fee: ${cart}`);
    return { target: 'ITEMS' };
  }
  return { target };
}

function mapBenefits(benefits: unknown, items: unknown[], hasDeliveryFee: boolean, reading: Reading): MappedDiscount[] {
  const { problems, warnings, paths } = reading;
  if (benefits === undefined || benefits === null) return [];
  if (!Array.isArray(benefits)) {
    problems.add('benefits', 'must be an array');
    return [];
  }
  paths.record('order.discounts', 'benefits');
  const discounts: MappedDiscount[] = [];
  const push = (discount: MappedDiscount, sourceAt: string, benefitAt: string) => {
    paths.record(`order.discounts[${discounts.length}]`, sourceAt, {
      amount: `${sourceAt}.value`,
      sponsor: `${sourceAt}.name`,
      target: `${benefitAt}.target`,
      productIndex: `${benefitAt}.targetId`,
    });
    discounts.push(discount);
  };
  benefits.forEach((benefit, index) => {
    const at = `benefits[${index}]`;
    if (!isPlainObject(benefit)) return problems.add(at, 'must be an object');
    const { target, productIndex } = benefitTarget(benefit, at, items, hasDeliveryFee, warnings);
    const applied = { target, ...(productIndex !== undefined ? { productIndex } : {}) };
    const sponsorships = benefit.sponsorshipValues;
    if (sponsorships !== undefined && sponsorships !== null && !Array.isArray(sponsorships))
      return problems.add(`${at}.sponsorshipValues`, 'must be an array');
    if (!Array.isArray(sponsorships) || sponsorships.length === 0) {
      // Nobody is named to pay it: taxed as a discount the store is paid back for, so that no base is lowered on a guess.
      const value = optionalAmountAt(benefit.value, `${at}.value`, problems);
      warnings.add(
        'DISCOUNT_SPONSOR_UNKNOWN',
        `${at}.sponsorshipValues`,
        `the benefit names no sponsor: its value${value ? ` ${toMoney(value).toFixed(2)}` : ''} was applied as paid back by the platform (PLATFORM), lowering no tax base`,
      );
      if (value === undefined || value === 0) return;
      return push({ amount: toMoney(value), sponsor: 'PLATFORM', ...applied, ...sponsorDescription(undefined, benefit, {}) }, at, at);
    }
    sponsorships.forEach((sponsorship, position) => {
      const sponsorAt = `${at}.sponsorshipValues[${position}]`;
      if (!isPlainObject(sponsorship)) return problems.add(sponsorAt, 'must be an object');
      const value = amountAt(sponsorship.value, `${sponsorAt}.value`, problems);
      if (value === undefined || value === 0) return;
      const name = typeof sponsorship.name === 'string' && sponsorship.name.trim() !== '' ? sponsorship.name : undefined;
      if (name === undefined) {
        warnings.add(
          'DISCOUNT_SPONSOR_UNKNOWN',
          `${sponsorAt}.name`,
          `the sponsorship names no sponsor: its value ${toMoney(value).toFixed(2)} was applied as paid back by the platform (PLATFORM), lowering no tax base`,
        );
      }
      push(
        {
          amount: toMoney(value),
          // The store grants a MERCHANT share; iFood and partners pay theirs back to the store.
          sponsor: name === 'MERCHANT' ? 'MERCHANT' : 'PLATFORM',
          ...applied,
          ...sponsorDescription(name, benefit, sponsorship),
        },
        sponsorAt,
        at,
      );
    });
  });
  if (discounts.length > MAX_ORDER_ADJUSTMENTS)
    problems.add('benefits', `must have at most ${MAX_ORDER_ADJUSTMENTS} sponsorship values above 0 in all (each one is a discount)`);
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

function mapAdditionalFees(
  fees: unknown,
  { problems, paths }: Reading,
): Array<{ amount: number; chargedBy: 'PLATFORM'; description: string }> {
  if (fees === undefined || fees === null) return [];
  if (!Array.isArray(fees)) {
    problems.add('additionalFees', 'must be an array');
    return [];
  }
  paths.record('order.otherCharges', 'additionalFees');
  const charges: Array<{ amount: number; chargedBy: 'PLATFORM'; description: string }> = [];
  fees.forEach((fee, index) => {
    const at = `additionalFees[${index}]`;
    if (!isPlainObject(fee)) return problems.add(at, 'must be an object');
    const value = amountAt(fee.value, `${at}.value`, problems);
    if (value === undefined || value === 0) return;
    const kind = typeof fee.type === 'string' && fee.type ? fee.type : 'ADDITIONAL_FEE';
    const detail = typeof fee.description === 'string' && fee.description.trim() ? `: ${fee.description}` : '';
    paths.record(`order.otherCharges[${charges.length}]`, at, { amount: `${at}.value`, chargedBy: `${at}.type` });
    // iFood's own fees (SMALL_ORDER_FEE...): the customer pays them to iFood, not to the store.
    charges.push({ amount: toMoney(value), chargedBy: 'PLATFORM', description: fitText(`iFood ${kind}${detail}`, MAX_DESCRIPTION_LENGTH) });
  });
  if (charges.length > MAX_ORDER_ADJUSTMENTS) problems.add('additionalFees', `must have at most ${MAX_ORDER_ADJUSTMENTS} fees above 0`);
  return charges;
}

/** Where each line and selected modifier came from: an error about one names its item or option. */
function recordItemPaths(items: unknown[], paths: SourcePaths): void {
  paths.record('order.products', 'items');
  items.forEach((item, index) => {
    const at = `items[${index}]`;
    paths.record(`order.products[${index}]`, at, {
      'price.unitPrice.total': `${at}.unitPrice`,
      'price.totalPrice.total': `${at}.totalPrice`,
      modifierGroups: `${at}.options`,
    });
    const options = isPlainObject(item) && Array.isArray(item.options) ? item.options : [];
    for (let position = 0; position < options.length; position++) {
      paths.record(`order.products[${index}].modifierGroups[0].selectedModifiers[${position}]`, `${at}.options[${position}]`, {
        'price.totalPrice.total': `${at}.options[${position}].price`,
      });
    }
  });
}

/**
 * The service's order for an iFood order: `orderId`, `store.id`, `order.products` (lines and
 * selected modifiers), `order.discounts`, `order.deliveryFee`, `order.otherCharges`; the fields
 * the mapping does not read are copied to the root, and the whole iFood order is kept under
 * `sourceOrder`. A body that cannot be read as an order is a 400 naming every path in iFood's body;
 * what the order says inconsistently is applied anyway, with a warning (`intakeWarnings`).
 */
export function mapIfoodOrder(body: unknown): Record<string, unknown> {
  return mapIfoodDocument(body).order;
}

/** As `mapIfoodOrder`, with the iFood path of each part of the mapped order, for errors found on it later. */
export function mapIfoodDocument(body: unknown): MappedDocument {
  if (body === undefined || body === null || body === '')
    throw ApiError.badRequest('The body is empty: send the order as iFood returns it');
  if (!isPlainObject(body)) throw ApiError.badRequest("The body must be a JSON object: the order as iFood's order details return it");
  const reading: Reading = { problems: new DocumentProblems(), warnings: new IntakeWarnings(), paths: new SourcePaths() };
  const { problems, paths } = reading;
  paths.record('orderId', 'id');
  paths.record('store', 'merchant');
  paths.record('order.type', 'orderType');

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
  recordItemPaths(items, paths);
  const deliveryFee = mapDeliveryFee(body, problems);
  paths.record('order.deliveryFee', 'total.deliveryFee', { amount: 'total.deliveryFee', deliveredBy: 'delivery.deliveredBy' });
  const discounts = mapBenefits(body.benefits, items, deliveryFee !== undefined, reading);
  const otherCharges = mapAdditionalFees(body.additionalFees, reading);
  problems.throwIfAny();

  const kept = Object.fromEntries(Object.entries(body).filter(([key]) => !MAPPED_FIELDS.has(key) && !SERVICE_FIELDS.has(key)));
  const merchant = body.merchant as Record<string, unknown>;
  const warnings = reading.warnings.list;
  const order = {
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
    ...(warnings.length > 0 ? { [INTAKE_WARNINGS_FIELD]: warnings } : {}),
    sourceOrder: body,
  };
  return { order, sourcePaths: paths };
}
