/** The value under each NCM key of a fiscal group's tax matrix (spec "TaxRule"). */
export interface TaxRule {
  NCM: string;
  CEST: string;
  CST_ICMS: string;
  ICMS_rate: number;
  CST_PIS: string;
  PIS_rate: number;
  CST_COFINS: string;
  COFINS_rate: number;
  CFOP?: string;
  /** The goods' origin as the invoice prints it (`orig`, 0 to 8); absent: from a 3-digit CST, else 0. */
  orig?: string;
  /** pRedBC: percent of the amount taken off the ICMS base (CST 20 or 70, CSOSN 900 only). */
  ICMS_base_reduction?: number;
  /** pFCP: Fundo de Combate à Pobreza, percent (0 to 4) on the ICMS base, charged beside ICMS. */
  FCP_rate?: number;
  /** 2026 tax reform (informative): IBS/CBS classification and rates. */
  CST_IBSCBS?: string;
  cClassTrib?: string;
  IBS_UF_rate?: number;
  IBS_Mun_rate?: number;
  CBS_rate?: number;
}

export type TaxMatrix = Record<string, TaxRule>;

/** A fiscal group's switches that change the arithmetic. */
export interface FiscalGroupSettings {
  /** When true, ICMS stays in the PIS/COFINS base (the default excludes it, STF Tema 69). */
  includeIcmsInPisCofinsBase?: boolean;
  /** When true, discounts paid by the platform or a third party are split to the lines like the store's own (default false). */
  platformDiscountsReduceBase?: boolean;
  /** Whether the delivery fee is split to the lines (vFrete): only when the store delivers (default), always, or never. */
  deliveryFeeOnInvoice?: DeliveryFeeOnInvoice;
  /** When true, a service charge of at most 10 % still enters the ICMS base (states outside Convênio ICMS 125/11). */
  serviceChargeInIcmsBase?: boolean;
  /** The CFOP of the invoice's items whose rule has none (4 digits). */
  defaultCfop?: string;
}

export const DELIVERY_FEE_ON_INVOICE = ['WHEN_MERCHANT_DELIVERS', 'ALWAYS', 'NEVER'] as const;
export type DeliveryFeeOnInvoice = (typeof DELIVERY_FEE_ON_INVOICE)[number];
