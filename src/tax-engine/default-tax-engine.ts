import { Injectable } from '@nestjs/common';
import { idText } from '../common/id-text.js';
import { isPlainObject } from '../common/plain-object.js';
import { invoiceSharesOf, type TaxedItem } from './invoice-shares.js';
import {
  CappedWarnings,
  computeLineTax,
  findCategory,
  findRule,
  isSimplesNacional,
  newTotals,
  summarize,
  type CategoryMatch,
  type LineContext,
} from './line-tax.js';
import { decimalText, productCents, toCents, toMoney, type Cents } from './money.js';
import { hasOrderAdjustments, readOrderAdjustments } from './order-adjustments.js';
import type { TaxRule } from './tax-rule.js';
import type { LineTax, TaxEngine, TaxEngineInput, TaxEngineResult, TaxSummary } from './tax-engine.js';

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
    };

    // Copy-on-write: only the objects on the way to a line are copied; the rest of the payload is shared.
    const enriched: Obj = { ...payload };
    const products = isPlainObject(order) ? order.products : undefined;
    if (!Array.isArray(products)) {
      warnings.push({ code: 'NO_PRODUCTS', path: 'order.products', message: 'The order has no products array; nothing was taxed' });
    } else {
      enriched.order = {
        ...(order as Obj),
        products: products.map((line, index) => this.enrichLine(line, index, context)),
      };
    }

    let withShares = false;
    const outside: Pick<TaxSummary, 'outsideInvoice' | 'thirdPartyPayments'> = {};
    if (context.pending) {
      const pending = context.pending;
      const { adjustments } = readOrderAdjustments(order);
      const split = invoiceSharesOf(adjustments, pending, group.settings ?? {});
      pending.forEach((item, index) => {
        item.holder!.tax = taxWithSource(item, context, split.shares?.[index]);
      });
      for (const warning of split.warnings) warnings.push(warning);
      withShares = split.shares !== undefined;
      if (split.outsideInvoice.length > 0) outside.outsideInvoice = split.outsideInvoice;
      if (split.thirdPartyPayments.length > 0) outside.thirdPartyPayments = split.thirdPartyPayments;
    }

    const summary: TaxSummary = {
      fiscalGroupId: group.id,
      externalId: group.externalId,
      uf: group.uf,
      taxRegime: group.taxRegime,
      totals: summarize(totals, withShares),
      warnings: warnings.listed,
      ...(warnings.omitted > 0 ? { warningsTruncated: warnings.omitted } : {}),
      ...outside,
      engineVersion: ENGINE_VERSION,
      calculatedAt: now.toISOString(),
    };
    enriched.taxSummary = summary;
    return { payload: enriched, summary, warnings: warnings.listed, warningCount: warnings.listed.length + warnings.omitted };
  }

  private enrichLine(line: unknown, lineIndex: number, context: WalkContext): unknown {
    const path = `order.products[${lineIndex}]`;
    if (!isPlainObject(line)) {
      context.warnings.push({ code: 'INVALID_LINE', path, message: 'The line is not an object; it was left as is' });
      return line;
    }
    const copy: Obj = { ...line, tax: this.taxOf(line, path, lineIndex, context) };
    holdPending(context, copy);
    const groups = line.modifierGroups;
    if (Array.isArray(groups)) {
      copy.modifierGroups = groups.map((group, groupIndex) => {
        if (!isPlainObject(group) || !Array.isArray(group.selectedModifiers)) return group;
        return {
          ...group,
          selectedModifiers: group.selectedModifiers.map((modifier, modifierIndex) => {
            const modifierPath = `${path}.modifierGroups[${groupIndex}].selectedModifiers[${modifierIndex}]`;
            if (!isPlainObject(modifier)) {
              context.warnings.push({
                code: 'INVALID_LINE',
                path: modifierPath,
                message: 'The modifier is not an object; it was left as is',
              });
              return modifier;
            }
            const modifierCopy: Obj = { ...modifier, tax: this.taxOf(modifier, modifierPath, lineIndex, context) };
            holdPending(context, modifierCopy);
            return modifierCopy;
          }),
        };
      });
    }
    return copy;
  }

  /**
   * The tax object of one product or modifier, or null with a warning when it cannot be taxed. With
   * order-level amounts the item is only recorded (null for now) and taxed once its shares are known.
   */
  private taxOf(item: Obj, path: string, lineIndex: number, context: WalkContext): LineTax | null {
    const productId = idText(item.productId);
    const match = productId ? findCategory(productId, context.categories) : undefined;
    if (!match) {
      const message = productId ? `No product fiscal category for productId "${productId}"` : 'The item has no productId';
      context.warnings.push({ code: 'PRODUCT_CATEGORY_NOT_FOUND', path, message });
      return null;
    }
    const found = findRule(match.ncm, context.group);
    if (!found) {
      context.warnings.push({
        code: 'NCM_NOT_IN_MATRIX',
        path,
        message: `NCM ${match.ncm} of product "${productId}" has no rule in the fiscal group's matrix (nor a prefix of it)`,
      });
      return null;
    }
    const totalText = decimalText((((item.price as Obj | undefined)?.totalPrice as Obj | undefined) ?? {}).total);
    const perUnit = totalText === undefined;
    const amount = perUnit ? readUnitAmount(item, path, context) : readTotalAmount(totalText, path, context);
    if (amount === undefined) return null;
    if (context.pending) {
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

/** Cents of `price.totalPrice.total`; undefined with a warning when it cannot be taxed. */
function readTotalAmount(amountText: string, path: string, context: LineContext): Cents | undefined {
  const parsed = parseAmount(amountText);
  if (!parsed) {
    context.warnings.push({
      code: 'AMOUNT_OUT_OF_RANGE',
      path,
      message: `price.totalPrice.total ${amountText} is too large to be an order amount`,
    });
    return undefined;
  }
  const { cents: amount, rounded } = parsed;
  if (amount < 0) {
    context.warnings.push({ code: 'NEGATIVE_AMOUNT', path, message: `price.totalPrice.total is negative (${amountText})` });
    return undefined;
  }
  if (rounded) {
    context.warnings.push({
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
 * a warning when there is neither a total nor a unit price.
 */
function readUnitAmount(item: Obj, path: string, context: LineContext): Cents | undefined {
  const unitPrice = (item.price as Obj | undefined)?.unitPrice;
  const unitText = decimalText(isPlainObject(unitPrice) ? unitPrice.total : unitPrice) ?? decimalText(item.unitPrice);
  const quantityText = decimalText(item.quantity);
  if (unitText === undefined || quantityText === undefined) {
    context.warnings.push({ code: 'MISSING_AMOUNT', path, message: 'price.totalPrice.total is missing or not a number' });
    return undefined;
  }
  const amount = productCents(unitText, quantityText);
  if (amount === undefined) {
    context.warnings.push({
      code: 'AMOUNT_OUT_OF_RANGE',
      path,
      message: `unitPrice × quantity (${unitText} × ${quantityText}) is too large to be an order amount`,
    });
    return undefined;
  }
  if (amount < 0) {
    context.warnings.push({ code: 'NEGATIVE_AMOUNT', path, message: `unitPrice × quantity is negative (${unitText} × ${quantityText})` });
    return undefined;
  }
  return amount;
}

function parseAmount(text: string): ReturnType<typeof toCents> | undefined {
  try {
    return toCents(text);
  } catch {
    return undefined;
  }
}
