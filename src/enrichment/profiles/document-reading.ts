import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';
import { exactIntegerText } from '../../common/exact-integers.js';
import { idText, MAX_ID_LENGTH } from '../../common/id-text.js';
import { isPlainObject } from '../../common/plain-object.js';
import { centsTimes, decimalText, isBeyondTextDigits, TEXT_DIGITS_PROBLEM, toCents, toMoney, type Cents } from '../../tax-engine/money.js';
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_ORDER_ADJUSTMENTS,
  type DiscountDescriptionCode,
  type DiscountDescriptionParams,
} from '../../tax-engine/order-adjustments.js';
import { INTAKE_WARNINGS_FIELD } from '../../tax-engine/tax-engine.js';
import { DocumentProblems, fitText, IntakeWarnings, SourcePaths, type MappedDocument } from './mapped-document.js';

/**
 * What the marketplace profiles share to read a document into the service's order: amounts in each
 * marketplace's unit (reais, cents, `{value, currency}`), ids kept exactly (integers past 2^53 included),
 * quantities, and the mapped order's shape. Problems and warnings name the document's own paths.
 */

/** A whole quantity of at most 9 digits, the quantity of nearly every item. */
const WHOLE_QUANTITY = /^\d{1,9}$/;

/**
 * cents × a whole `quantity` in Number arithmetic, which is exact for integers while the product is a safe integer;
 * undefined otherwise (a fraction, or a product past 2^53), for the decimal arithmetic. Most of a mapping's time went
 * to decimal.js for products such as 2590 × 2.
 */
function wholeTimes(cents: Cents, quantity: string): Cents | undefined {
  if (!Number.isSafeInteger(cents) || !WHOLE_QUANTITY.test(quantity)) return undefined;
  const product = cents * Number(quantity);
  // `+ 0` turns the -0 of a negative amount times 0 into 0, as the decimal arithmetic does.
  return Number.isSafeInteger(product) ? product + 0 : undefined;
}

/** How a marketplace writes money. */
export type MoneyUnit = 'units' | 'cents' | 'valueObject';

/** Options nested deeper than this (options of options of ...) are refused: no real menu goes that deep. */
export const MAX_OPTION_DEPTH = 8;

export interface MappedOption {
  productId: string;
  name?: unknown;
  /** Units of the option in the whole line (its quantity per unit of the item × the item's quantity). */
  quantity: number;
  amount: Cents;
  /** The document's path of the option and of its price, for errors found on the mapped order. */
  at: string;
  priceAt: string;
}

export interface MappedLine {
  productId: string;
  name?: unknown;
  quantity: number;
  unitPrice: Cents;
  amount: Cents;
  options: MappedOption[];
  at: string;
  unitPriceAt: string;
}

export interface MappedDiscount {
  amount: Cents;
  sponsor: 'MERCHANT' | 'PLATFORM';
  target: 'ITEMS' | 'ITEM' | 'DELIVERY_FEE';
  productIndex?: number;
  description: string;
  /** The description as a code and parameters, which the console says in the reader's language. */
  descriptionCode: DiscountDescriptionCode;
  descriptionParams: DiscountDescriptionParams;
  /** The document's path of the amount and of what named the sponsor. */
  amountAt: string;
  sponsorAt: string;
}

export interface MappedCharge {
  amount: Cents;
  chargedBy: 'MERCHANT' | 'PLATFORM';
  description: string;
  amountAt: string;
}

/** One document's reading: its problems (a 400), its warnings, and where each mapped part came from. */
export class DocumentReading {
  readonly problems = new DocumentProblems();
  readonly warnings = new IntakeWarnings();
  readonly paths = new SourcePaths();

  constructor(private readonly unit: MoneyUnit) {}

  /** Cents of a non-negative amount in the marketplace's unit, or a problem at `field` (undefined). */
  money(value: unknown, field: string): Cents | undefined {
    if (this.unit === 'valueObject') {
      // `{ value, currency }`; a bare number is read as its value.
      if (isPlainObject(value)) return this.decimal(value.value, `${field}.value`);
      if (typeof value === 'number' || typeof value === 'string') return this.decimal(value, field);
      this.problems.add(field, 'must be an object { value, currency }');
      return undefined;
    }
    if (this.unit === 'cents') {
      const text = decimalText(value);
      if (text === undefined || !/^-?\d+$/.test(text)) {
        this.problems.add(field, 'must be a whole number of cents');
        return undefined;
      }
      return this.checked(typeof value === 'string' && isBeyondTextDigits(text) ? undefined : Number(text), field, text);
    }
    return this.decimal(value, field);
  }

  /** As `money`, with absent (or null) read as undefined without a problem. */
  optionalMoney(value: unknown, field: string): Cents | undefined {
    return value === undefined || value === null ? undefined : this.money(value, field);
  }

  private decimal(value: unknown, field: string): Cents | undefined {
    const text = decimalText(value);
    if (text === undefined) {
      this.problems.add(field, 'must be a number');
      return undefined;
    }
    if (typeof value === 'string' && isBeyondTextDigits(text)) {
      this.problems.add(field, TEXT_DIGITS_PROBLEM);
      return undefined;
    }
    let cents: Cents;
    try {
      cents = toCents(text).cents;
    } catch {
      cents = Number.NaN;
    }
    return this.checked(cents, field, text);
  }

  private checked(cents: number | undefined, field: string, text: string): Cents | undefined {
    if (cents === undefined) {
      this.problems.add(field, TEXT_DIGITS_PROBLEM);
      return undefined;
    }
    if (!Number.isSafeInteger(cents)) {
      this.problems.add(field, `is too large (${fitText(text, 30)})`);
      return undefined;
    }
    if (cents < 0) {
      this.problems.add(field, 'must not be negative');
      return undefined;
    }
    return cents;
  }

  /** A quantity's decimal text (above 0); absent is `fallback` when one is given. */
  quantity(value: unknown, field: string, fallback?: string): string | undefined {
    if ((value === undefined || value === null) && fallback !== undefined) return fallback;
    const text = decimalText(value);
    if (text === undefined || !(Number(text) > 0)) {
      this.problems.add(field, 'must be a number above 0');
      return undefined;
    }
    if (isBeyondTextDigits(text)) {
      this.problems.add(field, TEXT_DIGITS_PROBLEM);
      return undefined;
    }
    return text;
  }

  /** round(cents × quantity) half-up, exactly; a problem at `field` when beyond exact cents. */
  times(cents: Cents, quantity: string, field: string): Cents | undefined {
    const product = wholeTimes(cents, quantity) ?? centsTimes(cents, quantity);
    if (product === undefined) this.problems.add(field, 'times the quantity is too large to be an order amount');
    return product;
  }

  /**
   * The id at `holder[key]` as text, exactly as the document wrote it (an integer past 2^53 keeps every digit);
   * undefined when absent or blank, a problem when longer than the service's ids.
   */
  id(holder: Record<string, unknown>, key: string, field: string): string | undefined {
    const id = exactIntegerText(holder, key) ?? idText(holder[key]);
    if (id === undefined) {
      // An empty `field` reads quietly (comparing ids, not reading the document's own).
      if (typeof holder[key] === 'number' && field !== '') this.problems.add(field, 'must be a non-negative whole number or text');
      return undefined;
    }
    if (id.length > MAX_ID_LENGTH && field !== '') {
      this.problems.add(field, `must have at most ${MAX_ID_LENGTH} characters`);
      return undefined;
    }
    return id;
  }

  /** A warning SOURCE_TOTAL_MISMATCH when the marketplace's own figure differs from what its items add up to. */
  compareTotal(stated: Cents | undefined, computed: Cents, at: string, what: string): void {
    if (stated === undefined || stated === computed) return;
    this.warnings.add(
      'SOURCE_TOTAL_MISMATCH',
      at,
      `the marketplace states ${what} as ${toMoney(stated).toFixed(2)}, but its lines and options add up to ${toMoney(computed).toFixed(2)}: the lines and options were taxed`,
    );
  }

  /** A discount whose sponsor is not named: taken as the platform's, lowering no base. */
  unknownSponsor(at: string, amount: Cents): void {
    this.warnings.add(
      'DISCOUNT_SPONSOR_UNKNOWN',
      at,
      `no sponsor covers ${toMoney(amount).toFixed(2)} of the discount: it was applied as paid back by the platform (PLATFORM), lowering no tax base`,
    );
  }
}

/** 422 NOT_AN_ORDER: the document is a notice (a scheduled order's notice, a cancellation), not an order to tax. */
export function notAnOrder(field: string, value: string, marketplace: string): ApiError {
  const shown = fitText(value, 60);
  return new ApiError(
    ErrorCode.NOT_AN_ORDER,
    `The ${marketplace} document is a notice (${field} "${shown}"), not an order to tax; nothing was computed or stored`,
    { details: [{ field, problem: `"${shown}" is not an order` }] },
  );
}

/** The body as an object, or the 400 every profile answers for an empty or non-object body. */
export function documentObject(body: unknown, marketplace: string): Record<string, unknown> {
  if (body === undefined || body === null || body === '')
    throw ApiError.badRequest(`The body is empty: send the order as ${marketplace} sends it`);
  if (!isPlainObject(body)) throw ApiError.badRequest(`The body must be a JSON object: the order as ${marketplace} sends it`);
  return body;
}

export interface OrderParts {
  orderId: string | undefined;
  storeId: string | undefined;
  storeName?: unknown;
  source: string;
  orderType?: string;
  lines: MappedLine[];
  discounts: MappedDiscount[];
  deliveryFee?: { amount: Cents; deliveredBy: 'MERCHANT' | 'PLATFORM'; amountAt: string; deliveredByAt: string };
  otherCharges: MappedCharge[];
  serviceCharge?: { amount: Cents; amountAt: string };
  /** Paths of the document the order's id and store came from. */
  orderIdAt: string;
  storeIdAt: string;
  /** The products' array path in the document (`items`, `order_detail.items`). */
  itemsAt: string;
}

/**
 * The service's order of the parts a profile read (the same shape as an order sent in the service's own words),
 * with the whole document under `sourceOrder`; a 400 listing every problem when the document cannot be read.
 */
export function mappedOrder(reading: DocumentReading, parts: OrderParts, document: Record<string, unknown>): MappedDocument {
  const { problems, paths } = reading;
  if (parts.orderId === undefined && !problems.list.some((problem) => problem.field === parts.orderIdAt))
    problems.add(parts.orderIdAt, "is required (the marketplace's order id)");
  if (parts.storeId === undefined && !problems.list.some((problem) => problem.field === parts.storeIdAt))
    problems.add(parts.storeIdAt, 'is required (the store)');
  if (parts.discounts.length > MAX_ORDER_ADJUSTMENTS)
    problems.add(parts.itemsAt, `the order has more than ${MAX_ORDER_ADJUSTMENTS} discount shares above 0`);
  if (parts.otherCharges.length > MAX_ORDER_ADJUSTMENTS)
    problems.add(parts.itemsAt, `the order has more than ${MAX_ORDER_ADJUSTMENTS} charges above 0`);
  problems.throwIfAny();

  paths.record('orderId', parts.orderIdAt);
  paths.record('store.id', parts.storeIdAt);
  paths.record('order.products', parts.itemsAt);
  const products = parts.lines.map((line, index) => {
    paths.record(`order.products[${index}]`, line.at, {
      'price.unitPrice.total': line.unitPriceAt,
      'price.totalPrice.total': line.unitPriceAt,
    });
    line.options.forEach((option, position) =>
      paths.record(`order.products[${index}].modifierGroups[0].selectedModifiers[${position}]`, option.at, {
        'price.totalPrice.total': option.priceAt,
      }),
    );
    return {
      productId: line.productId,
      ...(line.name !== undefined ? { name: line.name } : {}),
      quantity: line.quantity,
      price: { unitPrice: { total: toMoney(line.unitPrice) }, totalPrice: { total: toMoney(line.amount) } },
      ...(line.options.length > 0
        ? {
            modifierGroups: [
              {
                name: 'Options',
                selectedModifiers: line.options.map((option) => ({
                  productId: option.productId,
                  ...(option.name !== undefined ? { name: option.name } : {}),
                  quantity: option.quantity,
                  price: { totalPrice: { total: toMoney(option.amount) } },
                })),
              },
            ],
          }
        : {}),
    };
  });
  const discounts = parts.discounts.map((discount, index) => {
    paths.record(`order.discounts[${index}]`, discount.amountAt, { amount: discount.amountAt, sponsor: discount.sponsorAt });
    return {
      amount: toMoney(discount.amount),
      sponsor: discount.sponsor,
      target: discount.target,
      ...(discount.productIndex !== undefined ? { productIndex: discount.productIndex } : {}),
      description: fitText(discount.description, MAX_DESCRIPTION_LENGTH),
      descriptionCode: discount.descriptionCode,
      descriptionParams: Object.fromEntries(
        Object.entries(discount.descriptionParams).map(([name, value]) => [name, fitText(value, MAX_DESCRIPTION_LENGTH)]),
      ),
    };
  });
  const otherCharges = parts.otherCharges.map((charge, index) => {
    paths.record(`order.otherCharges[${index}]`, charge.amountAt, { amount: charge.amountAt });
    return {
      amount: toMoney(charge.amount),
      chargedBy: charge.chargedBy,
      description: fitText(charge.description, MAX_DESCRIPTION_LENGTH),
    };
  });
  if (parts.deliveryFee)
    paths.record('order.deliveryFee', parts.deliveryFee.amountAt, {
      amount: parts.deliveryFee.amountAt,
      deliveredBy: parts.deliveryFee.deliveredByAt,
    });
  if (parts.serviceCharge) paths.record('order.serviceCharge', parts.serviceCharge.amountAt, { amount: parts.serviceCharge.amountAt });

  const warnings = reading.warnings.list;
  const order = {
    orderId: parts.orderId,
    source: parts.source,
    store: { id: parts.storeId, ...(parts.storeName !== undefined ? { name: parts.storeName } : {}) },
    order: {
      ...(parts.orderType ? { type: parts.orderType } : {}),
      products,
      ...(discounts.length > 0 ? { discounts } : {}),
      ...(parts.deliveryFee
        ? { deliveryFee: { amount: toMoney(parts.deliveryFee.amount), deliveredBy: parts.deliveryFee.deliveredBy } }
        : {}),
      ...(parts.serviceCharge ? { serviceCharge: { amount: toMoney(parts.serviceCharge.amount) } } : {}),
      ...(otherCharges.length > 0 ? { otherCharges } : {}),
    },
    ...(warnings.length > 0 ? { [INTAKE_WARNINGS_FIELD]: warnings } : {}),
    sourceOrder: document,
  };
  return { order, sourcePaths: paths };
}

/** The sum of a line and its options. */
export function lineTotal(line: MappedLine): Cents {
  return line.options.reduce((sum, option) => sum + option.amount, line.amount);
}

/** A string field, or undefined. */
export function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
