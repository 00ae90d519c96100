import type { components } from '../api/client';
import { discountLabelOf, type DiscountLabel } from './discount-label';
import { isObj, num, text, type Obj } from './values';

/**
 * How the tax breakdown reads an enriched order: where a warning points, the anchors of lines and
 * modifiers, and a line's tax object as table rows. Pure: the components only lay it out.
 */
export type LineTax = components['schemas']['LineTaxDto'];
export type TaxTotals = components['schemas']['TaxTotalsDto'];
export type TaxSummary = components['schemas']['TaxSummaryDto'];

/**
 * An amount kept outside the invoice, read loosely: a stored payload of a newer engine may carry a
 * kind or reason this console does not know, shown as the service wrote it.
 */
export type OutsideInvoiceAmount = Omit<components['schemas']['OutsideInvoiceAmountDto'], 'kind' | 'reason'> & {
  kind: string;
  reason: string;
};
/**
 * A discount paid back to the store, its sponsor read loosely for the same reason; `label` is what its description
 * says, when the service wrote it (a marketplace's discount), for the reader's language.
 */
export type ThirdPartyPayment = Pick<components['schemas']['ThirdPartyPaymentDto'], 'amount' | 'description'> & {
  sponsor: string;
  label?: DiscountLabel;
};

/** Lines drawn at first; a 2000-line order is drawn on demand, so the page stays responsive. */
export const LINES_PER_STEP = 50;

/** Where a warning's `path` points: `order.products[2]` or `order.products[2].modifierGroups[0].selectedModifiers[1]`. */
export interface WarningTarget {
  line: number;
  group?: number;
  modifier?: number;
}

export function warningTarget(path: string): WarningTarget | undefined {
  const match = /^order\.products\[(\d+)\](?:\.modifierGroups\[(\d+)\]\.selectedModifiers\[(\d+)\])?/.exec(path);
  if (!match) return undefined;
  const line = Number(match[1]);
  return match[2] === undefined ? { line } : { line, group: Number(match[2]), modifier: Number(match[3]) };
}

/** The line a URL fragment (`#tax-line-2`, `#tax-line-0-modifier-0-1`) names, for this breakdown's prefix. */
export function targetOfFragment(prefix: string, fragment: string): WarningTarget | undefined {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^#${escaped}-line-(\\d+)(?:-modifier-(\\d+)-(\\d+))?$`).exec(fragment);
  if (!match) return undefined;
  const line = Number(match[1]);
  return match[2] === undefined ? { line } : { line, group: Number(match[2]), modifier: Number(match[3]) };
}

/** How many lines to draw so that `line` (0-based) is among them: whole steps of LINES_PER_STEP. */
export const linesToShow = (line: number) => Math.max(LINES_PER_STEP, Math.ceil((line + 1) / LINES_PER_STEP) * LINES_PER_STEP);

export function anchorId(prefix: string, target: WarningTarget): string {
  return target.group === undefined
    ? `${prefix}-line-${target.line}`
    : `${prefix}-line-${target.line}-modifier-${target.group}-${target.modifier}`;
}

/** The engine's `tax` object of a line or modifier, or null when the item was not taxed. */
export const taxOf = (item: Obj): LineTax | null => (isObj(item.tax) ? (item.tax as unknown as LineTax) : null);

/** Why a tax is zero, as the engine writes it: `SIMPLES_NACIONAL`, `CST_40`, `CSOSN_102`, or other text shown as it is. */
export type ZeroReason = { kind: 'simples' } | { kind: 'code'; type: string; code: string } | { kind: 'other'; text: string };

export function zeroReasonOf(reason: string | undefined): ZeroReason | undefined {
  if (!reason) return undefined;
  if (reason === 'SIMPLES_NACIONAL') return { kind: 'simples' };
  const match = /^(CST|CSOSN)_(.+)$/.exec(reason);
  return match ? { kind: 'code', type: match[1]!, code: match[2]! } : { kind: 'other', text: reason };
}

export type TaxKey = 'ICMS' | 'FCP' | 'PIS' | 'COFINS' | 'IBS_UF' | 'IBS_Mun' | 'CBS';

/** One tax of a line: CST, base, rate and value as the engine wrote them. */
export interface TaxRow {
  key: TaxKey;
  cst?: string;
  base?: number;
  /** The ICMS base reduction, in percent, when the rule has one. */
  baseReduction?: number;
  rate?: number;
  value?: number;
  zeroReason?: ZeroReason;
  /** IBS and CBS of the tax reform: shown, not charged yet. */
  informative?: boolean;
}

/** A line's taxes as rows: ICMS, FCP (when the rule has it), PIS, COFINS, then IBS/CBS when the reform fields are there. */
export function taxRowsOf(tax: LineTax): TaxRow[] {
  const zero = (kind: string) => zeroReasonOf(tax.zeroReasons?.[kind]);
  const rows: TaxRow[] = [
    {
      key: 'ICMS',
      cst: tax.CST_ICMS,
      base: tax.ICMS_base,
      baseReduction: tax.ICMS_base_reduction,
      rate: tax.ICMS_rate,
      value: tax.ICMS_value,
      zeroReason: zero('ICMS'),
    },
  ];
  if (tax.FCP_rate !== undefined)
    rows.push({ key: 'FCP', base: tax.FCP_base, rate: tax.FCP_rate, value: tax.FCP_value, zeroReason: zero('FCP') });
  rows.push(
    { key: 'PIS', cst: tax.CST_PIS, base: tax.PIS_base, rate: tax.PIS_rate, value: tax.PIS_value, zeroReason: zero('PIS') },
    {
      key: 'COFINS',
      cst: tax.CST_COFINS,
      base: tax.COFINS_base,
      rate: tax.COFINS_rate,
      value: tax.COFINS_value,
      zeroReason: zero('COFINS'),
    },
  );
  const reform =
    tax.IBSCBS_base !== undefined || tax.CBS_rate !== undefined || tax.IBS_UF_rate !== undefined || tax.IBS_Mun_rate !== undefined;
  if (reform) {
    const common = { cst: tax.CST_IBSCBS, base: tax.IBSCBS_base, informative: true };
    rows.push(
      { key: 'IBS_UF', ...common, rate: tax.IBS_UF_rate, value: tax.IBS_UF_value },
      { key: 'IBS_Mun', ...common, rate: tax.IBS_Mun_rate, value: tax.IBS_Mun_value },
      { key: 'CBS', ...common, rate: tax.CBS_rate, value: tax.CBS_value },
    );
  }
  return rows;
}

export type ShareKey = 'discount' | 'freight' | 'otherCharges' | 'netAmount';

/**
 * An item's shares of the order-level amounts on the invoice (vDesc, vFrete, vOutro) and its net
 * amount, those the engine wrote: none for an order without such amounts, which shows as before.
 */
export function sharesOf(tax: LineTax): [ShareKey, number][] {
  const keys: ShareKey[] = ['discount', 'freight', 'otherCharges', 'netAmount'];
  return keys.flatMap((key): [ShareKey, number][] => {
    const value = num(tax[key]);
    return value === undefined ? [] : [[key, value]];
  });
}

export type TotalKey =
  | 'discount'
  | 'freight'
  | 'otherCharges'
  | 'base'
  | 'ICMS_base'
  | 'PIS_base'
  | 'COFINS_base'
  | 'ICMS'
  | 'FCP'
  | 'PIS'
  | 'COFINS'
  | 'IBSCBS_base'
  | 'IBS_UF'
  | 'IBS_Mun'
  | 'CBS';

/** The bases of the items whose tax is charged, summed from the lines: what the invoice prints as each tax's vBC total. */
export interface ChargedBases {
  ICMS_base: number;
  PIS_base: number;
  COFINS_base: number;
}

/** Every taxed item of the order: each line's tax, then its selected modifiers' taxes. */
function itemTaxesOf(products: readonly unknown[]): LineTax[] {
  return products.flatMap((product) => {
    if (!isObj(product)) return [];
    const own = isObj(product.tax) ? [product.tax as LineTax] : [];
    const groups = Array.isArray(product.modifierGroups) ? product.modifierGroups : [];
    const modifiers = groups.flatMap((group: unknown) =>
      isObj(group) && Array.isArray(group.selectedModifiers) ? (group.selectedModifiers as unknown[]) : [],
    );
    return [...own, ...modifiers.flatMap((modifier) => (isObj(modifier) && isObj(modifier.tax) ? [modifier.tax as LineTax] : []))];
  });
}

/**
 * The base of each tax over the items that are charged it (no zero reason: not CST 40/41/60, not
 * Simples Nacional), in integer cents so that the sum is exact. The summary's `base` is another
 * figure: the amounts of every taxed item, charged or not.
 */
export function chargedBasesOf(products: readonly unknown[]): ChargedBases {
  const cents = { ICMS_base: 0, PIS_base: 0, COFINS_base: 0 };
  for (const tax of itemTaxesOf(products)) {
    for (const [kind, key] of [
      ['ICMS', 'ICMS_base'],
      ['PIS', 'PIS_base'],
      ['COFINS', 'COFINS_base'],
    ] as const) {
      const base = num(tax[key]);
      if (base !== undefined && !tax.zeroReasons?.[kind]) cents[key] += Math.round(base * 100);
    }
  }
  return { ICMS_base: cents.ICMS_base / 100, PIS_base: cents.PIS_base / 100, COFINS_base: cents.COFINS_base / 100 };
}

/** The order's totals as rows: the charged taxes, and apart the reform's (informative) ones present in the totals. */
export function totalsRowsOf(
  totals: TaxTotals,
  bases?: ChargedBases,
): {
  shares: [TotalKey, number][];
  charged: [TotalKey, number | undefined][];
  reform: [TotalKey, number | undefined][];
} {
  // The sums of the items' shares come first, as on the invoice's totals (vDesc, vFrete, vOutro); only those present.
  const shares = (['discount', 'freight', 'otherCharges'] as const).flatMap((key): [TotalKey, number][] => {
    const value = num(totals[key]);
    return value === undefined ? [] : [[key, value]];
  });
  // Each base named for what it is: the items' amounts (every CST), then each tax's base over the items charged it.
  const charged: [TotalKey, number | undefined][] = [['base', totals.base]];
  if (bases) charged.push(['ICMS_base', bases.ICMS_base]);
  charged.push(['ICMS', totals.ICMS_value]);
  if (totals.FCP_value !== undefined) charged.push(['FCP', totals.FCP_value]);
  if (bases) charged.push(['PIS_base', bases.PIS_base]);
  charged.push(['PIS', totals.PIS_value]);
  if (bases) charged.push(['COFINS_base', bases.COFINS_base]);
  charged.push(['COFINS', totals.COFINS_value]);
  const reform: [TotalKey, number | undefined][] = [];
  if (totals.IBSCBS_base !== undefined) reform.push(['IBSCBS_base', totals.IBSCBS_base]);
  if (totals.IBS_UF_value !== undefined) reform.push(['IBS_UF', totals.IBS_UF_value]);
  if (totals.IBS_Mun_value !== undefined) reform.push(['IBS_Mun', totals.IBS_Mun_value]);
  if (totals.CBS_value !== undefined) reform.push(['CBS', totals.CBS_value]);
  return { shares, charged, reform };
}

/** The kinds of amounts kept outside the invoice that the console names; another one shows as the service wrote it. */
export const OUTSIDE_INVOICE_KINDS = ['DISCOUNT', 'DELIVERY_FEE', 'SERVICE_CHARGE', 'OTHER_CHARGE'] as const;
export type KnownOutsideKind = (typeof OUTSIDE_INVOICE_KINDS)[number];
export const isKnownOutsideKind = (kind: string): kind is KnownOutsideKind => (OUTSIDE_INVOICE_KINDS as readonly string[]).includes(kind);

/** The amounts the summary keeps outside the invoice; entries a stored payload holds in another shape are left out. */
export function outsideInvoiceOf(summary: TaxSummary): OutsideInvoiceAmount[] {
  const entries: unknown[] = Array.isArray(summary.outsideInvoice) ? summary.outsideInvoice : [];
  return entries.flatMap((entry) => {
    if (!isObj(entry)) return [];
    const kind = text(entry.kind);
    const amount = num(entry.amount);
    return kind === undefined || amount === undefined ? [] : [{ kind, amount, reason: text(entry.reason) ?? '' }];
  });
}

export const THIRD_PARTY_SPONSORS = ['PLATFORM', 'THIRD_PARTY'] as const;
export type KnownSponsor = (typeof THIRD_PARTY_SPONSORS)[number];
export const isKnownSponsor = (sponsor: string): sponsor is KnownSponsor => (THIRD_PARTY_SPONSORS as readonly string[]).includes(sponsor);

/** The discounts paid back to the store by someone else, for the invoice's payment group. */
export function thirdPartyPaymentsOf(summary: TaxSummary): ThirdPartyPayment[] {
  const entries: unknown[] = Array.isArray(summary.thirdPartyPayments) ? summary.thirdPartyPayments : [];
  return entries.flatMap((entry) => {
    if (!isObj(entry)) return [];
    const amount = num(entry.amount);
    const sponsor = text(entry.sponsor);
    if (amount === undefined || sponsor === undefined) return [];
    const description = text(entry.description);
    const label = discountLabelOf(entry);
    return [{ amount, sponsor, ...(description !== undefined ? { description } : {}), ...(label ? { label } : {}) }];
  });
}
