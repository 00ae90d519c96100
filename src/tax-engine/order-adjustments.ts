import { isPlainObject } from '../common/plain-object.js';
import { decimalText, isBeyondTextDigits, TEXT_DIGITS_PROBLEM, toCents, type Cents } from './money.js';

/**
 * The order-level amounts of an order (`order.discounts`, `order.deliveryFee`, `order.serviceCharge`,
 * `order.otherCharges`), read in cents. The enrichment request refuses an order with a malformed entry
 * (400 naming its path); the engine, which also re-taxes stored orders, skips such entries.
 */
export const DISCOUNT_SPONSORS = ['MERCHANT', 'PLATFORM', 'THIRD_PARTY'] as const;
export type DiscountSponsor = (typeof DISCOUNT_SPONSORS)[number];
export const DISCOUNT_TARGETS = ['ITEMS', 'ITEM', 'DELIVERY_FEE'] as const;
export type DiscountTarget = (typeof DISCOUNT_TARGETS)[number];
export const AMOUNT_PARTIES = ['MERCHANT', 'PLATFORM'] as const;
export type AmountParty = (typeof AMOUNT_PARTIES)[number];

/** At most this many discounts and as many other charges: the split costs one pass over the items each. */
export const MAX_ORDER_ADJUSTMENTS = 100;
/** A discount's or charge's description: the length the service's order takes (a marketplace's longer text is cut to it). */
export const MAX_DESCRIPTION_LENGTH = 500;

/**
 * What a discount's description says, as a code and its parameters, set by the marketplace profiles beside the
 * English `description` they write (`descriptionCode`, `descriptionParams`), so that the console says it in the
 * reader's language. `marketplace` is the marketplace's name; `sponsor` the sponsor as the marketplace names it;
 * `promotionType` the marketplace's promotion type; `detail` the marketplace's own text (a campaign's name).
 */
export const DISCOUNT_DESCRIPTION_CODES = [
  'SPONSORED_BY',
  'SPONSOR_UNKNOWN',
  'PAID_BY_STORE',
  'PAID_BY_MARKETPLACE',
  'MARKETPLACE_SUPPORT',
] as const;
export type DiscountDescriptionCode = (typeof DISCOUNT_DESCRIPTION_CODES)[number];
export interface DiscountDescriptionParams {
  marketplace: string;
  sponsor?: string;
  promotionType?: string;
  detail?: string;
}
const DESCRIPTION_PARAMS = ['marketplace', 'sponsor', 'promotionType', 'detail'] as const;

/** A discount's description code and parameters, when the entry carries well-formed ones. */
export interface DescriptionLabel {
  descriptionCode?: DiscountDescriptionCode;
  descriptionParams?: DiscountDescriptionParams;
}

/**
 * The entry's description code and parameters, or nothing: they only say the description again, so a malformed pair
 * is left out rather than refused (the English `description` still says it).
 */
export function descriptionLabelOf(entry: Record<string, unknown>): DescriptionLabel {
  const code = entry.descriptionCode;
  const params = entry.descriptionParams;
  if (typeof code !== 'string' || !(DISCOUNT_DESCRIPTION_CODES as readonly string[]).includes(code) || !isPlainObject(params)) return {};
  const kept: Record<string, string> = {};
  for (const name of DESCRIPTION_PARAMS) {
    const value = params[name];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.length > MAX_DESCRIPTION_LENGTH) return {};
    kept[name] = value;
  }
  if (kept.marketplace === undefined) return {};
  return { descriptionCode: code as DiscountDescriptionCode, descriptionParams: kept as unknown as DiscountDescriptionParams };
}

export interface OrderDiscount extends DescriptionLabel {
  /** Its position in `order.discounts`, for the paths of warnings. */
  index: number;
  amount: Cents;
  sponsor: DiscountSponsor;
  target: DiscountTarget;
  /** The line of an `ITEM` discount: `order.products[productIndex]`. */
  productIndex?: number;
  description?: string;
}

export interface OrderCharge {
  amount: Cents;
  chargedBy: AmountParty;
  description?: string;
}

export interface OrderAdjustments {
  discounts: OrderDiscount[];
  deliveryFee?: { amount: Cents; deliveredBy: AmountParty };
  serviceCharge?: { amount: Cents };
  otherCharges: OrderCharge[];
}

/** An amount of a well-formed entry that had more than 2 decimals and was rounded half-up to the cent. */
export interface RoundedAmount {
  /** e.g. `order.discounts[0].amount`. */
  path: string;
  /** The amount as sent. */
  text: string;
  cents: Cents;
}

export interface AdjustmentProblem {
  /** From the payload's root, e.g. `order.discounts[1].sponsor`. */
  path: string;
  /** What is wrong, to follow the path: `must be one of MERCHANT, PLATFORM, THIRD_PARTY`. */
  message: string;
}

/** Whether the order carries any of the order-level fields (null counts as absent): without them nothing else is read. */
export function hasOrderAdjustments(order: unknown): boolean {
  if (!isPlainObject(order)) return false;
  return (
    (order.discounts !== undefined && order.discounts !== null) ||
    (order.deliveryFee !== undefined && order.deliveryFee !== null) ||
    (order.serviceCharge !== undefined && order.serviceCharge !== null) ||
    (order.otherCharges !== undefined && order.otherCharges !== null)
  );
}

/**
 * The well-formed order-level amounts of `payload.order`, a problem for each malformed entry, and the
 * amounts of well-formed entries that were rounded to the cent (each one a warning, as for line amounts).
 */
export function readOrderAdjustments(order: unknown): {
  adjustments: OrderAdjustments;
  problems: AdjustmentProblem[];
  rounded: RoundedAmount[];
} {
  const adjustments: OrderAdjustments = { discounts: [], otherCharges: [] };
  const problems: AdjustmentProblem[] = [];
  const rounded: RoundedAmount[] = [];
  if (!isPlainObject(order)) return { adjustments, problems, rounded };
  const lineCount = Array.isArray(order.products) ? order.products.length : 0;
  const reader = new EntryReader(problems);
  const kept = (amount: AmountRead, path: string): Cents => {
    if (amount.rounded) rounded.push({ path, text: amount.text, cents: amount.cents });
    return amount.cents;
  };

  reader.each(order.discounts, 'order.discounts', (entry, path, index) => {
    const amount = reader.amount(entry.amount, `${path}.amount`, true);
    const sponsor = reader.oneOf(entry.sponsor, DISCOUNT_SPONSORS, `${path}.sponsor`);
    const target = reader.oneOf(entry.target, DISCOUNT_TARGETS, `${path}.target`);
    const description = reader.description(entry.description, `${path}.description`);
    let productIndex: number | undefined;
    let indexOk = true;
    if (target === 'ITEM') {
      const value = entry.productIndex;
      indexOk = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < lineCount;
      if (indexOk) productIndex = value as number;
      else reader.problem(`${path}.productIndex`, `must be the index of a line of order.products (0 to ${lineCount - 1}) for target ITEM`);
    }
    if (amount === undefined || sponsor === undefined || target === undefined || !indexOk || description === null) return;
    adjustments.discounts.push({
      index,
      amount: kept(amount, `${path}.amount`),
      sponsor,
      target,
      ...(productIndex !== undefined ? { productIndex } : {}),
      ...(description !== undefined ? { description, ...descriptionLabelOf(entry) } : {}),
    });
  });

  const fee = reader.object(order.deliveryFee, 'order.deliveryFee');
  if (fee) {
    const amount = reader.amount(fee.amount, 'order.deliveryFee.amount', false);
    const deliveredBy = reader.oneOf(fee.deliveredBy, AMOUNT_PARTIES, 'order.deliveryFee.deliveredBy');
    if (amount !== undefined && deliveredBy !== undefined)
      adjustments.deliveryFee = { amount: kept(amount, 'order.deliveryFee.amount'), deliveredBy };
  }

  const service = reader.object(order.serviceCharge, 'order.serviceCharge');
  if (service) {
    const amount = reader.amount(service.amount, 'order.serviceCharge.amount', false);
    if (amount !== undefined) adjustments.serviceCharge = { amount: kept(amount, 'order.serviceCharge.amount') };
  }

  reader.each(order.otherCharges, 'order.otherCharges', (entry, path) => {
    const amount = reader.amount(entry.amount, `${path}.amount`, true);
    const chargedBy = reader.oneOf(entry.chargedBy, AMOUNT_PARTIES, `${path}.chargedBy`);
    const description = reader.description(entry.description, `${path}.description`);
    if (amount === undefined || chargedBy === undefined || description === null) return;
    adjustments.otherCharges.push({
      amount: kept(amount, `${path}.amount`),
      chargedBy,
      ...(description !== undefined ? { description } : {}),
    });
  });
  return { adjustments, problems, rounded };
}

interface AmountRead {
  cents: Cents;
  /** The decimal text read. */
  text: string;
  /** Whether it had more than 2 decimals. */
  rounded: boolean;
}

class EntryReader {
  constructor(private readonly problems: AdjustmentProblem[]) {}

  problem(path: string, message: string): void {
    this.problems.push({ path, message });
  }

  /** Each object entry of an optional array with its path, in order (the first MAX_ORDER_ADJUSTMENTS only). */
  each(value: unknown, path: string, read: (entry: Record<string, unknown>, path: string, index: number) => void): void {
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) return this.problem(path, 'must be an array');
    if (value.length > MAX_ORDER_ADJUSTMENTS) this.problem(path, `must have at most ${MAX_ORDER_ADJUSTMENTS} entries`);
    value.slice(0, MAX_ORDER_ADJUSTMENTS).forEach((entry, index) => {
      if (isPlainObject(entry)) read(entry, `${path}[${index}]`, index);
      else this.problem(`${path}[${index}]`, 'must be an object');
    });
  }

  object(value: unknown, path: string): Record<string, unknown> | undefined {
    if (value === undefined || value === null) return undefined;
    if (isPlainObject(value)) return value;
    this.problem(path, 'must be an object');
    return undefined;
  }

  /** Cents of a number or numeric text, half-up to the cent; discounts and other charges must be above 0. */
  amount(value: unknown, path: string, positive: boolean): AmountRead | undefined {
    const text = decimalText(value);
    if (text === undefined) {
      this.problem(path, 'must be a number or numeric text');
      return undefined;
    }
    if (typeof value === 'string' && isBeyondTextDigits(text)) {
      this.problem(path, TEXT_DIGITS_PROBLEM);
      return undefined;
    }
    let read: ReturnType<typeof toCents>;
    try {
      read = toCents(text);
    } catch {
      this.problem(path, `${text} is too large to be an order amount`);
      return undefined;
    }
    if (positive ? read.cents <= 0 : read.cents < 0) {
      this.problem(path, positive ? 'must be greater than 0 (after rounding to cents)' : 'must not be negative');
      return undefined;
    }
    return { cents: read.cents, text, rounded: read.rounded };
  }

  oneOf<T extends string>(value: unknown, allowed: readonly T[], path: string): T | undefined {
    if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
    this.problem(path, `must be one of ${allowed.join(', ')}`);
    return undefined;
  }

  /** undefined when absent, null when malformed. */
  description(value: unknown, path: string): string | undefined | null {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string' && value.length <= MAX_DESCRIPTION_LENGTH) return value;
    this.problem(path, `must be text of at most ${MAX_DESCRIPTION_LENGTH} characters`);
    return null;
  }
}
