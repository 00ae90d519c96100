import { DefaultTaxEngine } from '../../src/tax-engine/default-tax-engine.js';
import type { FiscalGroupSnapshot, TaxRule } from '../../src/tax-engine/tax-engine.js';
import { nfeItemsOf } from '../../src/fiscal-documents/nfe/nfe-items.js';
import { nfeItemsXml } from '../../src/fiscal-documents/nfe/nfe-xml.js';
import type { NfeElement, NfeItems, NfeOptions } from '../../src/fiscal-documents/nfe/nfe-layout.js';
import { sefazArithmeticProblems } from '../support/nfe-arithmetic.js';
import { schemaErrorsOf } from '../support/nfe-schema.js';

/**
 * Every case of the invoice's items, taxed by the engine and printed by the NF-e module, copied into a fixed infNFe
 * and validated against PL_010_V1.30/nfe_v4.00.xsd (xmllint-wasm), with SEFAZ's arithmetic on items and totals.
 */
const engine = new DefaultTaxEngine();
const NFCE: NfeOptions = { model: '65', freightAs: 'vFrete' };

function rule(ncm: string, overrides: Partial<TaxRule> = {}): TaxRule {
  return {
    NCM: ncm,
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
    ...overrides,
  };
}

function group(taxMatrix: Record<string, TaxRule>, taxRegime: string | null = 'LUCRO_PRESUMIDO'): FiscalGroupSnapshot {
  return { id: 'g-1', externalId: null, uf: 'SP', taxRegime, taxMatrix, settings: {} };
}

/** An order of one line per product id (`products`: id → [NCM, amount]) under `g`. */
function itemsOf(
  g: FiscalGroupSnapshot,
  lines: Array<Record<string, unknown>>,
  ncmOf: Record<string, string>,
  extra: Record<string, unknown> = {},
  options = NFCE,
): NfeItems {
  const categories = { byProductId: new Map(Object.entries(ncmOf)), byExternalProductId: new Map<string, string>() };
  const { payload } = engine.enrich({
    group: g,
    categories,
    payload: { orderId: 'ORD-1', store: { id: 's-1' }, order: { products: lines, ...extra } },
  });
  const outcome = nfeItemsOf(payload, options);
  if (!outcome.items) throw new Error(JSON.stringify(outcome.problems));
  return outcome.items;
}

const line = (productId: string, total: number, fields: Record<string, unknown> = {}) => ({
  productId,
  name: productId,
  quantity: 1,
  price: { totalPrice: { total } },
  ...fields,
});

/** The item's ICMS group (its only child). */
const icmsOf = (items: NfeItems, index = 0) => items.det[index]!.imposto.ICMS as NfeElement;

async function expectValid(items: NfeItems): Promise<void> {
  expect(await schemaErrorsOf(nfeItemsXml(items), items.model, items.crt)).toEqual([]);
  expect(sefazArithmeticProblems(items)).toEqual([]);
}

describe('the NF-e items validate against PL_010_V1.30/nfe_v4.00.xsd and pass SEFAZ arithmetic', () => {
  it('the fixture is strict: a broken item fails the schema and the arithmetic names its rejection', async () => {
    const items = itemsOf(group({ '2106': rule('2106') }), [line('burger', 10)], { burger: '21069090' });
    const broken: NfeItems = JSON.parse(JSON.stringify(items));
    (broken.det[0]!.prod as Record<string, string>).CFOP = '9999';
    expect((await schemaErrorsOf(nfeItemsXml(broken), '65', '3')).join()).toContain('CFOP');
    (broken.total.ICMSTot as Record<string, string>).vProd = '10.01';
    expect(sefazArithmeticProblems(broken)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^564:/), expect.stringMatching(/^610:/)]),
    );
  });

  it('CST 00', async () => {
    const items = itemsOf(group({ '2106': rule('2106') }), [line('burger', 51.8, { quantity: 2 })], { burger: '21069090' });
    // vICMS = 51.80 × 18 % = 9.324 → 9.32
    expect(icmsOf(items)).toEqual({ ICMS00: { orig: '0', CST: '00', modBC: '3', vBC: '51.80', pICMS: '18.0000', vICMS: '9.32' } });
    await expectValid(items);
  });

  it('CST 20 with FCP', async () => {
    const items = itemsOf(
      group({ '2106': rule('2106', { CST_ICMS: '20', ICMS_base_reduction: 33.33, FCP_rate: 2 }) }),
      [line('burger', 100)],
      { burger: '21069090' },
    );
    // vBC = 100.00 × (100 − 33.33) % = 66.67; vICMS = 66.67 × 18 % = 12.0006 → 12.00; vFCP = 66.67 × 2 % = 1.3334 → 1.33
    expect(icmsOf(items)).toEqual({
      ICMS20: {
        orig: '0',
        CST: '20',
        modBC: '3',
        pRedBC: '33.3300',
        vBC: '66.67',
        pICMS: '18.0000',
        vICMS: '12.00',
        vBCFCP: '66.67',
        pFCP: '2.0000',
        vFCP: '1.33',
      },
    });
    expect(items.total.ICMSTot).toMatchObject({ vFCP: '1.33', vICMS: '12.00', vBC: '66.67' });
    await expectValid(items);
  });

  it.each(['40', '41', '50'])('CST %s prints ICMS40 with no figures', async (cst) => {
    const items = itemsOf(group({ '2106': rule('2106', { CST_ICMS: cst }) }), [line('burger', 10)], { burger: '21069090' });
    expect(icmsOf(items)).toEqual({ ICMS40: { orig: '0', CST: cst } });
    // ICMS 0 (not charged): PIS/COFINS base 10.00; vPIS = 0.065 → 0.07; vCOFINS = 0.30
    expect(items.total.ICMSTot).toMatchObject({ vBC: '0.00', vICMS: '0.00', vPIS: '0.07', vCOFINS: '0.30' });
    await expectValid(items);
  });

  it('CST 51 and 90 print their own ICMS; CST 60 none; orig from a 3-digit CST or from the rule', async () => {
    const items = itemsOf(
      group({
        '2106': rule('2106', { CST_ICMS: '151', ICMS_rate: 12 }),
        '2202': rule('2202', { CST_ICMS: '60' }),
        '1905': rule('1905', { CST_ICMS: '90', ICMS_rate: 7, orig: '2' }),
      }),
      [line('burger', 10), line('cola', 6), line('bread', 3)],
      { burger: '21069090', cola: '22021000', bread: '19059090' },
    );
    // 10.00 × 12 % = 1.20; 3.00 × 7 % = 0.21
    expect(icmsOf(items, 0)).toEqual({ ICMS51: { orig: '1', CST: '51', modBC: '3', vBC: '10.00', pICMS: '12.0000', vICMS: '1.20' } });
    expect(icmsOf(items, 1)).toEqual({ ICMS60: { orig: '0', CST: '60' } });
    expect(icmsOf(items, 2)).toEqual({ ICMS90: { orig: '2', CST: '90', modBC: '3', vBC: '3.00', pICMS: '7.0000', vICMS: '0.21' } });
    await expectValid(items);
  });

  it.each([
    ['SIMPLES_NACIONAL', '1'],
    ['MEI', '4'],
  ])('CSOSN 102, 500 and 900 in a %s group (CRT %s); PIS/COFINS printed as zeros', async (regime, crt) => {
    const items = itemsOf(
      group(
        {
          '2106': rule('2106', { CST_ICMS: '102', CST_PIS: '49', CST_COFINS: '49' }),
          '2202': rule('2202', { CST_ICMS: '500', CST_PIS: '04', CST_COFINS: '04' }),
          '1905': rule('1905', { CST_ICMS: '900', ICMS_rate: 20, ICMS_base_reduction: 20 }),
        },
        regime,
      ),
      [line('burger', 10), line('cola', 6), line('bread', 50)],
      { burger: '21069090', cola: '22021000', bread: '19059090' },
    );
    expect(items.crt).toBe(crt);
    expect(icmsOf(items, 0)).toEqual({ ICMSSN102: { orig: '0', CSOSN: '102' } });
    expect(icmsOf(items, 1)).toEqual({ ICMSSN500: { orig: '0', CSOSN: '500' } });
    // vBC = 50.00 × 80 % = 40.00; vICMS = 40.00 × 20 % = 8.00
    expect(icmsOf(items, 2)).toEqual({
      ICMSSN900: { orig: '0', CSOSN: '900', modBC: '3', vBC: '40.00', pRedBC: '20.0000', pICMS: '20.0000', vICMS: '8.00' },
    });
    expect(items.det[0]!.imposto.PIS).toEqual({ PISOutr: { CST: '49', vBC: '0.00', pPIS: '0.0000', vPIS: '0.00' } });
    expect(items.det[1]!.imposto.COFINS).toEqual({ COFINSNT: { CST: '04' } });
    expect(items.det[2]!.imposto.PIS).toEqual({ PISAliq: { CST: '01', vBC: '0.00', pPIS: '0.0000', vPIS: '0.00' } });
    await expectValid(items);
  });

  it('PIS/COFINS Aliq, NT and Outr in the normal regime', async () => {
    const items = itemsOf(
      group({
        '2106': rule('2106'),
        '2202': rule('2202', { CST_PIS: '06', CST_COFINS: '06' }),
        '1905': rule('1905', { CST_PIS: '99', CST_COFINS: '99', PIS_rate: 1.65, COFINS_rate: 7.6 }),
      }),
      [line('burger', 10), line('cola', 6), line('bread', 100)],
      { burger: '21069090', cola: '22021000', bread: '19059090' },
    );
    // burger: base 10.00 − 1.80 = 8.20; vPIS = 0.0533 → 0.05; vCOFINS = 0.246 → 0.25
    expect(items.det[0]!.imposto.PIS).toEqual({ PISAliq: { CST: '01', vBC: '8.20', pPIS: '0.6500', vPIS: '0.05' } });
    expect(items.det[1]!.imposto.PIS).toEqual({ PISNT: { CST: '06' } });
    // bread: base 100.00 − 18.00 = 82.00; vPIS = 82 × 1.65 % = 1.353 → 1.35; vCOFINS = 82 × 7.6 % = 6.232 → 6.23
    expect(items.det[2]!.imposto.COFINS).toEqual({ COFINSOutr: { CST: '99', vBC: '82.00', pCOFINS: '7.6000', vCOFINS: '6.23' } });
    expect(items.total.ICMSTot).toMatchObject({ vPIS: '1.40', vCOFINS: '6.48' });
    await expectValid(items);
  });

  it('a rule with IBS/CBS prints IBSCBS with gIBSCBS, and the total IBSCBSTot', async () => {
    const items = itemsOf(
      group({ '2106': rule('2106', { CST_IBSCBS: '000', cClassTrib: '000001', CBS_rate: 0.9, IBS_UF_rate: 0.1, IBS_Mun_rate: 0.05 }) }),
      [line('burger', 100)],
      { burger: '21069090' },
    );
    // ICMS 18.00; PIS base 82.00: vPIS 0.533 → 0.53, vCOFINS 2.46; IBS/CBS base = 100 − 18.00 − 0.53 − 2.46 = 79.01
    // vIBSUF = 79.01 × 0.1 % = 0.07901 → 0.08; vIBSMun = 79.01 × 0.05 % = 0.0395 → 0.04; vCBS = 79.01 × 0.9 % = 0.71109 → 0.71
    expect(items.det[0]!.imposto.IBSCBS).toEqual({
      CST: '000',
      cClassTrib: '000001',
      gIBSCBS: {
        vBC: '79.01',
        gIBSUF: { pIBSUF: '0.1000', vIBSUF: '0.08' },
        gIBSMun: { pIBSMun: '0.0500', vIBSMun: '0.04' },
        vIBS: '0.12',
        gCBS: { pCBS: '0.9000', vCBS: '0.71' },
      },
    });
    expect(items.total.IBSCBSTot).toMatchObject({ vBCIBSCBS: '79.01', gIBS: { vIBS: '0.12' }, gCBS: { vCBS: '0.71' } });
    await expectValid(items);
  });

  it('a coupon, a delivery fee and a service charge above 10 %: vDesc, vFrete, vOutro; freightAs vOutro', async () => {
    const lines = [line('burger', 60), line('cola', 40)];
    const extra = {
      discounts: [{ amount: 10, sponsor: 'MERCHANT', target: 'ITEMS' }],
      deliveryFee: { amount: 5, deliveredBy: 'MERCHANT' },
      serviceCharge: { amount: 12 },
    };
    const g = group({ '2106': rule('2106'), '2202': rule('2202') });
    const ncm = { burger: '21069090', cola: '22021000' };
    const items = itemsOf(g, lines, ncm, extra);
    // Split by amount 60:40 → coupon 6.00 + 4.00; freight 3.00 + 2.00; service charge (12 % > 10 %) 7.20 + 4.80
    expect(items.det[0]!.prod).toMatchObject({ vProd: '60.00', vFrete: '3.00', vDesc: '6.00', vOutro: '7.20' });
    expect(items.det[1]!.prod).toMatchObject({ vProd: '40.00', vFrete: '2.00', vDesc: '4.00', vOutro: '4.80' });
    // vBC = 60 − 6 + 3 + 7.20 = 64.20 and 40 − 4 + 2 + 4.80 = 42.80; vNF = 100 − 10 + 5 + 12 = 107.00
    expect(items.total.ICMSTot).toMatchObject({
      vProd: '100.00',
      vDesc: '10.00',
      vFrete: '5.00',
      vOutro: '12.00',
      vBC: '107.00',
      vNF: '107.00',
    });
    await expectValid(items);
    const asOther = itemsOf(g, lines, ncm, extra, { model: '65', freightAs: 'vOutro' });
    expect(asOther.det[0]!.prod).toMatchObject({ vDesc: '6.00', vOutro: '10.20' });
    expect(asOther.det[0]!.prod.vFrete).toBeUndefined();
    expect(asOther.total.ICMSTot).toMatchObject({ vFrete: '0.00', vOutro: '17.00', vBC: '107.00', vNF: '107.00' });
    await expectValid(asOther);
  });

  it('990 lines (the most an NF-e holds) validate; 2,000 lines are not issuable (TOO_MANY_ITEMS)', async () => {
    const g = group({ '2106': rule('2106') });
    const many = (count: number) => Array.from({ length: count }, (_, index) => line('burger', 1 + (index % 7) / 100, { quantity: 3 }));
    const items = itemsOf(g, many(990), { burger: '21069090' }, {}, { model: '55', freightAs: 'vFrete' });
    expect(items.det).toHaveLength(990);
    expect(items.det[989]!['@nItem']).toBe('990');
    await expectValid(items);
    const categories = { byProductId: new Map([['burger', '21069090']]), byExternalProductId: new Map<string, string>() };
    const { payload } = engine.enrich({ group: g, categories, payload: { orderId: 'ORD-2', order: { products: many(2000) } } });
    expect(nfeItemsOf(payload, NFCE)).toEqual({
      problems: [{ field: 'order.products', code: 'TOO_MANY_ITEMS', problem: expect.stringContaining('990') }],
    });
  });

  it('names with &, <, accents and emoji: escaped, accents kept, emoji dropped, cut to 120 characters', async () => {
    const items = itemsOf(
      group({ '2106': rule('2106') }),
      [
        line('p1', 10, { name: 'Pão & Queijo <grande> 🍔🍟' }),
        line('p2', 10, { name: '🍕🍕' }),
        line('p3', 10, { name: `  Açaí\tda   casa ${'x'.repeat(200)}` }),
      ],
      { p1: '21069090', p2: '21069090', p3: '21069090' },
    );
    expect(items.det.map((det) => det.prod.xProd)).toEqual(['Pão & Queijo <grande>', 'p2', `Açaí da casa ${'x'.repeat(107)}`]);
    const xml = nfeItemsXml(items);
    expect(xml).toContain('<xProd>Pão &amp; Queijo &lt;grande&gt;</xProd>');
    await expectValid(items);
  });
});
