/**
 * The items of an NF-e (model 55) or NFC-e (model 65) in the layout of NF-e 4.00 with the 2026 reform groups
 * (package PL_010, NT 2025.002 v1.30): element names exactly the schema's, a group as an object, each value the
 * schema's text, so that JSON → XML is mechanical. The `det` element's attribute `nItem` is the property `@nItem`
 * (the attribute convention of xmlbuilder2, which writes the XML from these very objects).
 */
export interface NfeElement {
  [name: string]: string | NfeElement;
}

export const NFE_LAYOUT = 'PL_010_V1.30';
export const NFE_NAMESPACE = 'http://www.portalfiscal.inf.br/nfe';
export const NFE_MODELS = ['65', '55'] as const;
export type NfeModel = (typeof NFE_MODELS)[number];
export const FREIGHT_AS = ['vFrete', 'vOutro'] as const;
export type FreightAs = (typeof FREIGHT_AS)[number];
/** The schema's limit on `det` (`maxOccurs="990"`, and `nItem` from 1 to 990). */
export const MAX_NFE_ITEMS = 990;

export interface NfeDet {
  '@nItem': string;
  prod: NfeElement;
  imposto: NfeElement;
}

export interface NfeItems {
  orderId: string;
  model: NfeModel;
  /** Código de Regime Tributário: 1 Simples Nacional, 3 normal regime, 4 MEI. */
  crt: '1' | '3' | '4';
  layout: typeof NFE_LAYOUT;
  det: NfeDet[];
  total: NfeElement;
}

/** Why an order cannot be printed: what the details of 422 NFE_NOT_ISSUABLE and the enrich answer's `nfeProblems` list. */
export const NFE_PROBLEM_CODES = [
  'NO_TAX',
  'NO_CFOP',
  'ICMS_ST_NOT_COMPUTED',
  'ICMS_CST_NOT_SUPPORTED',
  'CSOSN_NOT_SUPPORTED',
  'PIS_COFINS_CST_NOT_SUPPORTED',
  'NO_CCLASSTRIB',
  'CPROD_TOO_LONG',
  'CPROD_NOT_PRINTABLE',
  'TOO_MANY_ITEMS',
] as const;
export type NfeProblemCode = (typeof NFE_PROBLEM_CODES)[number];

export interface NfeProblem {
  /** The item's path in the payload, e.g. `order.products[2].modifierGroups[0].selectedModifiers[1]`. */
  field: string;
  problem: string;
  code: NfeProblemCode;
}

export type NfeOutcome = { items: NfeItems; problems?: undefined } | { items?: undefined; problems: NfeProblem[] };

export interface NfeOptions {
  model: NfeModel;
  freightAs: FreightAs;
}
