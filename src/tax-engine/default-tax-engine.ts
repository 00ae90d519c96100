import { Injectable } from '@nestjs/common';
import { idText } from '../common/id-text.js';
import { isPlainObject } from '../common/plain-object.js';
import { invoiceSharesOf, type InvoiceShares, type TaxedItem } from './invoice-shares.js';
import {
  CappedWarnings,
  computeLineTax,
  findCategory,
  findRuleIn,
  isSimplesNacional,
  newTotals,
  ruleMatchesOf,
  summarize,
  sumsBeyondSafeCents,
  type CategoryMatch,
  type LineContext,
  type RuleMatch,
} from './line-tax.js';
import { decimalText, isBeyondTextDigits, plainCents, productCents, toCents, toMoney, type Cents } from './money.js';
import { copyOf, copyWith, isHole } from './payload-copy.js';
import { hasOrderAdjustments, readOrderAdjustments } from './order-adjustments.js';
import type { TaxRule } from './tax-rule.js';
import {
  intakeWarningsOf,
  type LineTax,
  type TaxEngine,
  type TaxEngineInput,
  type TaxEngineResult,
  type TaxSummary,
} from './tax-engine.js';

export { findRule, icmsZeroReason, isSimplesNacional } from './line-tax.js';

export const ENGINE_VERSION = '1.2.0';

type Obj = Record<string, unknown>;

/** An item whose taxes wait for its shares of the order-level amounts. */
interface PendingItem extends TaxedItem {
  /** The item's copy in the enriched payload, whose `tax` is set once the shares are known. */
  holder: Obj | undefined;
  rule: TaxRule;
  key: string;
  match: CategoryMatch;
  perUnit: boolean;
}

interface WalkContext extends LineContext {
  /** Present when the order carries order-level amounts: the items are taxed once their shares are known. */
  pending: PendingItem[] | undefined;
  /** The rules found so far in the group's matrix, by NCM. */
  rules: Map<string, RuleMatch | null> | undefined;
  /**
   * With order-level amounts: the amounts of every line and selected modifier, taxed or not, for the
   * service charge's 10 % test ("Discounts, fees and service charges" in docs/tax-arithmetic.md).
   */
  linesTotal: Cents;
}

/**
 * The default rules ("Tax calculation" in docs/api-decisions.md, docs/tax-arithmetic.md): exact cents,
 * half-up per tax per line, totals as sums of rounded lines, ICMS outside the PIS/COFINS base unless
 * the group says otherwise, zero CSTs by regime, reduced ICMS base, FCP, no PIS/COFINS on a Simples
 * Nacional document, NCM prefix fallback, informative IBS/CBS, lines priced per unit, and order-level
 * discounts, fees and charges split over the taxed items.
 */
@Injectable()
export class DefaultTaxEngine implements TaxEngine {
  readonly version = ENGINE_VERSION;

  enrich({ group, categories, payload, now = new Date() }: TaxEngineInput): TaxEngineResult {
    const warnings = new CappedWarnings();
    const totals = newTotals();
    const order = payload.order;
    // An order without order-level amounts takes the direct way: each item taxed as it is reached.
    const adjusted = hasOrderAdjustments(order);
    const context: WalkContext = {
      group,
      categories,
      warnings,
      totals,
      simples: isSimplesNacional(group.taxRegime),
      pending: adjusted ? [] : undefined,
      rules: ruleMatchesOf(group),
      linesTotal: 0,
    };

    // What the intake of a marketplace document applied anyway comes first: it is about the whole document.
    for (const warning of intakeWarningsOf(payload)) warnings.push(warning);

    // Copy-on-write: only the objects on the way to a line are copied; the rest of the payload is shared.
    const enriched = copyOf(payload);
    const products = isPlainObject(order) ? order.products : undefined;
    if (!Array.isArray(products)) {
      warnings.push({ code: 'NO_PRODUCTS', path: 'order.products', message: 'The order has no products array; nothing was taxed' });
    } else {
      const lines = new Array<unknown>(products.length);
      for (let index = 0; index < lines.length; index++) {
        if (!isHole(products, index)) lines[index] = this.enrichLine(products[index], index, context);
      }
      enriched.order = copyWith(order as Obj, 'products', lines);
    }

    let withShares = false;
    let split: InvoiceShares | undefined;
    if (context.pending) {
      const pending = context.pending;
      const { adjustments, rounded } = readOrderAdjustments(order);
      split = invoiceSharesOf(adjustments, pending, context.linesTotal, group.settings ?? {});
      for (let index = 0; index < pending.length; index++) {
        const item = pending[index]!;
        item.holder!.tax = taxWithSource(item, context, split.shares?.[index]);
      }
      // As for line amounts: an amount rounded to the cent is never silent.
      for (const amount of rounded) {
        warnings.push({
          code: 'AMOUNT_ROUNDED',
          path: amount.path,
          message: `amount ${amount.text} has more than 2 decimals; applied as ${toMoney(amount.cents).toFixed(2)}`,
        });
      }
      for (const warning of split.warnings) warnings.push(warning);
      withShares = split.shares !== undefined;
    }

    const head: Omit<TaxSummary, 'engineVersion' | 'calculatedAt'> = {
      fiscalGroupId: group.id,
      externalId: group.externalId,
      uf: group.uf,
      taxRegime: group.taxRegime,
      totals: summarize(totals, withShares),
      warnings: warnings.listed,
    };
    if (warnings.omitted > 0) head.warningsTruncated = warnings.omitted;
    if (split !== undefined && split.outsideInvoice.length > 0) head.outsideInvoice = split.outsideInvoice;
    if (split !== undefined && split.thirdPartyPayments.length > 0) head.thirdPartyPayments = split.thirdPartyPayments;
    const summary: TaxSummary = Object.assign(head, { engineVersion: ENGINE_VERSION, calculatedAt: now.toISOString() });
    enriched.taxSummary = summary;
    return {
      payload: enriched,
      summary,
      warnings: warnings.listed,
      warningCount: warnings.listed.length + warnings.omitted,
      // Checked once per order: the sums are made anyway, and stay exact up to there.
      totalsBeyondSafeCents: sumsBeyondSafeCents(totals) || context.linesTotal > Number.MAX_SAFE_INTEGER,
    };
  }

  private enrichLine(line: unknown, lineIndex: number, context: WalkContext): unknown {
    if (!isPlainObject(line)) {
      context.warnings.push({ code: 'INVALID_LINE', path: itemPath(lineIndex), message: 'The line is not an object; it was left as is' });
      return line;
    }
    const copy = copyWith(line, 'tax', this.taxOf(line, lineIndex, -1, -1, context));
    holdPending(context, copy);
    const groups = line.modifierGroups;
    if (Array.isArray(groups)) {
      const groupCopies = new Array<unknown>(groups.length);
      for (let groupIndex = 0; groupIndex < groupCopies.length; groupIndex++) {
        if (!isHole(groups, groupIndex)) groupCopies[groupIndex] = this.enrichGroup(groups[groupIndex], lineIndex, groupIndex, context);
      }
      copy.modifierGroups = groupCopies;
    }
    return copy;
  }

  private enrichGroup(group: unknown, lineIndex: number, groupIndex: number, context: WalkContext): unknown {
    if (!isPlainObject(group) || !Array.isArray(group.selectedModifiers)) return group;
    const modifiers: unknown[] = group.selectedModifiers;
    const copies = new Array<unknown>(modifiers.length);
    for (let modifierIndex = 0; modifierIndex < copies.length; modifierIndex++) {
      if (isHole(modifiers, modifierIndex)) continue;
      const modifier = modifiers[modifierIndex];
      if (!isPlainObject(modifier)) {
        context.warnings.push({
          code: 'INVALID_LINE',
          path: itemPath(lineIndex, groupIndex, modifierIndex),
          message: 'The modifier is not an object; it was left as is',
        });
        copies[modifierIndex] = modifier;
        continue;
      }
      const modifierCopy = copyWith(modifier, 'tax', this.taxOf(modifier, lineIndex, groupIndex, modifierIndex, context));
      holdPending(context, modifierCopy);
      copies[modifierIndex] = modifierCopy;
    }
    return copyWith(group, 'selectedModifiers', copies);
  }

  /**
   * The tax object of one product or modifier (`groupIndex` -1 for the line itself), or null with a
   * warning when it cannot be taxed. With order-level amounts the item is only recorded (null for now)
   * and taxed once its shares are known. The item's path is only written out for a warning.
   */
  private taxOf(item: Obj, lineIndex: number, groupIndex: number, modifierIndex: number, context: WalkContext): LineTax | null {
    const productId = idText(item.productId);
    const match = productId ? findCategory(productId, context.categories) : undefined;
    if (!match) {
      const message = productId ? `No product fiscal category for productId "${productId}"` : 'The item has no productId';
      context.warnings.push({ code: 'PRODUCT_CATEGORY_NOT_FOUND', path: itemPath(lineIndex, groupIndex, modifierIndex), message });
      if (context.pending) context.linesTotal += untaxedAmount(item);
      return null;
    }
    const found = findRuleIn(match.ncm, context.group, context.rules);
    if (!found) {
      context.warnings.push({
        code: 'NCM_NOT_IN_MATRIX',
        path: itemPath(lineIndex, groupIndex, modifierIndex),
        message: `NCM ${match.ncm} of product "${productId}" has no rule in the fiscal group's matrix (nor a prefix of it)`,
      });
      if (context.pending) context.linesTotal += untaxedAmount(item);
      return null;
    }
    const total = (item.price as { totalPrice?: { total?: unknown } } | undefined)?.totalPrice?.total;
    // A total that is a plain number of cents needs no text; anything else takes the way that warns.
    let amount = typeof total === 'number' ? plainCents(total) : undefined;
    let perUnit = false;
    if (amount === undefined) {
      const totalText = decimalText(total);
      perUnit = totalText === undefined;
      if (perUnit) amount = plainUnitAmount(item);
      if (amount === undefined) {
        const path = itemPath(lineIndex, groupIndex, modifierIndex);
        const warnings = context.warnings;
        amount = totalText === undefined ? readUnitAmount(item, path, warnings) : readTotalAmount(totalText, path, warnings);
        if (amount === undefined) return null;
      }
    }
    if (context.pending) {
      context.linesTotal += amount;
      context.pending.push({
        holder: undefined,
        amount,
        lineIndex,
        rule: found.rule,
        key: found.key,
        match,
        perUnit,
      });
      return null;
    }
    const tax = computeLineTax(amount, found.rule, found.key, match, context);
    if (perUnit) tax.amountFrom = 'unitPrice×quantity';
    return tax;
  }
}

/** `order.products[2]`, or `order.products[2].modifierGroups[0].selectedModifiers[1]` for a modifier. */
function itemPath(lineIndex: number, groupIndex = -1, modifierIndex = -1): string {
  const path = `order.products[${lineIndex}]`;
  return groupIndex < 0 ? path : `${path}.modifierGroups[${groupIndex}].selectedModifiers[${modifierIndex}]`;
}

/** Gives the item just recorded (if it was) the copy that will carry its tax. */
function holdPending(context: WalkContext, copy: Obj): void {
  const pending = context.pending;
  if (pending !== undefined && pending.length > 0 && pending[pending.length - 1]!.holder === undefined)
    pending[pending.length - 1]!.holder = copy;
}

function taxWithSource(item: PendingItem, context: LineContext, shares: Parameters<typeof computeLineTax>[5]): LineTax {
  const tax = computeLineTax(item.amount, item.rule, item.key, item.match, context, shares);
  if (item.perUnit) tax.amountFrom = 'unitPrice×quantity';
  return tax;
}

/**
 * `readUnitAmount` for a plain number of cents per unit and a whole, non-negative quantity, whose
 * product is exact in a Number; undefined otherwise (the caller takes the way that warns).
 */
function plainUnitAmount(item: Obj): Cents | undefined {
  const unitPrice = (item.price as Obj | undefined)?.unitPrice;
  const unit = isPlainObject(unitPrice) ? unitPrice.total : unitPrice;
  const quantity = item.quantity;
  if (typeof unit !== 'number' || typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0) return undefined;
  const unitCents = plainCents(unit);
  if (unitCents === undefined) return undefined;
  const cents = unitCents * quantity + 0;
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/**
 * The amount an item is taxed on (its `price.totalPrice.total`, else unit price × quantity), read as the engine
 * reads it; 0 when it has none. For documents built from an enriched order (the invoice's vProd).
 */
export function itemAmountCents(item: Obj): Cents {
  return untaxedAmount(item);
}

/**
 * The amount an item without taxes would have been taxed on, for the lines' total; 0 when it has none.
 * Its own warning says why it is untaxed: reading its amount adds none.
 */
function untaxedAmount(item: Obj): Cents {
  const total = (item.price as { totalPrice?: { total?: unknown } } | undefined)?.totalPrice?.total;
  let amount = typeof total === 'number' ? plainCents(total) : undefined;
  if (amount === undefined) {
    const totalText = decimalText(total);
    amount =
      totalText === undefined ? (plainUnitAmount(item) ?? readUnitAmount(item, '', undefined)) : readTotalAmount(totalText, '', undefined);
  }
  return amount ?? 0;
}

/** Cents of `price.totalPrice.total`; undefined with a warning (when `warnings` is given) when it cannot be taxed. */
function readTotalAmount(amountText: string, path: string, warnings: CappedWarnings | undefined): Cents | undefined {
  const parsed = parseAmount(amountText);
  if (!parsed) {
    warnings?.push({
      code: 'AMOUNT_OUT_OF_RANGE',
      path,
      message: `price.totalPrice.total ${amountText} is too large to be an order amount`,
    });
    return undefined;
  }
  const { cents: amount, rounded } = parsed;
  if (amount < 0) {
    warnings?.push({ code: 'NEGATIVE_AMOUNT', path, message: `price.totalPrice.total is negative (${amountText})` });
    return undefined;
  }
  if (rounded) {
    warnings?.push({
      code: 'AMOUNT_ROUNDED',
      path,
      message: `price.totalPrice.total ${amountText} has more than 2 decimals; taxed on ${toMoney(amount).toFixed(2)}`,
    });
  }
  return amount;
}

/**
 * A line without `price.totalPrice.total`: round(unitPrice × quantity, 2) half-up, from
 * `price.unitPrice.total`, `price.unitPrice` or `unitPrice` and a numeric `quantity`; undefined with
 * a warning (when `warnings` is given) when there is neither a total nor a unit price, or when either
 * is negative: a negative price times a negative quantity is not a sale.
 */
function readUnitAmount(item: Obj, path: string, warnings: CappedWarnings | undefined): Cents | undefined {
  const unitPrice = (item.price as Obj | undefined)?.unitPrice;
  let unit = isPlainObject(unitPrice) ? unitPrice.total : unitPrice;
  let unitText = decimalText(unit);
  if (unitText === undefined) {
    unit = item.unitPrice;
    unitText = decimalText(unit);
  }
  const quantity = item.quantity;
  const quantityText = decimalText(quantity);
  if (unitText === undefined || quantityText === undefined) {
    warnings?.push({ code: 'MISSING_AMOUNT', path, message: 'price.totalPrice.total is missing or not a number' });
    return undefined;
  }
  if (isNegative(unitText) || isNegative(quantityText)) {
    warnings?.push({ code: 'NEGATIVE_AMOUNT', path, message: `unitPrice or quantity is negative (${unitText} × ${quantityText})` });
    return undefined;
  }
  // Text of any length would make the exact product as long: stored orders are not checked again on the way in.
  if ((typeof unit === 'string' && isBeyondTextDigits(unitText)) || (typeof quantity === 'string' && isBeyondTextDigits(quantityText))) {
    warnings?.push({
      code: 'AMOUNT_OUT_OF_RANGE',
      path,
      message: 'unitPrice or quantity has more digits than numeric text may have; it was not multiplied',
    });
    return undefined;
  }
  const amount = productCents(unitText, quantityText);
  if (amount === undefined) {
    warnings?.push({
      code: 'AMOUNT_OUT_OF_RANGE',
      path,
      message: `unitPrice × quantity (${unitText} × ${quantityText}) is too large to be an order amount`,
    });
    return undefined;
  }
  return amount;
}

/** Whether a decimal text is below 0 ("-0.00" is not). */
function isNegative(text: string): boolean {
  return text.charCodeAt(0) === 45 && /[1-9]/.test(text); // '-'
}

function parseAmount(text: string): ReturnType<typeof toCents> | undefined {
  try {
    return toCents(text);
  } catch {
    return undefined;
  }
}
