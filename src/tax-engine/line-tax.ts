import { percentOf, toMoney, toRate, toRateUnits, type Cents, type RateUnits } from './money.js';
import type { TaxMatrix, TaxRule } from './tax-rule.js';
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
  const rates = ruleRatesOf(rule);
  const { icmsRate, pisRate, cofinsRate, icmsBaseShare, fcpRate } = rates;
  const zero = context.simples ? rates.simplesZero : rates.normalZero;
  const icmsZero = zero.icms;
  const zeroReasons: LineTax['zeroReasons'] = {};
  if (icmsZero) zeroReasons.ICMS = icmsZero;
  // FCP is charged with own ICMS only.
  if (icmsZero && fcpRate !== undefined) zeroReasons.FCP = icmsZero;
  if (zero.pis) zeroReasons.PIS = zero.pis;
  if (zero.cofins) zeroReasons.COFINS = zero.cofins;

  // pRedBC: the value is computed on the rounded base the document prints (SEFAZ checks vICMS against vBC × pICMS).
  const icmsBase = icmsBaseShare === FULL_BASE ? net : percentOf(net, icmsBaseShare);
  const icmsValue = icmsZero ? 0 : percentOf(icmsBase, icmsRate);
  const fcpValue = icmsZero || fcpRate === undefined ? 0 : percentOf(icmsBase, fcpRate);
  // ICMS actually charged is not part of the PIS/COFINS base (STF Tema 69), unless the group keeps it; FCP never leaves it.
  const pisCofinsBase = context.group.settings?.includeIcmsInPisCofinsBase === true ? net : net - icmsValue;
  const pisValue = zero.pis ? 0 : percentOf(pisCofinsBase, pisRate);
  const cofinsValue = zero.cofins ? 0 : percentOf(pisCofinsBase, cofinsRate);
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
    CFOP: rule.CFOP ?? context.group.settings?.defaultCfop ?? null,
    CST_ICMS: rule.CST_ICMS,
    ICMS_rate: rates.icmsPercent,
    CST_PIS: rule.CST_PIS,
    PIS_rate: rates.pisPercent,
    CST_COFINS: rule.CST_COFINS,
    COFINS_rate: rates.cofinsPercent,
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
  if (rule.orig !== undefined) tax.orig = rule.orig;
  if (rule.ICMS_base_reduction !== undefined) tax.ICMS_base_reduction = rule.ICMS_base_reduction;
  if (fcpRate !== undefined) {
    totals.hasFcp = true;
    tax.FCP_rate = rates.fcpPercent;
    tax.FCP_base = toMoney(icmsBase);
    tax.FCP_value = toMoney(fcpValue);
  }
  if (rates.hasReform && !context.simples)
    addReform(tax, net - icmsValue - pisValue - cofinsValue, rule, reformRatesOf(rule, rates), totals);
  if (shares) {
    totals.discount += shares.discount;
    totals.freight += shares.freight;
    totals.otherCharges += shares.otherCharges;
    tax.discount = toMoney(shares.discount);
    tax.freight = toMoney(shares.freight);
    tax.otherCharges = toMoney(shares.otherCharges);
    tax.netAmount = toMoney(net);
  }
  return tax;
}

/** Informative (2026 transition): reported, never added to total_tax. */
function addReform(tax: LineTax, reformBase: Cents, rule: TaxRule, reform: ReformRates, totals: RunningTotals): void {
  totals.reform = true;
  totals.ibsCbsBase += reformBase;
  if (rule.CST_IBSCBS !== undefined) tax.CST_IBSCBS = rule.CST_IBSCBS;
  if (rule.cClassTrib !== undefined) tax.cClassTrib = rule.cClassTrib;
  tax.IBSCBS_base = toMoney(reformBase);
  if (reform.cbs !== undefined) {
    const value = percentOf(reformBase, reform.cbs);
    totals.cbs += value;
    tax.CBS_rate = rule.CBS_rate;
    tax.CBS_value = toMoney(value);
  }
  if (reform.ibsUf !== undefined) {
    const value = percentOf(reformBase, reform.ibsUf);
    totals.ibsUf += value;
    tax.IBS_UF_rate = rule.IBS_UF_rate;
    tax.IBS_UF_value = toMoney(value);
  }
  if (reform.ibsMun !== undefined) {
    const value = percentOf(reformBase, reform.ibsMun);
    totals.ibsMun += value;
    tax.IBS_Mun_rate = rule.IBS_Mun_rate;
    tax.IBS_Mun_value = toMoney(value);
  }
}

/** Why ICMS, PIS and COFINS are zero under a rule (undefined where they are charged). */
interface ZeroTaxes {
  icms: string | undefined;
  pis: string | undefined;
  cofins: string | undefined;
}

/** The IBS/CBS rates of a rule that carries one, in rate units (undefined where the rule has none). */
interface ReformRates {
  cbs: RateUnits | undefined;
  ibsUf: RateUnits | undefined;
  ibsMun: RateUnits | undefined;
}

interface RuleRates {
  icmsRate: RateUnits;
  pisRate: RateUnits;
  cofinsRate: RateUnits;
  /** 100 % minus pRedBC: the share of the amount that is the ICMS base. */
  icmsBaseShare: RateUnits;
  fcpRate: RateUnits | undefined;
  /** The rates as the line prints them. */
  icmsPercent: number;
  pisPercent: number;
  cofinsPercent: number;
  fcpPercent: number | undefined;
  /** Zero taxes in a group of the normal regime, and in a Simples Nacional group. */
  normalZero: ZeroTaxes;
  simplesZero: ZeroTaxes;
  /** Whether the rule carries an IBS/CBS rate; their units are worked out on the first line that reports them. */
  hasReform: boolean;
  reform?: ReformRates;
}

/**
 * What a line needs of its rule beyond the amount, worked out once per rule object: rules are reused
 * across orders while their group is cached, and a group's rules are never changed in place (an update
 * makes a new matrix).
 */
const ruleRates = new WeakMap<TaxRule, RuleRates>();
function ruleRatesOf(rule: TaxRule): RuleRates {
  let rates = ruleRates.get(rule);
  if (!rates) {
    const icmsRate = toRateUnits(rule.ICMS_rate);
    const pisRate = toRateUnits(rule.PIS_rate);
    const cofinsRate = toRateUnits(rule.COFINS_rate);
    const fcpRate = rule.FCP_rate === undefined ? undefined : toRateUnits(rule.FCP_rate);
    rates = {
      icmsRate,
      pisRate,
      cofinsRate,
      icmsBaseShare: rule.ICMS_base_reduction === undefined ? FULL_BASE : FULL_BASE - toRateUnits(rule.ICMS_base_reduction),
      fcpRate,
      icmsPercent: toRate(icmsRate),
      pisPercent: toRate(pisRate),
      cofinsPercent: toRate(cofinsRate),
      fcpPercent: fcpRate === undefined ? undefined : toRate(fcpRate),
      normalZero: zeroTaxesOf(rule, false),
      simplesZero: zeroTaxesOf(rule, true),
      hasReform: rule.CBS_rate !== undefined || rule.IBS_UF_rate !== undefined || rule.IBS_Mun_rate !== undefined,
    };
    ruleRates.set(rule, rates);
  }
  return rates;
}

function reformRatesOf(rule: TaxRule, rates: RuleRates): ReformRates {
  rates.reform ??= {
    cbs: rule.CBS_rate === undefined ? undefined : toRateUnits(rule.CBS_rate),
    ibsUf: rule.IBS_UF_rate === undefined ? undefined : toRateUnits(rule.IBS_UF_rate),
    ibsMun: rule.IBS_Mun_rate === undefined ? undefined : toRateUnits(rule.IBS_Mun_rate),
  };
  return rates.reform;
}

function zeroTaxesOf(rule: TaxRule, simples: boolean): ZeroTaxes {
  // Simples Nacional pays PIS/COFINS through the DAS, whatever the CST: never on the document.
  const pisCofinsZero = (cst: string) => (simples ? SIMPLES_NACIONAL : PIS_COFINS_ZERO_CST.has(cst) ? `CST_${cst}` : undefined);
  return { icms: icmsZeroReason(rule.CST_ICMS, simples), pis: pisCofinsZero(rule.CST_PIS), cofins: pisCofinsZero(rule.CST_COFINS) };
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
export function findRule(ncm: string, group: FiscalGroupSnapshot): RuleMatch | undefined {
  for (let length = ncm.length; length >= 2; length--) {
    const key = ncm.slice(0, length);
    const rule = group.taxMatrix[key];
    if (rule) return { key, rule };
  }
  return undefined;
}

export interface RuleMatch {
  key: string;
  rule: TaxRule;
}

/**
 * The rule each NCM found in a matrix (null: none), per matrix object, so that an order's items look
 * their NCM up once per group rather than trying its prefixes each time. A matrix is never changed in
 * place: an update of the group makes a new one, which starts with no entries.
 */
const matchesByMatrix = new WeakMap<TaxMatrix, Map<string, RuleMatch | null>>();

/** The matches found so far in `group`'s matrix, for `findRuleIn`; undefined when the group has no matrix object. */
export function ruleMatchesOf(group: FiscalGroupSnapshot): Map<string, RuleMatch | null> | undefined {
  const matrix: unknown = group.taxMatrix;
  if (typeof matrix !== 'object' || matrix === null) return undefined;
  let matches = matchesByMatrix.get(matrix as TaxMatrix);
  if (!matches) {
    matches = new Map();
    matchesByMatrix.set(matrix as TaxMatrix, matches);
  }
  return matches;
}

/** `findRule`, remembered in `matches` (from `ruleMatchesOf(group)`). */
export function findRuleIn(
  ncm: string,
  group: FiscalGroupSnapshot,
  matches: Map<string, RuleMatch | null> | undefined,
): RuleMatch | undefined {
  if (!matches) return findRule(ncm, group);
  let found = matches.get(ncm);
  if (found === undefined) {
    found = findRule(ncm, group) ?? null;
    matches.set(ncm, found);
  }
  return found ?? undefined;
}

/**
 * Whether a total passed Number.MAX_SAFE_INTEGER cents, where a Number sum stops being exact. The
 * running sums only grow (amounts, shares and taxes are never negative) and rounding keeps their
 * order, so a sum that passed it shows above it. The base bounds the other totals but the taxes' sum
 * and the discounts' (bounded by the items' amounts, which the engine sums for the 10 % test).
 */
export function sumsBeyondSafeCents(totals: RunningTotals): boolean {
  return totals.base > Number.MAX_SAFE_INTEGER || totals.icms + totals.pis + totals.cofins + totals.fcp > Number.MAX_SAFE_INTEGER;
}

/** The order's totals; with order-level shares, their sums too. */
export function summarize(totals: RunningTotals, withShares: boolean): TaxTotals {
  const base = toMoney(totals.base);
  const icms = toMoney(totals.icms);
  const pis = toMoney(totals.pis);
  const cofins = toMoney(totals.cofins);
  const totalTax = toMoney(totals.icms + totals.pis + totals.cofins + totals.fcp);
  // FCP_value sits before total_tax.
  const summary: TaxTotals = totals.hasFcp
    ? { base, ICMS_value: icms, PIS_value: pis, COFINS_value: cofins, FCP_value: toMoney(totals.fcp), total_tax: totalTax }
    : { base, ICMS_value: icms, PIS_value: pis, COFINS_value: cofins, total_tax: totalTax };
  if (totals.reform) {
    summary.IBSCBS_base = toMoney(totals.ibsCbsBase);
    summary.CBS_value = toMoney(totals.cbs);
    summary.IBS_UF_value = toMoney(totals.ibsUf);
    summary.IBS_Mun_value = toMoney(totals.ibsMun);
  }
  if (withShares) {
    summary.discount = toMoney(totals.discount);
    summary.freight = toMoney(totals.freight);
    summary.otherCharges = toMoney(totals.otherCharges);
  }
  return summary;
}
