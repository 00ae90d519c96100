import { percentOf, toMoney, toRate, toRateUnits, type Cents, type RateUnits } from './money.js';
import type { TaxRule } from './tax-rule.js';
import {
  MAX_LISTED_WARNINGS,
  type CategoryIndex,
  type FiscalGroupSnapshot,
  type LineTax,
  type TaxTotals,
  type TaxWarning,
} from './tax-engine.js';

/** Simples Nacional: by name, or by its CRT code (1 Simples Nacional, 4 MEI). */
const SIMPLES_REGIMES = new Set(['SIMPLES_NACIONAL', 'MEI', '1', '4']);
/** Normal regime: ICMS is not charged on the document for these CSTs (exempt, deferred, collected by substitution...). */
const ICMS_ZERO_CST = new Set(['30', '40', '41', '50', '60']);
/** Simples Nacional: ICMS is paid through the DAS for every CSOSN but 900. */
const ICMS_CHARGED_CSOSN = '900';
const SIMPLES_NACIONAL = 'SIMPLES_NACIONAL';
/** The whole amount, in rate units: the ICMS base share of a rule without a reduction. */
const FULL_BASE = toRateUnits(100);
/** PIS/COFINS not charged: single-phase, zero rate, exempt, suspended... */
const PIS_COFINS_ZERO_CST = new Set(['04', '05', '06', '07', '08', '09']);

export interface RunningTotals {
  base: Cents;
  icms: Cents;
  pis: Cents;
  cofins: Cents;
  fcp: Cents;
  /** Whether a line's rule carries FCP_rate (then the totals report FCP_value). */
  hasFcp: boolean;
  reform: boolean;
  ibsCbsBase: Cents;
  cbs: Cents;
  ibsUf: Cents;
  ibsMun: Cents;
  discount: Cents;
  freight: Cents;
  otherCharges: Cents;
}

export function newTotals(): RunningTotals {
  return {
    base: 0,
    icms: 0,
    pis: 0,
    cofins: 0,
    fcp: 0,
    hasFcp: false,
    reform: false,
    ibsCbsBase: 0,
    cbs: 0,
    ibsUf: 0,
    ibsMun: 0,
    discount: 0,
    freight: 0,
    otherCharges: 0,
  };
}

/** An item's shares of the order-level amounts that enter the invoice (vDesc, vFrete, vOutro). */
export interface LineShares {
  discount: Cents;
  freight: Cents;
  otherCharges: Cents;
}

/** Keeps the first MAX_LISTED_WARNINGS warnings and counts the others. */
export class CappedWarnings {
  readonly listed: TaxWarning[] = [];
  omitted = 0;

  push(warning: TaxWarning): void {
    if (this.listed.length < MAX_LISTED_WARNINGS) this.listed.push(warning);
    else this.omitted += 1;
  }
}

export interface LineContext {
  group: FiscalGroupSnapshot;
  categories: CategoryIndex;
  warnings: CappedWarnings;
  totals: RunningTotals;
  simples: boolean;
}

/**
 * The taxes of one item on its amount, or, with order-level shares, on its net amount
 * (amount − discount + freight + otherCharges): every base starts from that net amount.
 */
export function computeLineTax(
  amount: Cents,
  rule: TaxRule,
  key: string,
  match: CategoryMatch,
  context: LineContext,
  shares?: LineShares,
): LineTax {
  const net = shares ? amount - shares.discount + shares.freight + shares.otherCharges : amount;
  const zeroReasons: LineTax['zeroReasons'] = {};
  const icmsZero = icmsZeroReason(rule.CST_ICMS, context.simples);
  if (icmsZero) zeroReasons.ICMS = icmsZero;
  const { icmsRate, pisRate, cofinsRate, icmsBaseShare, fcpRate } = rateUnitsOf(rule);
  // FCP is charged with own ICMS only.
  if (icmsZero && fcpRate !== undefined) zeroReasons.FCP = icmsZero;
  // Simples Nacional pays PIS/COFINS through the DAS, whatever the CST: never on the document.
  const pisZero = context.simples ? SIMPLES_NACIONAL : PIS_COFINS_ZERO_CST.has(rule.CST_PIS) ? `CST_${rule.CST_PIS}` : undefined;
  if (pisZero) zeroReasons.PIS = pisZero;
  const cofinsZero = context.simples ? SIMPLES_NACIONAL : PIS_COFINS_ZERO_CST.has(rule.CST_COFINS) ? `CST_${rule.CST_COFINS}` : undefined;
  if (cofinsZero) zeroReasons.COFINS = cofinsZero;

  // pRedBC: the value is computed on the rounded base the document prints (SEFAZ checks vICMS against vBC × pICMS).
  const icmsBase = icmsBaseShare === FULL_BASE ? net : percentOf(net, icmsBaseShare);
  const icmsValue = icmsZero ? 0 : percentOf(icmsBase, icmsRate);
  const fcpValue = icmsZero || fcpRate === undefined ? 0 : percentOf(icmsBase, fcpRate);
  // ICMS actually charged is not part of the PIS/COFINS base (STF Tema 69), unless the group keeps it; FCP never leaves it.
  const pisCofinsBase = context.group.settings?.includeIcmsInPisCofinsBase === true ? net : net - icmsValue;
  const pisValue = pisZero ? 0 : percentOf(pisCofinsBase, pisRate);
  const cofinsValue = cofinsZero ? 0 : percentOf(pisCofinsBase, cofinsRate);
  const totalTax = icmsValue + pisValue + cofinsValue + fcpValue;

  const totals = context.totals;
  totals.base += net;
  totals.icms += icmsValue;
  totals.pis += pisValue;
  totals.cofins += cofinsValue;
  totals.fcp += fcpValue;

  const tax: LineTax = {
    NCM: match.ncm,
    CEST: rule.CEST,
    CFOP: rule.CFOP ?? null,
    CST_ICMS: rule.CST_ICMS,
    ICMS_rate: toRate(icmsRate),
    CST_PIS: rule.CST_PIS,
    PIS_rate: toRate(pisRate),
    CST_COFINS: rule.CST_COFINS,
    COFINS_rate: toRate(cofinsRate),
    ICMS_base: toMoney(icmsBase),
    ICMS_value: toMoney(icmsValue),
    PIS_base: toMoney(pisCofinsBase),
    PIS_value: toMoney(pisValue),
    COFINS_base: toMoney(pisCofinsBase),
    COFINS_value: toMoney(cofinsValue),
    total_tax: toMoney(totalTax),
    matchedBy: match.matchedBy,
    matchedKey: key,
    zeroReasons,
  };
  // Only rules that carry them print these fields, so the lines of other rules keep their shape.
  if (rule.ICMS_base_reduction !== undefined) tax.ICMS_base_reduction = rule.ICMS_base_reduction;
  if (fcpRate !== undefined) {
    totals.hasFcp = true;
    Object.assign(tax, { FCP_rate: toRate(fcpRate), FCP_base: toMoney(icmsBase), FCP_value: toMoney(fcpValue) });
  }

  const hasReform = rule.CBS_rate !== undefined || rule.IBS_UF_rate !== undefined || rule.IBS_Mun_rate !== undefined;
  if (hasReform && !context.simples) {
    // Informative (2026 transition): reported, never added to total_tax.
    const reformBase = net - icmsValue - pisValue - cofinsValue;
    totals.reform = true;
    totals.ibsCbsBase += reformBase;
    if (rule.CST_IBSCBS !== undefined) tax.CST_IBSCBS = rule.CST_IBSCBS;
    if (rule.cClassTrib !== undefined) tax.cClassTrib = rule.cClassTrib;
    tax.IBSCBS_base = toMoney(reformBase);
    if (rule.CBS_rate !== undefined) {
      const value = percentOf(reformBase, toRateUnits(rule.CBS_rate));
      totals.cbs += value;
      Object.assign(tax, { CBS_rate: rule.CBS_rate, CBS_value: toMoney(value) });
    }
    if (rule.IBS_UF_rate !== undefined) {
      const value = percentOf(reformBase, toRateUnits(rule.IBS_UF_rate));
      totals.ibsUf += value;
      Object.assign(tax, { IBS_UF_rate: rule.IBS_UF_rate, IBS_UF_value: toMoney(value) });
    }
    if (rule.IBS_Mun_rate !== undefined) {
      const value = percentOf(reformBase, toRateUnits(rule.IBS_Mun_rate));
      totals.ibsMun += value;
      Object.assign(tax, { IBS_Mun_rate: rule.IBS_Mun_rate, IBS_Mun_value: toMoney(value) });
    }
  }
  if (shares) {
    totals.discount += shares.discount;
    totals.freight += shares.freight;
    totals.otherCharges += shares.otherCharges;
    Object.assign(tax, {
      discount: toMoney(shares.discount),
      freight: toMoney(shares.freight),
      otherCharges: toMoney(shares.otherCharges),
      netAmount: toMoney(net),
    });
  }
  return tax;
}

interface RuleRates {
  icmsRate: RateUnits;
  pisRate: RateUnits;
  cofinsRate: RateUnits;
  /** 100 % minus pRedBC: the share of the amount that is the ICMS base. */
  icmsBaseShare: RateUnits;
  fcpRate: RateUnits | undefined;
}

/** Rates in integer units, converted once per rule object (rules are reused across orders while cached). */
const ruleRates = new WeakMap<TaxRule, RuleRates>();
function rateUnitsOf(rule: TaxRule): RuleRates {
  let rates = ruleRates.get(rule);
  if (!rates) {
    rates = {
      icmsRate: toRateUnits(rule.ICMS_rate),
      pisRate: toRateUnits(rule.PIS_rate),
      cofinsRate: toRateUnits(rule.COFINS_rate),
      icmsBaseShare: rule.ICMS_base_reduction === undefined ? FULL_BASE : FULL_BASE - toRateUnits(rule.ICMS_base_reduction),
      fcpRate: rule.FCP_rate === undefined ? undefined : toRateUnits(rule.FCP_rate),
    };
    ruleRates.set(rule, rates);
  }
  return rates;
}

export function isSimplesNacional(taxRegime: string | null | undefined): boolean {
  return taxRegime !== null && taxRegime !== undefined && SIMPLES_REGIMES.has(taxRegime.trim().toUpperCase());
}

/** Why ICMS is zero on this line, or undefined when it is charged. */
export function icmsZeroReason(cstIcms: string, simples: boolean): string | undefined {
  if (simples && cstIcms.length === 3) return cstIcms === ICMS_CHARGED_CSOSN ? undefined : `CSOSN_${cstIcms}`;
  // Normal regime: 3 digits are origin + CST; the last two are the CST.
  const cst = cstIcms.slice(-2);
  return ICMS_ZERO_CST.has(cst) ? `CST_${cst}` : undefined;
}

export interface CategoryMatch {
  ncm: string;
  matchedBy: 'productId' | 'externalProductId';
}

export function findCategory(productId: string, categories: CategoryIndex): CategoryMatch | undefined {
  const byId = categories.byProductId.get(productId);
  if (byId) return { ncm: byId, matchedBy: 'productId' };
  const byExternal = categories.byExternalProductId.get(productId);
  return byExternal ? { ncm: byExternal, matchedBy: 'externalProductId' } : undefined;
}

/** `taxMatrix[ncm]`, else the longest key that is a prefix of the NCM. */
export function findRule(ncm: string, group: FiscalGroupSnapshot): { key: string; rule: TaxRule } | undefined {
  for (let length = ncm.length; length >= 2; length--) {
    const key = ncm.slice(0, length);
    const rule = group.taxMatrix[key];
    if (rule) return { key, rule };
  }
  return undefined;
}

/** The order's totals; with order-level shares, their sums too. */
export function summarize(totals: RunningTotals, withShares: boolean): TaxTotals {
  const summary: TaxTotals = {
    base: toMoney(totals.base),
    ICMS_value: toMoney(totals.icms),
    PIS_value: toMoney(totals.pis),
    COFINS_value: toMoney(totals.cofins),
    ...(totals.hasFcp ? { FCP_value: toMoney(totals.fcp) } : {}),
    total_tax: toMoney(totals.icms + totals.pis + totals.cofins + totals.fcp),
  };
  if (totals.reform) {
    Object.assign(summary, {
      IBSCBS_base: toMoney(totals.ibsCbsBase),
      CBS_value: toMoney(totals.cbs),
      IBS_UF_value: toMoney(totals.ibsUf),
      IBS_Mun_value: toMoney(totals.ibsMun),
    });
  }
  if (withShares) {
    Object.assign(summary, {
      discount: toMoney(totals.discount),
      freight: toMoney(totals.freight),
      otherCharges: toMoney(totals.otherCharges),
    });
  }
  return summary;
}
