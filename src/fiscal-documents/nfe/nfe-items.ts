import { isPlainObject } from '../../common/plain-object.js';
import { idText } from '../../common/id-text.js';
import { isSimplesNacional, itemAmountCents } from '../../tax-engine/default-tax-engine.js';
import type { Cents } from '../../tax-engine/money.js';
import type { LineTax } from '../../tax-engine/tax-engine.js';
import {
  cofinsGroup,
  ibsCbsGroup,
  icmsNormalGroup,
  icmsSimplesGroup,
  newPrintedSums,
  pisGroup,
  type GroupOutcome,
  type PrintedSums,
} from './nfe-groups.js';
import {
  MAX_NFE_ITEMS,
  NFE_LAYOUT,
  type NfeDet,
  type NfeElement,
  type NfeItems,
  type NfeOptions,
  type NfeOutcome,
  type NfeProblem,
} from './nfe-layout.js';
import { centsOf, isSchemaText, moneyText, quantityOf, schemaText, unitValueText, validGtin } from './nfe-text.js';

type Obj = Record<string, unknown>;

/** The schema's limits of `cProd` and `xProd`. */
const MAX_CPROD = 60;
const MAX_XPROD = 120;
const NO_GTIN = 'SEM GTIN';
/** Commercial and taxable unit: the unit of sale of a restaurant's items. */
const UNIT = 'UN';
/** The item's value enters the document's total (`indTot` 1). */
const IN_TOTAL = '1';

/** Document-level sums of the printed item figures, in cents. */
interface DocumentSums extends PrintedSums {
  vProd: Cents;
  vDesc: Cents;
  vFrete: Cents;
  vOutro: Cents;
}

/** CRT of a fiscal group's regime: 4 MEI, 1 Simples Nacional, 3 normal regime. */
export function crtOf(taxRegime: string | null | undefined): NfeItems['crt'] {
  const regime = taxRegime?.trim().toUpperCase();
  if (regime === 'MEI' || regime === '4') return '4';
  return isSimplesNacional(taxRegime) ? '1' : '3';
}

/**
 * The `det` elements and the `total` of an enriched order (its `tax` objects and `taxSummary`, read, never changed),
 * or every reason it cannot be printed. One `det` per taxed item in payload order: a line, then its taxed modifiers.
 */
export function nfeItemsOf(enriched: Obj, options: NfeOptions): NfeOutcome {
  const summary = isPlainObject(enriched.taxSummary) ? enriched.taxSummary : undefined;
  const crt = crtOf(typeof summary?.taxRegime === 'string' ? summary.taxRegime : null);
  const simples = crt !== '3';
  const sums: DocumentSums = { ...newPrintedSums(), vProd: 0, vDesc: 0, vFrete: 0, vOutro: 0 };
  const det: NfeDet[] = [];
  const problems: NfeProblem[] = [];
  const order = enriched.order;
  const products = isPlainObject(order) ? order.products : undefined;
  const visit = (item: unknown, path: string, modifier: boolean) => {
    if (!isPlainObject(item)) {
      problems.push({ field: path, problem: 'the item is not an object, so it has no taxes', code: 'NO_TAX' });
      return;
    }
    const tax = item.tax as LineTax | null | undefined;
    if (!isPlainObject(tax)) {
      // A modifier of no value without taxes (a free choice) is no item of the invoice.
      if (modifier && itemAmountCents(item) === 0) return;
      problems.push({ field: path, problem: 'the item has no taxes (see the warning at its path)', code: 'NO_TAX' });
      return;
    }
    const itemProblems = problems.length;
    const nItem = det.length + 1;
    const built = detOf(item, tax, path, nItem, simples, options, sums, problems);
    if (built && problems.length === itemProblems) det.push(built);
  };
  if (!Array.isArray(products)) {
    problems.push({ field: 'order.products', problem: 'the order has no products', code: 'NO_TAX' });
  } else {
    for (let lineIndex = 0; lineIndex < products.length; lineIndex++) {
      const line: unknown = products[lineIndex];
      const linePath = `order.products[${lineIndex}]`;
      visit(line, linePath, false);
      const groups = isPlainObject(line) ? line.modifierGroups : undefined;
      if (!Array.isArray(groups)) continue;
      for (let groupIndex = 0; groupIndex < groups.length; groupIndex++) {
        const group: unknown = groups[groupIndex];
        const modifiers = isPlainObject(group) ? group.selectedModifiers : undefined;
        if (!Array.isArray(modifiers)) continue;
        for (let modifierIndex = 0; modifierIndex < modifiers.length; modifierIndex++) {
          visit(modifiers[modifierIndex], `${linePath}.modifierGroups[${groupIndex}].selectedModifiers[${modifierIndex}]`, true);
        }
      }
    }
  }
  if (det.length === 0 && problems.length === 0) {
    problems.push({ field: 'order.products', problem: 'the order has no taxed item to print', code: 'NO_TAX' });
  }
  if (det.length + problems.length > MAX_NFE_ITEMS && !problems.some((problem) => problem.code === 'TOO_MANY_ITEMS')) {
    problems.unshift({
      field: 'order.products',
      problem: `the order has more than ${MAX_NFE_ITEMS} items, the most one NF-e or NFC-e holds`,
      code: 'TOO_MANY_ITEMS',
    });
  }
  if (problems.length > 0) return { problems };
  const orderId = idText(enriched.orderId) ?? '';
  return { items: { orderId, model: options.model, crt, layout: NFE_LAYOUT, det, total: totalOf(sums) } };
}

/** One item's `det`, or undefined with its problems pushed. */
function detOf(
  item: Obj,
  tax: LineTax,
  path: string,
  nItem: number,
  simples: boolean,
  options: NfeOptions,
  sums: DocumentSums,
  problems: NfeProblem[],
): NfeDet | undefined {
  const fail = (outcome: GroupOutcome | undefined): NfeElement | undefined => {
    if (outcome?.problem) problems.push({ field: path, ...outcome.problem });
    return outcome?.element;
  };
  const prod = prodOf(item, tax, path, options, problems);
  const orig = origOf(tax, simples);
  // Each family adds to a scratch copy: an item that turns out not printable adds nothing to the totals.
  const itemSums = newPrintedSums();
  const icms = fail(simples ? icmsSimplesGroup(tax, orig, itemSums) : icmsNormalGroup(tax, orig, itemSums));
  const pis = fail(pisGroup(tax, itemSums));
  const cofins = fail(cofinsGroup(tax, itemSums));
  const reform = ibsCbsGroup(tax, itemSums);
  const ibsCbs = fail(reform);
  if (!prod || !icms || !pis || !cofins || (reform && !ibsCbs)) return undefined;
  addPrinted(sums, itemSums);
  sums.vProd += prod.vProd;
  sums.vDesc += prod.vDesc;
  sums.vFrete += prod.vFrete;
  sums.vOutro += prod.vOutro;
  const imposto: NfeElement = { ICMS: icms, PIS: pis, COFINS: cofins };
  if (ibsCbs) Object.assign(imposto, ibsCbs);
  return { '@nItem': String(nItem), prod: prod.element, imposto };
}

function addPrinted(sums: PrintedSums, item: PrintedSums): void {
  sums.vBC += item.vBC;
  sums.vICMS += item.vICMS;
  sums.vFCP += item.vFCP;
  sums.vPIS += item.vPIS;
  sums.vCOFINS += item.vCOFINS;
  sums.vBCIBSCBS += item.vBCIBSCBS;
  sums.vIBSUF += item.vIBSUF;
  sums.vIBSMun += item.vIBSMun;
  sums.vCBS += item.vCBS;
  sums.hasIbsCbs ||= item.hasIbsCbs;
}

/** `orig`: the rule's, else the first digit of a 3-digit CST in the normal regime, else 0 (national). */
export function origOf(tax: LineTax, simples: boolean): string {
  if (tax.orig !== undefined) return tax.orig;
  return !simples && tax.CST_ICMS.length === 3 ? tax.CST_ICMS[0]! : '0';
}

interface PrintedProd {
  element: NfeElement;
  vProd: Cents;
  vDesc: Cents;
  vFrete: Cents;
  vOutro: Cents;
}

/** The item's `prod` group, or undefined with its problems pushed. */
export function prodOf(item: Obj, tax: LineTax, path: string, options: NfeOptions, problems: NfeProblem[]): PrintedProd | undefined {
  const productId = idText(item.productId) ?? '';
  let printable = true;
  if (productId.length > MAX_CPROD) {
    problems.push({
      field: `${path}.productId`,
      problem: `is longer than ${MAX_CPROD} characters, the limit of cProd`,
      code: 'CPROD_TOO_LONG',
    });
    printable = false;
  } else if (!isSchemaText(productId)) {
    problems.push({
      field: `${path}.productId`,
      problem: 'holds characters cProd does not admit (control characters, characters past ÿ, spaces at an end)',
      code: 'CPROD_NOT_PRINTABLE',
    });
    printable = false;
  }
  if (tax.CFOP === null || tax.CFOP === undefined) {
    problems.push({ field: path, problem: "neither the item's rule nor the fiscal group's settings give a CFOP", code: 'NO_CFOP' });
    printable = false;
  }
  if (!printable) return undefined;
  const vProd = itemAmountCents(item);
  const vDesc = centsOf(tax.discount);
  const freight = centsOf(tax.freight);
  const vFrete = options.freightAs === 'vFrete' ? freight : 0;
  const vOutro = centsOf(tax.otherCharges) + (options.freightAs === 'vOutro' ? freight : 0);
  const quantity = quantityOf(item.quantity);
  const qCom = quantity.toFixed(4);
  const vUnCom = unitValueText(vProd, quantity);
  const gtin = validGtin(item.gtin) ?? validGtin(item.ean) ?? NO_GTIN;
  const element: NfeElement = {
    cProd: productId,
    cEAN: gtin,
    xProd: schemaText(item.name, MAX_XPROD) || productId,
    NCM: tax.NCM,
  };
  if (tax.CEST) element.CEST = tax.CEST;
  element.CFOP = tax.CFOP!;
  element.uCom = UNIT;
  element.qCom = qCom;
  element.vUnCom = vUnCom;
  element.vProd = moneyText(vProd);
  element.cEANTrib = gtin;
  element.uTrib = UNIT;
  element.qTrib = qCom;
  element.vUnTrib = vUnCom;
  // Present only when not zero (the schema's optional money types refuse 0).
  if (vFrete > 0) element.vFrete = moneyText(vFrete);
  if (vDesc > 0) element.vDesc = moneyText(vDesc);
  if (vOutro > 0) element.vOutro = moneyText(vOutro);
  element.indTot = IN_TOTAL;
  return { element, vProd, vDesc, vFrete, vOutro };
}

const ZERO = '0.00';

/** `total`: ICMSTot with every element the schema requires, and IBSCBSTot when an item has IBSCBS. */
export function totalOf(sums: DocumentSums): NfeElement {
  const vNF = sums.vProd - sums.vDesc + sums.vFrete + sums.vOutro;
  const total: NfeElement = {
    ICMSTot: {
      vBC: moneyText(sums.vBC),
      vICMS: moneyText(sums.vICMS),
      vICMSDeson: ZERO,
      vFCP: moneyText(sums.vFCP),
      vBCST: ZERO,
      vST: ZERO,
      vFCPST: ZERO,
      vFCPSTRet: ZERO,
      vProd: moneyText(sums.vProd),
      vFrete: moneyText(sums.vFrete),
      vSeg: ZERO,
      vDesc: moneyText(sums.vDesc),
      vII: ZERO,
      vIPI: ZERO,
      vIPIDevol: ZERO,
      vPIS: moneyText(sums.vPIS),
      vCOFINS: moneyText(sums.vCOFINS),
      vOutro: moneyText(sums.vOutro),
      vNF: moneyText(vNF),
    },
  };
  if (sums.hasIbsCbs) {
    total.IBSCBSTot = {
      vBCIBSCBS: moneyText(sums.vBCIBSCBS),
      gIBS: {
        gIBSUF: { vDif: ZERO, vDevTrib: ZERO, vIBSUF: moneyText(sums.vIBSUF) },
        gIBSMun: { vDif: ZERO, vDevTrib: ZERO, vIBSMun: moneyText(sums.vIBSMun) },
        vIBS: moneyText(sums.vIBSUF + sums.vIBSMun),
        vCredPres: ZERO,
        vCredPresCondSus: ZERO,
      },
      gCBS: { vDif: ZERO, vDevTrib: ZERO, vCBS: moneyText(sums.vCBS), vCredPres: ZERO, vCredPresCondSus: ZERO },
    };
  }
  return total;
}
