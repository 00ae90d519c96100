import type { Cents } from '../../tax-engine/money.js';
import type { LineTax } from '../../tax-engine/tax-engine.js';
import type { NfeElement, NfeProblemCode } from './nfe-layout.js';
import { centsOf, moneyText, rateText } from './nfe-text.js';

/**
 * One function per group family of an item's `imposto` (ICMS of the normal regime, ICMS of Simples Nacional, PIS,
 * COFINS, IBS/CBS), each choosing its group from the tables below and adding the figures it prints to the running
 * sums of the `total`. See docs/fiscal-documents.md.
 */

/** What a group family answers: its element, or why the item cannot be printed. */
export type GroupOutcome = { element: NfeElement; problem?: undefined } | { element?: undefined; problem: GroupProblem };
export interface GroupProblem {
  code: NfeProblemCode;
  problem: string;
}

/** The printed figures the `total` sums, in cents. */
export interface PrintedSums {
  vBC: Cents;
  vICMS: Cents;
  vFCP: Cents;
  vPIS: Cents;
  vCOFINS: Cents;
  vBCIBSCBS: Cents;
  vIBSUF: Cents;
  vIBSMun: Cents;
  vCBS: Cents;
  hasIbsCbs: boolean;
}

export function newPrintedSums(): PrintedSums {
  return { vBC: 0, vICMS: 0, vFCP: 0, vPIS: 0, vCOFINS: 0, vBCIBSCBS: 0, vIBSUF: 0, vIBSMun: 0, vCBS: 0, hasIbsCbs: false };
}

/** ICMS in the normal regime (CRT 3): the group of each CST (the last two digits of `CST_ICMS`). */
export const ICMS_GROUP_BY_CST: Readonly<Record<string, string>> = {
  '00': 'ICMS00',
  '20': 'ICMS20',
  '40': 'ICMS40',
  '41': 'ICMS40',
  '50': 'ICMS40',
  '51': 'ICMS51',
  '60': 'ICMS60',
  '90': 'ICMS90',
};
/** CSTs whose group needs ICMS-ST figures (base, MVA, value of the substitution) the service does not compute. */
export const ICMS_ST_CSTS: ReadonlySet<string> = new Set(['10', '30', '70']);

/** ICMS in Simples Nacional (CRT 1 or 4): the group of each CSOSN. */
export const ICMS_GROUP_BY_CSOSN: Readonly<Record<string, string>> = {
  '102': 'ICMSSN102',
  '103': 'ICMSSN102',
  '300': 'ICMSSN102',
  '400': 'ICMSSN102',
  '500': 'ICMSSN500',
  '900': 'ICMSSN900',
};

/** PIS and COFINS: the group of each CST (`PIS` + the suffix, `COFINS` + the suffix); 03 (by quantity) is not printable. */
export function pisCofinsGroupOf(cst: string): 'Aliq' | 'NT' | 'Outr' | undefined {
  if (cst === '01' || cst === '02') return 'Aliq';
  if (/^0[4-9]$/.test(cst)) return 'NT';
  if (/^(49|[5-9]\d)$/.test(cst)) return 'Outr';
  return undefined;
}

/** Modality of the ICMS base: 3, the value of the operation. */
const MOD_BC_OPERATION_VALUE = '3';

/** vBC, pICMS and vICMS of a charged ICMS, added to the sums. */
function ownIcms(tax: LineTax, sums: PrintedSums, reduced: boolean): NfeElement {
  const base = centsOf(tax.ICMS_base);
  const value = centsOf(tax.ICMS_value);
  sums.vBC += base;
  sums.vICMS += value;
  const element: NfeElement = { modBC: MOD_BC_OPERATION_VALUE };
  if (reduced) element.pRedBC = rateText(tax.ICMS_base_reduction);
  element.vBC = moneyText(base);
  element.pICMS = rateText(tax.ICMS_rate);
  element.vICMS = moneyText(value);
  return element;
}

/** pFCP and vFCP (with vBCFCP where the group has it) when the rule carries a rate above 0. */
function fcp(tax: LineTax, sums: PrintedSums, withBase: boolean): NfeElement {
  if (tax.FCP_rate === undefined || tax.FCP_rate <= 0) return {};
  const value = centsOf(tax.FCP_value);
  sums.vFCP += value;
  const element: NfeElement = {};
  if (withBase) element.vBCFCP = moneyText(centsOf(tax.FCP_base));
  element.pFCP = rateText(tax.FCP_rate);
  element.vFCP = moneyText(value);
  return element;
}

/** The ICMS group of an item in the normal regime. */
export function icmsNormalGroup(tax: LineTax, orig: string, sums: PrintedSums): GroupOutcome {
  const cst = tax.CST_ICMS.slice(-2);
  const group = ICMS_GROUP_BY_CST[cst];
  if (!group) {
    return ICMS_ST_CSTS.has(cst)
      ? { problem: { code: 'ICMS_ST_NOT_COMPUTED', problem: `CST ${cst} needs ICMS-ST figures the service does not compute` } }
      : { problem: { code: 'ICMS_CST_NOT_SUPPORTED', problem: `CST_ICMS ${tax.CST_ICMS} has no ICMS group the service prints` } };
  }
  const head: NfeElement = { orig, CST: cst };
  let body: NfeElement;
  switch (group) {
    case 'ICMS00':
      body = { ...ownIcms(tax, sums, false), ...fcp(tax, sums, false) };
      break;
    case 'ICMS20':
    case 'ICMS51':
      body = { ...ownIcms(tax, sums, group === 'ICMS20' || tax.ICMS_base_reduction !== undefined), ...fcp(tax, sums, true) };
      break;
    case 'ICMS90':
      body = ownIcms90(tax, sums);
      break;
    default:
      // ICMS40 (exempt, not taxed, suspended) and ICMS60 (collected before by substitution): no figures of their own.
      body = {};
  }
  return { element: { [group]: { ...head, ...body } } };
}

/** ICMS90 orders pRedBC after vBC. */
function ownIcms90(tax: LineTax, sums: PrintedSums): NfeElement {
  const own = ownIcms(tax, sums, false);
  const element: NfeElement = { modBC: own.modBC as string, vBC: own.vBC as string };
  if (tax.ICMS_base_reduction !== undefined) element.pRedBC = rateText(tax.ICMS_base_reduction);
  element.pICMS = own.pICMS as string;
  element.vICMS = own.vICMS as string;
  return { ...element, ...fcp(tax, sums, true) };
}

/** The ICMS group of an item in Simples Nacional (the tax is paid through the DAS but for CSOSN 900). */
export function icmsSimplesGroup(tax: LineTax, orig: string, sums: PrintedSums): GroupOutcome {
  const csosn = tax.CST_ICMS;
  const group = csosn.length === 3 ? ICMS_GROUP_BY_CSOSN[csosn] : undefined;
  if (!group) {
    const problem =
      csosn.length === 3
        ? `CSOSN ${csosn} needs credit or ICMS-ST figures the service does not compute`
        : `CST_ICMS ${csosn} is a CST of the normal regime; a Simples Nacional group prints a CSOSN (3 digits)`;
    return { problem: { code: 'CSOSN_NOT_SUPPORTED', problem } };
  }
  const head: NfeElement = { orig, CSOSN: csosn };
  if (group !== 'ICMSSN900') return { element: { [group]: head } };
  const own = ownIcms(tax, sums, false);
  const element: NfeElement = { ...head, modBC: own.modBC as string, vBC: own.vBC as string };
  if (tax.ICMS_base_reduction !== undefined) element.pRedBC = rateText(tax.ICMS_base_reduction);
  element.pICMS = own.pICMS as string;
  element.vICMS = own.vICMS as string;
  return { element: { ICMSSN900: element } };
}

/** PIS or COFINS: `Aliq`/`Outr` print base, rate and value (zeros where the tax is not charged), `NT` the CST alone. */
function contribution(
  name: 'PIS' | 'COFINS',
  cst: string,
  base: number,
  rate: number,
  value: number,
  charged: boolean,
): { element: NfeElement; value: Cents } | { problem: GroupProblem } {
  const kind = pisCofinsGroupOf(cst);
  if (!kind) {
    return {
      problem: {
        code: 'PIS_COFINS_CST_NOT_SUPPORTED',
        problem: `CST_${name} ${cst} has no ${name} group the service prints${cst === '03' ? ' (03 is charged by quantity)' : ''}`,
      },
    };
  }
  if (kind === 'NT') return { element: { [`${name}NT`]: { CST: cst } }, value: 0 };
  // Not charged (Simples Nacional pays it through the DAS): zeros, so that value = base × rate holds, as real documents print it.
  const cents = charged ? centsOf(value) : 0;
  return {
    element: {
      [`${name}${kind}`]: {
        CST: cst,
        vBC: charged ? moneyText(centsOf(base)) : '0.00',
        [`p${name}`]: charged ? rateText(rate) : '0.0000',
        [`v${name}`]: moneyText(cents),
      },
    },
    value: cents,
  };
}

export function pisGroup(tax: LineTax, sums: PrintedSums): GroupOutcome {
  const outcome = contribution('PIS', tax.CST_PIS, tax.PIS_base, tax.PIS_rate, tax.PIS_value, tax.zeroReasons.PIS === undefined);
  if ('problem' in outcome) return { problem: outcome.problem };
  sums.vPIS += outcome.value;
  return { element: outcome.element };
}

export function cofinsGroup(tax: LineTax, sums: PrintedSums): GroupOutcome {
  const outcome = contribution(
    'COFINS',
    tax.CST_COFINS,
    tax.COFINS_base,
    tax.COFINS_rate,
    tax.COFINS_value,
    tax.zeroReasons.COFINS === undefined,
  );
  if ('problem' in outcome) return { problem: outcome.problem };
  sums.vCOFINS += outcome.value;
  return { element: outcome.element };
}

/**
 * IBSCBS for an item whose rule carries reform rates (the engine reports them outside Simples Nacional only):
 * undefined when it has none.
 */
export function ibsCbsGroup(tax: LineTax, sums: PrintedSums): GroupOutcome | undefined {
  if (tax.IBSCBS_base === undefined) return undefined;
  if (tax.CST_IBSCBS === undefined || tax.cClassTrib === undefined) {
    return { problem: { code: 'NO_CCLASSTRIB', problem: 'the rule carries IBS/CBS rates but no CST_IBSCBS and cClassTrib' } };
  }
  const base = centsOf(tax.IBSCBS_base);
  const ibsUf = centsOf(tax.IBS_UF_value);
  const ibsMun = centsOf(tax.IBS_Mun_value);
  const cbs = centsOf(tax.CBS_value);
  sums.hasIbsCbs = true;
  sums.vBCIBSCBS += base;
  sums.vIBSUF += ibsUf;
  sums.vIBSMun += ibsMun;
  sums.vCBS += cbs;
  return {
    element: {
      IBSCBS: {
        CST: tax.CST_IBSCBS,
        cClassTrib: tax.cClassTrib,
        gIBSCBS: {
          vBC: moneyText(base),
          gIBSUF: { pIBSUF: rateText(tax.IBS_UF_rate), vIBSUF: moneyText(ibsUf) },
          gIBSMun: { pIBSMun: rateText(tax.IBS_Mun_rate), vIBSMun: moneyText(ibsMun) },
          vIBS: moneyText(ibsUf + ibsMun),
          gCBS: { pCBS: rateText(tax.CBS_rate), vCBS: moneyText(cbs) },
        },
      },
    },
  };
}
