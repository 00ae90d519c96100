import { toMoney, type Cents } from './money.js';
import type { OrderAdjustments, OrderDiscount } from './order-adjustments.js';
import { splitProportionally } from './split.js';
import type { OrderAmountKind, OutsideInvoiceAmount, TaxWarning, ThirdPartyPayment } from './tax-engine.js';
import type { FiscalGroupSettings } from './tax-rule.js';
import type { LineShares } from './line-tax.js';

/**
 * What of an order's discounts, delivery fee, service charge and other charges enters the invoice, split
 * over its taxed items, and what stays outside (and why). See "Discounts, fees and service charges" in
 * docs/tax-arithmetic.md.
 */

/** Why an order-level amount stays out of the invoice (`taxSummary.outsideInvoice[].reason`). */
export const OUTSIDE_INVOICE_REASONS = [
  /** A discount the platform pays back to the store: the store receives the full price. */
  'PAID_BY_PLATFORM',
  /** A discount a third party pays back to the store. */
  'PAID_BY_THIRD_PARTY',
  /** A discount of a delivery fee that is itself outside the invoice. */
  'DELIVERY_FEE_OUTSIDE_INVOICE',
  /** The platform delivers: its fee is not the store's revenue. */
  'DELIVERED_BY_PLATFORM',
  /** The fiscal group keeps delivery fees off its invoices (`deliveryFeeOnInvoice: NEVER`). */
  'DELIVERY_FEE_NEVER_ON_INVOICE',
  /** A service charge of at most 10 % of the lines' total: outside the ICMS base (Convênio ICMS 125/11). */
  'SERVICE_CHARGE_AT_MOST_10_PERCENT',
  /** A charge of the platform, not of the store. */
  'CHARGED_BY_PLATFORM',
  /** No item of the order was taxed with an amount above 0: there was nothing to split it over. */
  'NO_TAXED_ITEM',
] as const;
export type OutsideInvoiceReason = (typeof OUTSIDE_INVOICE_REASONS)[number];

export interface InvoiceShares {
  /** One per taxed item, in payload order; undefined when no amount is meant for the invoice. */
  shares: LineShares[] | undefined;
  outsideInvoice: OutsideInvoiceAmount[];
  thirdPartyPayments: ThirdPartyPayment[];
  warnings: TaxWarning[];
}

/** A taxed item: its amount and the index of its line in `order.products` (a modifier has its line's). */
export interface TaxedItem {
  amount: Cents;
  lineIndex: number;
}

/**
 * `linesTotal` is the amounts of every line and selected modifier, taxed or not: the service charge's
 * 10 % is of what the customer was charged for, whether or not the store has classified each product.
 * The shares still go to the taxed `items` only.
 */
export function invoiceSharesOf(
  adjustments: OrderAdjustments,
  items: readonly TaxedItem[],
  linesTotal: Cents,
  settings: FiscalGroupSettings,
): InvoiceShares {
  const amounts = items.map((item) => item.amount);
  const shares = items.map((): LineShares => ({ discount: 0, freight: 0, otherCharges: 0 }));
  /** What discounts have left of each item: no share takes an item below 0. */
  const left = amounts.slice();
  const result: InvoiceShares = { shares: undefined, outsideInvoice: [], thirdPartyPayments: [], warnings: [] };
  let onInvoice = false;
  const outside = (kind: OrderAmountKind, amount: Cents, reason: OutsideInvoiceReason) => {
    if (amount > 0) result.outsideInvoice.push({ kind, amount: toMoney(amount), reason });
  };
  const reducesBase = (discount: OrderDiscount) => discount.sponsor === 'MERCHANT' || settings.platformDiscountsReduceBase === true;
  const paidByOthers = (discount: OrderDiscount) => {
    outside('DISCOUNT', discount.amount, discount.sponsor === 'PLATFORM' ? 'PAID_BY_PLATFORM' : 'PAID_BY_THIRD_PARTY');
    result.thirdPartyPayments.push({
      amount: toMoney(discount.amount),
      sponsor: discount.sponsor as ThirdPartyPayment['sponsor'],
      ...(discount.description !== undefined ? { description: discount.description } : {}),
      ...(discount.descriptionCode !== undefined
        ? { descriptionCode: discount.descriptionCode, descriptionParams: discount.descriptionParams }
        : {}),
    });
  };
  const addCharge = (amount: Cents, kind: OrderAmountKind, pick: 'freight' | 'otherCharges') => {
    if (amount <= 0) return;
    onInvoice = true;
    const split = splitProportionally(amount, amounts);
    split.shares.forEach((share, index) => (shares[index]![pick] += share));
    outside(kind, split.unplaced, 'NO_TAXED_ITEM');
  };

  // The delivery fee, less the discounts that lower it.
  const fee = adjustments.deliveryFee;
  const feeMode = settings.deliveryFeeOnInvoice ?? 'WHEN_MERCHANT_DELIVERS';
  const feeOnInvoice =
    fee !== undefined && (feeMode === 'ALWAYS' || (feeMode === 'WHEN_MERCHANT_DELIVERS' && fee.deliveredBy === 'MERCHANT'));
  let feeLeft = fee?.amount ?? 0;
  for (const discount of adjustments.discounts) {
    if (discount.target !== 'DELIVERY_FEE') continue;
    if (fee !== undefined && !feeOnInvoice) {
      outside('DISCOUNT', discount.amount, 'DELIVERY_FEE_OUTSIDE_INVOICE');
    } else if (!reducesBase(discount)) {
      paidByOthers(discount);
    } else {
      if (discount.amount > feeLeft) result.warnings.push(aboveAmount(discount, feeLeft, 'the delivery fee'));
      feeLeft -= Math.min(discount.amount, feeLeft);
      onInvoice = true;
    }
  }
  if (fee !== undefined && !feeOnInvoice) {
    outside('DELIVERY_FEE', fee.amount, feeMode === 'NEVER' ? 'DELIVERY_FEE_NEVER_ON_INVOICE' : 'DELIVERED_BY_PLATFORM');
  } else {
    addCharge(feeLeft, 'DELIVERY_FEE', 'freight');
  }

  // Discounts of the items (the whole order, or one line with its modifiers), in payload order.
  for (const discount of adjustments.discounts) {
    if (discount.target === 'DELIVERY_FEE') continue;
    if (!reducesBase(discount)) {
      paidByOthers(discount);
      continue;
    }
    onInvoice = true;
    const weights =
      discount.target === 'ITEMS' ? amounts : items.map((item, index) => (item.lineIndex === discount.productIndex ? amounts[index]! : 0));
    const split = splitProportionally(discount.amount, weights, left);
    split.shares.forEach((share, index) => {
      shares[index]!.discount += share;
      left[index]! -= share;
    });
    if (split.unplaced > 0) {
      const what = discount.target === 'ITEMS' ? 'the items' : `line ${discount.productIndex} and its modifiers`;
      result.warnings.push(aboveAmount(discount, discount.amount - split.unplaced, what));
    }
  }

  // The service charge: outside up to 10 % of the lines' total, unless the group puts it in the base.
  const service = adjustments.serviceCharge?.amount ?? 0;
  if (service > 0) {
    const aboveTenPercent = service * 10 > linesTotal;
    if (aboveTenPercent) {
      result.warnings.push({
        code: 'SERVICE_CHARGE_ABOVE_10_PERCENT',
        path: 'order.serviceCharge',
        message: `The service charge of ${money(service)} is above 10 % of the lines' total ${money(linesTotal)}: it enters the invoice and its bases`,
      });
    }
    if (aboveTenPercent || settings.serviceChargeInIcmsBase === true) addCharge(service, 'SERVICE_CHARGE', 'otherCharges');
    else outside('SERVICE_CHARGE', service, 'SERVICE_CHARGE_AT_MOST_10_PERCENT');
  }

  for (const charge of adjustments.otherCharges) {
    if (charge.chargedBy === 'MERCHANT') addCharge(charge.amount, 'OTHER_CHARGE', 'otherCharges');
    else outside('OTHER_CHARGE', charge.amount, 'CHARGED_BY_PLATFORM');
  }

  if (onInvoice) result.shares = shares;
  return result;
}

function aboveAmount(discount: OrderDiscount, applied: Cents, what: string): TaxWarning {
  return {
    code: 'DISCOUNT_ABOVE_AMOUNT',
    path: `order.discounts[${discount.index}]`,
    message: `The discount of ${money(discount.amount)} is above what is left of ${what}; ${money(applied)} was applied`,
  };
}

const money = (cents: Cents) => toMoney(cents).toFixed(2);
