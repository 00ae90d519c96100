import { idText } from '../common/id-text.js';
import { isPlainObject } from '../common/plain-object.js';
import type { FiscalGroupSettings, TaxMatrix, TaxRule } from './tax-rule.js';
import type { DescriptionLabel } from './order-adjustments.js';

/** The fiscal group as the engine sees it. */
export interface FiscalGroupSnapshot {
  id: string;
  externalId: string | null;
  uf: string;
  taxRegime: string | null;
  taxMatrix: TaxMatrix;
  settings: FiscalGroupSettings;
}

/** Product fiscal categories relevant to one order: NCM by platform product id and by external product id. */
export interface CategoryIndex {
  byProductId: ReadonlyMap<string, string>;
  byExternalProductId: ReadonlyMap<string, string>;
}

/**
 * Warnings of a marketplace document's intake (`?profile=`): an inconsistency of the document applied anyway
 * (a benefit's target that names nothing, a benefit without its sponsors). The mapped order carries them under
 * `intakeWarnings`, so that taxing it again (a transfer, an impact preview) reports them again.
 */
export const INTAKE_WARNING_CODES = ['DISCOUNT_TARGET_NOT_FOUND', 'DISCOUNT_SPONSOR_UNKNOWN', 'SOURCE_TOTAL_MISMATCH'] as const;
export type IntakeWarningCode = (typeof INTAKE_WARNING_CODES)[number];
/** The mapped order's field holding the intake's warnings: a field of the service, like `taxSummary`. */
export const INTAKE_WARNINGS_FIELD = 'intakeWarnings';

export const TAX_WARNING_CODES = [
  'PRODUCT_CATEGORY_NOT_FOUND',
  'NCM_NOT_IN_MATRIX',
  'MISSING_AMOUNT',
  'NEGATIVE_AMOUNT',
  'AMOUNT_OUT_OF_RANGE',
  'AMOUNT_ROUNDED',
  'NO_PRODUCTS',
  'INVALID_LINE',
  'DISCOUNT_ABOVE_AMOUNT',
  'SERVICE_CHARGE_ABOVE_10_PERCENT',
  ...INTAKE_WARNING_CODES,
] as const;
export type TaxWarningCode = (typeof TAX_WARNING_CODES)[number];

export interface TaxWarning {
  code: TaxWarningCode;
  /** Where in the payload, e.g. `order.products[2].modifierGroups[0].selectedModifiers[1]`. */
  path: string;
  message: string;
}

export interface LineTax {
  NCM: string;
  CEST: string;
  /** The rule's CFOP, else the fiscal group's `settings.defaultCfop`, else null. */
  CFOP: string | null;
  /** The goods' origin (the invoice's `orig`, 0 to 8); echoed when the rule carries one. */
  orig?: string;
  CST_ICMS: string;
  ICMS_rate: number;
  CST_PIS: string;
  PIS_rate: number;
  CST_COFINS: string;
  COFINS_rate: number;
  /** Echoed when the rule reduces the ICMS base (pRedBC). */
  ICMS_base_reduction?: number;
  ICMS_base: number;
  ICMS_value: number;
  PIS_base: number;
  PIS_value: number;
  COFINS_base: number;
  COFINS_value: number;
  /** Present when the rule carries FCP_rate: FCP_base is the ICMS base; the value is 0 where ICMS is not charged. */
  FCP_rate?: number;
  FCP_base?: number;
  FCP_value?: number;
  /** ICMS + PIS + COFINS + FCP of the line (IBS/CBS are informative, not included). */
  total_tax: number;
  /** Which category field matched the product. */
  matchedBy: 'productId' | 'externalProductId';
  /** The matrix key whose rule was applied (a prefix of `NCM` on a fallback match). */
  matchedKey: string;
  /** Why a tax is zero although its rate is not, e.g. `{ ICMS: 'CST_60', PIS: 'SIMPLES_NACIONAL' }`. */
  zeroReasons: Partial<Record<'ICMS' | 'FCP' | 'PIS' | 'COFINS', string>>;
  CST_IBSCBS?: string;
  cClassTrib?: string;
  IBSCBS_base?: number;
  CBS_rate?: number;
  CBS_value?: number;
  IBS_UF_rate?: number;
  IBS_UF_value?: number;
  IBS_Mun_rate?: number;
  IBS_Mun_value?: number;
  /** Order-level shares split to this item; present when the order carries an amount that enters the invoice. */
  discount?: number;
  freight?: number;
  otherCharges?: number;
  /** amount − discount + freight + otherCharges: the base before any reduction; present with the shares. */
  netAmount?: number;
  /** `unitPrice×quantity` when the amount was computed from a line priced per unit. */
  amountFrom?: 'unitPrice×quantity';
}

/** Kinds of order-level amounts. */
export const ORDER_AMOUNT_KINDS = ['DISCOUNT', 'DELIVERY_FEE', 'SERVICE_CHARGE', 'OTHER_CHARGE'] as const;
export type OrderAmountKind = (typeof ORDER_AMOUNT_KINDS)[number];

/** An order-level amount kept out of the invoice, and why. */
export interface OutsideInvoiceAmount {
  kind: OrderAmountKind;
  amount: number;
  reason: string;
}

/** A discount someone other than the store pays back to it: the invoice's payment group lists it. */
export interface ThirdPartyPayment extends DescriptionLabel {
  amount: number;
  sponsor: 'PLATFORM' | 'THIRD_PARTY';
  description?: string;
}

export interface TaxTotals {
  base: number;
  ICMS_value: number;
  PIS_value: number;
  COFINS_value: number;
  /** The sum of the lines' FCP_value; present when a line's rule carries FCP_rate. */
  FCP_value?: number;
  total_tax: number;
  IBSCBS_base?: number;
  CBS_value?: number;
  IBS_UF_value?: number;
  IBS_Mun_value?: number;
  /** Sums of the lines' rounded shares; present when the order carries an amount that enters the invoice. */
  discount?: number;
  freight?: number;
  otherCharges?: number;
}

export interface TaxSummary {
  fiscalGroupId: string;
  externalId: string | null;
  uf: string;
  taxRegime: string | null;
  totals: TaxTotals;
  /** The first MAX_LISTED_WARNINGS warnings. */
  warnings: TaxWarning[];
  /** How many warnings were left out of `warnings`; absent when none was. */
  warningsTruncated?: number;
  /** Order-level amounts kept out of every base; present when there is one. */
  outsideInvoice?: OutsideInvoiceAmount[];
  /** Discounts paid back to the store by the platform or a third party; present when there is one. */
  thirdPartyPayments?: ThirdPartyPayment[];
  engineVersion: string;
  calculatedAt: string;
}

/** An order cannot make the summary (stored, sent, forwarded) grow with its number of bad lines. */
export const MAX_LISTED_WARNINGS = 100;

export interface TaxEngineInput {
  group: FiscalGroupSnapshot;
  categories: CategoryIndex;
  /** The order payload as received; never modified. */
  payload: Record<string, unknown>;
  now?: Date;
}

export interface TaxEngineResult {
  /** A copy of the payload with `tax` on each line and `taxSummary` at the root. */
  payload: Record<string, unknown>;
  summary: TaxSummary;
  /** As in the summary: the first MAX_LISTED_WARNINGS. */
  warnings: TaxWarning[];
  /** Every warning, listed or not. */
  warningCount: number;
  /**
   * Whether a sum of the order (a total, or the lines' total of the 10 % test) passed
   * Number.MAX_SAFE_INTEGER cents: its figures are not exact, and the order path refuses it.
   */
  totalsBeyondSafeCents: boolean;
}

/** Computes the taxes of one order. Implementations do no I/O. */
export interface TaxEngine {
  readonly version: string;
  enrich(input: TaxEngineInput): TaxEngineResult;
}

export const TAX_ENGINE = Symbol('TAX_ENGINE');

/** Every product id an order mentions (lines and selected modifiers), for the one category lookup. */
export function productIdsOf(payload: Record<string, unknown>): string[] {
  const ids = new Set<string>();
  const products = (payload.order as { products?: unknown } | undefined)?.products;
  if (!Array.isArray(products)) return [];
  for (const line of products) {
    const id = idText((line as { productId?: unknown } | null)?.productId);
    if (id) ids.add(id);
    const groups = (line as { modifierGroups?: unknown } | null)?.modifierGroups;
    if (!Array.isArray(groups)) continue;
    for (const group of groups) {
      const modifiers = (group as { selectedModifiers?: unknown } | null)?.selectedModifiers;
      if (!Array.isArray(modifiers)) continue;
      for (const modifier of modifiers) {
        const modifierId = idText((modifier as { productId?: unknown } | null)?.productId);
        if (modifierId) ids.add(modifierId);
      }
    }
  }
  return [...ids];
}

const INTAKE_CODES: ReadonlySet<string> = new Set(INTAKE_WARNING_CODES);
/** A path or sentence of an intake warning longer than this is not one the service wrote: it is skipped. */
const MAX_INTAKE_TEXT = 1000;

/**
 * The intake's warnings an order carries (`intakeWarnings`, written by a profile's mapping), as the taxed
 * order reports them; an entry that is not such a warning is skipped.
 */
export function intakeWarningsOf(payload: Record<string, unknown>): TaxWarning[] {
  const entries = payload[INTAKE_WARNINGS_FIELD];
  if (!Array.isArray(entries)) return [];
  const warnings: TaxWarning[] = [];
  for (const entry of entries) {
    if (!isPlainObject(entry) || typeof entry.code !== 'string' || !INTAKE_CODES.has(entry.code)) continue;
    const { path, message } = entry;
    if (typeof path !== 'string' || typeof message !== 'string' || path.length > MAX_INTAKE_TEXT || message.length > MAX_INTAKE_TEXT)
      continue;
    warnings.push({ code: entry.code as IntakeWarningCode, path, message });
  }
  return warnings;
}

export type { TaxRule };
