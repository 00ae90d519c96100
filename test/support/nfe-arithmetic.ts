import { Decimal } from 'decimal.js';
import type { NfeElement, NfeItems } from '../../src/fiscal-documents/nfe/nfe-layout.js';

/**
 * SEFAZ's arithmetic on an NF-e's items and totals, each check named by the rejection it causes, so that a test
 * shows which rule an answer would break. Totals must be the exact sums of the items; an item's value may differ
 * from base × rate by 0.01 at most.
 */
const TOLERANCE = new Decimal('0.01');
const dec = (text: string | undefined) => new Decimal(text ?? '0');

/** Every group below `element`, depth first, with its name (ICMS00, PISAliq, gIBSUF...). */
function groups(element: NfeElement, name = ''): Array<[string, NfeElement]> {
  const found: Array<[string, NfeElement]> = [[name, element]];
  for (const [key, value] of Object.entries(element)) if (typeof value === 'object') found.push(...groups(value, key));
  return found;
}

function sumOf(items: NfeItems, pick: (det: NfeItems['det'][number]) => string | undefined): Decimal {
  return items.det.reduce((sum, det) => sum.plus(dec(pick(det))), new Decimal(0));
}

/** The value of `field` in the item's group that has it (undefined when none has). */
function fieldOf(det: NfeItems['det'][number], field: string, under?: string): string | undefined {
  for (const [name, group] of groups(det.imposto)) {
    if (under !== undefined && !name.startsWith(under)) continue;
    const value = group[field];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/** The broken rules, as `"<code>: <what>"`; empty when SEFAZ's arithmetic holds. */
export function sefazArithmeticProblems(items: NfeItems): string[] {
  const problems: string[] = [];
  const tot = items.total.ICMSTot as NfeElement;
  const equalSum = (code: string, total: string, sum: Decimal) => {
    if (!dec(tot[total] as string).equals(sum))
      problems.push(`${code}: total ${total} ${tot[total] as string} is not the sum of the items, ${sum.toFixed(2)}`);
  };
  equalSum(
    '564',
    'vProd',
    sumOf(items, (det) => det.prod.vProd as string),
  );
  equalSum(
    '537',
    'vDesc',
    sumOf(items, (det) => det.prod.vDesc as string | undefined),
  );
  equalSum(
    '535',
    'vFrete',
    sumOf(items, (det) => det.prod.vFrete as string | undefined),
  );
  equalSum(
    '536',
    'vSeg',
    sumOf(items, (det) => det.prod.vSeg as string | undefined),
  );
  equalSum(
    '604',
    'vOutro',
    sumOf(items, (det) => det.prod.vOutro as string | undefined),
  );
  equalSum(
    '531',
    'vBC',
    sumOf(items, (det) => fieldOf(det, 'vBC', 'ICMS')),
  );
  equalSum(
    '532',
    'vICMS',
    sumOf(items, (det) => fieldOf(det, 'vICMS', 'ICMS')),
  );
  equalSum(
    'FCP total (vFCP, the sum of the items)',
    'vFCP',
    sumOf(items, (det) => fieldOf(det, 'vFCP', 'ICMS')),
  );
  equalSum(
    '602',
    'vPIS',
    sumOf(items, (det) => fieldOf(det, 'vPIS', 'PIS')),
  );
  equalSum(
    '603',
    'vCOFINS',
    sumOf(items, (det) => fieldOf(det, 'vCOFINS', 'COFINS')),
  );
  const vNF = dec(tot.vProd as string)
    .minus(dec(tot.vDesc as string))
    .minus(dec(tot.vICMSDeson as string))
    .plus(dec(tot.vST as string))
    .plus(dec(tot.vFCPST as string))
    .plus(dec(tot.vFrete as string))
    .plus(dec(tot.vSeg as string))
    .plus(dec(tot.vOutro as string))
    .plus(dec(tot.vII as string))
    .plus(dec(tot.vIPI as string))
    .plus(dec(tot.vIPIDevol as string));
  if (!dec(tot.vNF as string).equals(vNF))
    problems.push(`610: vNF ${tot.vNF as string} is not vProd − vDesc + vFrete + vSeg + vOutro (+ the zero terms), ${vNF.toFixed(2)}`);

  const reform = items.total.IBSCBSTot as NfeElement | undefined;
  if (reform) {
    const gIBS = reform.gIBS as NfeElement;
    const reformSum = (field: string, under: string) => sumOf(items, (det) => fieldOf(det, field, under));
    const check = (what: string, value: string, sum: Decimal) => {
      if (!dec(value).equals(sum)) problems.push(`IBSCBSTot: ${what} ${value} is not the sum of the items, ${sum.toFixed(2)}`);
    };
    check('vBCIBSCBS', reform.vBCIBSCBS as string, reformSum('vBC', 'gIBSCBS'));
    check('vIBSUF', (gIBS.gIBSUF as NfeElement).vIBSUF as string, reformSum('vIBSUF', 'gIBSUF'));
    check('vIBSMun', (gIBS.gIBSMun as NfeElement).vIBSMun as string, reformSum('vIBSMun', 'gIBSMun'));
    check('vIBS', gIBS.vIBS as string, reformSum('vIBS', 'gIBSCBS'));
    check('vCBS', (reform.gCBS as NfeElement).vCBS as string, reformSum('vCBS', 'gCBS'));
  } else if (items.det.some((det) => det.imposto.IBSCBS !== undefined)) {
    problems.push('IBSCBSTot: an item has IBSCBS but the total has no IBSCBSTot');
  }

  for (const det of items.det) {
    const item = `item ${det['@nItem']}`;
    const prod = det.prod;
    const product = dec(prod.qCom as string).times(dec(prod.vUnCom as string));
    if (
      product
        .minus(dec(prod.vProd as string))
        .abs()
        .greaterThan(TOLERANCE)
    )
      problems.push(`629: ${item} vProd ${prod.vProd as string} is not qCom × vUnCom, ${product.toFixed(10)}`);
    const checkRate = (code: string, group: NfeElement, base: string, rate: string, value: string) => {
      if (group[value] === undefined) return;
      const expected = dec(group[base] as string)
        .times(dec(group[rate] as string))
        .div(100);
      if (
        expected
          .minus(dec(group[value] as string))
          .abs()
          .greaterThan(TOLERANCE)
      )
        problems.push(`${code}: ${item} ${value} ${group[value] as string} is not ${base} × ${rate}, ${expected.toFixed(4)}`);
    };
    for (const [name, group] of groups(det.imposto)) {
      if (/^ICMS(00|20|51|90|SN900)$/.test(name)) checkRate('528', group, 'vBC', 'pICMS', 'vICMS');
      if (/^PIS(Aliq|Outr)$/.test(name)) checkRate('PIS (vPIS = vBC × pPIS ± 0.01)', group, 'vBC', 'pPIS', 'vPIS');
      if (/^COFINS(Aliq|Outr)$/.test(name)) checkRate('COFINS (vCOFINS = vBC × pCOFINS ± 0.01)', group, 'vBC', 'pCOFINS', 'vCOFINS');
      if (name === 'gIBSCBS') {
        const base = group.vBC as string;
        const uf = group.gIBSUF as NfeElement;
        const mun = group.gIBSMun as NfeElement;
        const cbs = group.gCBS as NfeElement;
        checkRate('gIBSUF (vIBSUF = vBC × pIBSUF ± 0.01)', { vBC: base, ...uf }, 'vBC', 'pIBSUF', 'vIBSUF');
        checkRate('gIBSMun (vIBSMun = vBC × pIBSMun ± 0.01)', { vBC: base, ...mun }, 'vBC', 'pIBSMun', 'vIBSMun');
        checkRate('gCBS (vCBS = vBC × pCBS ± 0.01)', { vBC: base, ...cbs }, 'vBC', 'pCBS', 'vCBS');
        const vIBS = dec(uf.vIBSUF as string).plus(dec(mun.vIBSMun as string));
        if (!vIBS.equals(dec(group.vIBS as string))) problems.push(`gIBSCBS: ${item} vIBS is not vIBSUF + vIBSMun`);
      }
    }
  }
  return problems;
}
