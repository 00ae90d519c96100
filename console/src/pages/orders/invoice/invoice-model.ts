import type { ApiProblem, Schemas } from '../../../api/client';

type NfeItemsDto = Schemas['NfeItemsDto'];
type NfeDet = Schemas['NfeDetDto'];
/** A group of the schema: element names to their texts or to nested groups. */
type NfeGroup = Schemas['NfeGroupDto'];
type NfeProblemDetail = NonNullable<ApiProblem['details']>[number];

/** The taxes an invoice item prints, each on a row of its own. */
export const INVOICE_TAXES = ['ICMS', 'FCP', 'PIS', 'COFINS', 'IBSUF', 'IBSMun', 'CBS'] as const;
export type InvoiceTaxKey = (typeof INVOICE_TAXES)[number];

/** One tax of one item as the invoice prints it: its group, CST or CSOSN, base, rate and value (the schema's texts). */
export interface InvoiceTaxRow {
  tax: InvoiceTaxKey;
  /** The schema's group the item prints, e.g. `ICMS00`, `ICMSSN102`, `PISNT`, `IBSCBS`. */
  group: string;
  cst?: string;
  csosn?: string;
  /** `cClassTrib` of an IBS/CBS row. */
  classification?: string;
  base?: string;
  /** The base reduction of ICMS 20 (`pRedBC`). */
  baseReduction?: string;
  rate?: string;
  value?: string;
}

/** An item of the invoice: what its `prod` prints and its taxes. */
export interface InvoiceItem {
  nItem: string;
  cProd: string;
  xProd: string;
  NCM: string;
  CEST?: string;
  CFOP: string;
  qCom: string;
  vUnCom: string;
  vProd: string;
  vDesc?: string;
  vFrete?: string;
  vOutro?: string;
  taxes: InvoiceTaxRow[];
}

/** A total as printed: its element's path in the total group (`ICMSTot/vBC`, `IBSCBSTot/gIBS/gIBSUF/vIBSUF`) and its text. */
export interface InvoiceTotal {
  group: 'ICMSTot' | 'IBSCBSTot';
  path: string;
  element: string;
  value: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;

/** An element holding other elements (a group), as JSON objects carry them. */
const isGroup = (value: unknown): value is NfeGroup => typeof value === 'object' && value !== null && !Array.isArray(value);
const groupOf = (value: unknown): NfeGroup | undefined => (isGroup(value) ? value : undefined);

/** The one group a choice element holds (`ICMS` holds exactly one of `ICMS00`, `ICMS20`…), with its name. */
function chosen(parent: NfeGroup | undefined): [string, NfeGroup] | undefined {
  if (!parent) return undefined;
  for (const [name, value] of Object.entries(parent)) {
    const group = groupOf(value);
    if (group) return [name, group];
  }
  return undefined;
}

function icmsRows(imposto: NfeGroup): InvoiceTaxRow[] {
  const found = chosen(groupOf(imposto.ICMS));
  if (!found) return [];
  const [group, icms] = found;
  const rows: InvoiceTaxRow[] = [
    {
      tax: 'ICMS',
      group,
      cst: text(icms.CST),
      csosn: text(icms.CSOSN),
      base: text(icms.vBC),
      baseReduction: text(icms.pRedBC),
      rate: text(icms.pICMS),
      value: text(icms.vICMS),
    },
  ];
  // FCP is printed inside the ICMS group, on the ICMS base unless the group has a base of its own.
  if (icms.pFCP !== undefined || icms.vFCP !== undefined)
    rows.push({ tax: 'FCP', group, base: text(icms.vBCFCP) ?? text(icms.vBC), rate: text(icms.pFCP), value: text(icms.vFCP) });
  return rows;
}

function contributionRow(imposto: NfeGroup, tax: 'PIS' | 'COFINS'): InvoiceTaxRow[] {
  const found = chosen(groupOf(imposto[tax]));
  if (!found) return [];
  const [group, values] = found;
  return [{ tax, group, cst: text(values.CST), base: text(values.vBC), rate: text(values[`p${tax}`]), value: text(values[`v${tax}`]) }];
}

function reformRows(imposto: NfeGroup): InvoiceTaxRow[] {
  const reform = groupOf(imposto.IBSCBS);
  if (!reform) return [];
  const cst = text(reform.CST);
  const classification = text(reform.cClassTrib);
  const figures = groupOf(reform.gIBSCBS);
  const base = figures ? text(figures.vBC) : undefined;
  const part = (tax: 'IBSUF' | 'IBSMun' | 'CBS', groupName: string): InvoiceTaxRow => {
    const values = figures ? groupOf(figures[groupName]) : undefined;
    return {
      tax,
      group: 'IBSCBS',
      cst,
      classification,
      base,
      rate: values ? text(values[`p${tax}`]) : undefined,
      value: values ? text(values[`v${tax}`]) : undefined,
    };
  };
  return [part('IBSUF', 'gIBSUF'), part('IBSMun', 'gIBSMun'), part('CBS', 'gCBS')];
}

export function invoiceItemOf(det: NfeDet, index: number): InvoiceItem {
  const prod = det.prod;
  const field = (name: string) => text(prod[name]);
  return {
    nItem: det['@nItem'] || String(index + 1),
    cProd: field('cProd') ?? '',
    xProd: field('xProd') ?? '',
    NCM: field('NCM') ?? '',
    CEST: field('CEST'),
    CFOP: field('CFOP') ?? '',
    qCom: field('qCom') ?? '',
    vUnCom: field('vUnCom') ?? '',
    vProd: field('vProd') ?? '',
    vDesc: field('vDesc'),
    vFrete: field('vFrete'),
    vOutro: field('vOutro'),
    taxes: [
      ...icmsRows(det.imposto),
      ...contributionRow(det.imposto, 'PIS'),
      ...contributionRow(det.imposto, 'COFINS'),
      ...reformRows(det.imposto),
    ],
  };
}

export function invoiceItemsOf(document: NfeItemsDto): InvoiceItem[] {
  return document.det.map(invoiceItemOf);
}

function flatten(group: NfeGroup, name: InvoiceTotal['group'], prefix: string[]): InvoiceTotal[] {
  return Object.entries(group).flatMap(([element, value]) => {
    const nested = groupOf(value);
    if (nested) return flatten(nested, name, [...prefix, element]);
    const shown = text(value);
    return shown === undefined ? [] : [{ group: name, path: [name, ...prefix, element].join('/'), element, value: shown }];
  });
}

/** Every total of the document in the schema's order: `ICMSTot`, then `IBSCBSTot` when any item has IBS/CBS. */
export function invoiceTotalsOf(document: NfeItemsDto): InvoiceTotal[] {
  const icms = groupOf(document.total.ICMSTot);
  const reform = groupOf(document.total.IBSCBSTot);
  return [...(icms ? flatten(icms, 'ICMSTot', []) : []), ...(reform ? flatten(reform, 'IBSCBSTot', []) : [])];
}

/** The decimal text the schema prints ("10.00", "18.0000") as a number to format; undefined for no text. */
export function decimalOf(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value);
  return Number.isFinite(number) ? number : undefined;
}

/** A cause an order cannot be printed, with the name of the line or modifier its path points to. */
export interface InvoiceProblem {
  field?: string;
  code?: string;
  problem?: string;
  /** The line's (or modifier's) name, found at the path in the order's enriched payload. */
  itemName?: string;
}

const PATH_STEP = /([^.[\]]+)|\[(\d+)\]/g;

/** The name of the deepest object with a `name` along a path such as `order.products[0].modifierGroups[1].selectedModifiers[0]`. */
export function nameAtPath(payload: unknown, path: string | undefined): string | undefined {
  if (!path) return undefined;
  let current: unknown = payload;
  let name: string | undefined;
  for (const match of path.matchAll(PATH_STEP)) {
    const key = match[1] ?? Number(match[2]);
    if (typeof current !== 'object' || current === null) break;
    current = (current as Record<string | number, unknown>)[key];
    if (typeof current === 'object' && current !== null && typeof (current as { name?: unknown }).name === 'string')
      name = (current as { name: string }).name;
  }
  return name;
}

export function invoiceProblemsOf(details: NfeProblemDetail[] | undefined, payload: unknown): InvoiceProblem[] {
  return (details ?? []).map((detail) => ({
    field: detail.field,
    code: typeof detail.code === 'string' ? detail.code : undefined,
    problem: detail.problem,
    itemName: nameAtPath(payload, detail.field),
  }));
}
