import type { TaxMatrix, TaxRule } from './tax-rule.js';
import { DefaultTaxEngine, ENGINE_VERSION } from './default-tax-engine.js';
import type { CategoryIndex, FiscalGroupSnapshot, LineTax, TaxEngineResult } from './tax-engine.js';

const engine = new DefaultTaxEngine();
const NOW = new Date('2026-11-21T12:00:00.000Z');

const rule = (ncm: string, overrides: Partial<TaxRule> = {}): TaxRule => ({
  NCM: ncm,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: 18,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
  ...overrides,
});

const MATRIX: TaxMatrix = {
  '21069090': rule('21069090', { CFOP: '5102' }),
  '22021000': rule('22021000', {
    CEST: '0300700',
    CST_ICMS: '60',
    CST_PIS: '04',
    PIS_rate: 1.65,
    CST_COFINS: '04',
    COFINS_rate: 7.6,
    CFOP: '5405',
  }),
  '2203': rule('2203', { CST_ICMS: '000', ICMS_rate: 20, PIS_rate: 1.65, COFINS_rate: 7.6 }),
  '04069000': rule('04069000', { ICMS_rate: 7 }),
  '99999999': rule('99999999', { ICMS_rate: 10, PIS_rate: 0, COFINS_rate: 0 }),
};

function group(overrides: Partial<FiscalGroupSnapshot> = {}): FiscalGroupSnapshot {
  return { id: 'g-1', externalId: 'EXT-1', uf: 'SP', taxRegime: 'LUCRO_PRESUMIDO', taxMatrix: MATRIX, settings: {}, ...overrides };
}

const CATEGORIES: CategoryIndex = {
  byProductId: new Map([
    ['burger', '21069090'],
    ['cola', '22021000'],
    ['beer', '22030000'],
    ['cheese', '04069000'],
    ['ten-percent', '99999999'],
    ['orphan-ncm', '85171231'],
  ]),
  byExternalProductId: new Map([['SKU-COLA', '22021000']]),
};

const line = (productId: unknown, total: unknown, extra: Record<string, unknown> = {}) => ({
  productId,
  name: `item ${String(productId)}`,
  price: { totalPrice: { total } },
  ...extra,
});
const order = (products: unknown[]) => ({
  orderId: 'o-1',
  source: 'platform',
  store: { id: 's-1' },
  order: { products },
  payments: [{ method: 'PIX', amount: 10 }],
});

function run(payload: Record<string, unknown>, groupOverrides: Partial<FiscalGroupSnapshot> = {}): TaxEngineResult {
  return engine.enrich({ group: group(groupOverrides), categories: CATEGORIES, payload, now: NOW });
}
const taxOf = (result: TaxEngineResult, index: number) =>
  (result.payload.order as { products: Array<{ tax: LineTax | null }> }).products[index]!.tax!;

describe('DefaultTaxEngine', () => {
  it('taxes a line: ICMS on the amount, PIS/COFINS on the amount minus ICMS', () => {
    const result = run(order([line('burger', 25.9)]));
    // ICMS   = 25.90 × 18 %   = 4.662     → 4.66
    // base   = 25.90 − 4.66   = 21.24
    // PIS    = 21.24 × 0.65 % = 0.13806   → 0.14
    // COFINS = 21.24 × 3 %    = 0.6372    → 0.64
    // total  = 4.66 + 0.14 + 0.64 = 5.44
    expect(taxOf(result, 0)).toEqual({
      NCM: '21069090',
      CEST: '',
      CFOP: '5102',
      CST_ICMS: '00',
      ICMS_rate: 18,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
      ICMS_base: 25.9,
      ICMS_value: 4.66,
      PIS_base: 21.24,
      PIS_value: 0.14,
      COFINS_base: 21.24,
      COFINS_value: 0.64,
      total_tax: 5.44,
      matchedBy: 'productId',
      matchedKey: '21069090',
      zeroReasons: {},
    });
    expect(result.summary).toEqual({
      fiscalGroupId: 'g-1',
      externalId: 'EXT-1',
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      totals: { base: 25.9, ICMS_value: 4.66, PIS_value: 0.14, COFINS_value: 0.64, total_tax: 5.44 },
      warnings: [],
      engineVersion: ENGINE_VERSION,
      calculatedAt: '2026-11-21T12:00:00.000Z',
    });
    expect(result.payload.taxSummary).toBe(result.summary);
  });

  it('keeps ICMS in the PIS/COFINS base when the group says so', () => {
    const tax = taxOf(run(order([line('burger', 25.9)]), { settings: { includeIcmsInPisCofinsBase: true } }), 0);
    // PIS    = 25.90 × 0.65 % = 0.16835 → 0.17
    // COFINS = 25.90 × 3 %    = 0.777   → 0.78
    // total  = 4.66 + 0.17 + 0.78 = 5.61
    expect(tax).toMatchObject({ PIS_base: 25.9, PIS_value: 0.17, COFINS_base: 25.9, COFINS_value: 0.78, total_tax: 5.61 });
  });

  describe('half-up rounding per tax per line', () => {
    it.each([
      // 1.25 × 10 % = 0.125 → 0.13
      [1.25, 0.13],
      // 0.05 × 10 % = 0.005 → 0.01
      [0.05, 0.01],
      // 0.15 × 10 % = 0.015 → 0.02 (0.015 in binary floating point is 0.01499999…)
      [0.15, 0.02],
      // 10.05 × 10 % = 1.005 → 1.01 (1.005 in binary is 1.00499999…)
      [10.05, 1.01],
      // 0.04 × 10 % = 0.004 → 0.00
      [0.04, 0],
    ])('%p at 10 %% gives %p', (amount, expected) => {
      expect(taxOf(run(order([line('ten-percent', amount)])), 0).ICMS_value).toBe(expected);
    });

    it('accepts amounts as numeric strings', () => {
      // "1.25" × 10 % = 0.125 → 0.13
      expect(taxOf(run(order([line('ten-percent', '1.25')])), 0).ICMS_value).toBe(0.13);
    });

    it('rounds an amount with more than 2 decimals to cents, with a warning', () => {
      const result = run(order([line('ten-percent', 10.005)]));
      // base 10.005 → 10.01; ICMS = 10.01 × 10 % = 1.001 → 1.00
      expect(taxOf(result, 0)).toMatchObject({ ICMS_base: 10.01, ICMS_value: 1 });
      expect(result.warnings).toEqual([expect.objectContaining({ code: 'AMOUNT_ROUNDED', path: 'order.products[0]' })]);
    });
  });

  it('sums 200 rounded lines exactly where binary floating point drifts', () => {
    const products = Array.from({ length: 200 }, () => line('burger', 0.1));
    const result = run(order(products));
    // Per line: ICMS = 0.10 × 18 % = 0.018 → 0.02; base 0.08; PIS = 0.08 × 0.65 % = 0.00052 → 0.00;
    // COFINS = 0.08 × 3 % = 0.0024 → 0.00.
    // Totals: base 200 × 0.10 = 20.00; ICMS 200 × 0.02 = 4.00; total tax 4.00.
    expect(result.summary.totals).toEqual({ base: 20, ICMS_value: 4, PIS_value: 0, COFINS_value: 0, total_tax: 4 });
    let floatBase = 0;
    let floatIcms = 0;
    for (let index = 0; index < 200; index++) {
      floatBase += 0.1;
      floatIcms += 0.02;
    }
    // The naive float sums are off; the engine's are not.
    expect(floatBase).not.toBe(20);
    expect(floatIcms).not.toBe(4);
  });

  it('totals equal the exact sum of the rounded lines', () => {
    const result = run(order([line('burger', 33.33), line('burger', 33.33), line('burger', 33.34)]));
    // 33.33: ICMS 5.9994 → 6.00; base 27.33; PIS 0.177645 → 0.18; COFINS 0.8199 → 0.82
    // 33.34: ICMS 6.0012 → 6.00; base 27.34; PIS 0.17771 → 0.18; COFINS 0.8202 → 0.82
    // Totals: base 100.00; ICMS 18.00; PIS 0.54; COFINS 2.46; total 21.00
    expect(result.summary.totals).toEqual({ base: 100, ICMS_value: 18, PIS_value: 0.54, COFINS_value: 2.46, total_tax: 21 });
  });

  describe('zero CSTs', () => {
    it.each(['30', '40', '41', '50', '60'])('normal regime: ICMS CST %s is zero, base and rate kept', (cst) => {
      const matrix = { '21069090': rule('21069090', { CST_ICMS: cst }) };
      const tax = taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix }), 0);
      // ICMS 0; PIS base = 10.00 − 0 = 10.00; PIS = 0.065 → 0.07; COFINS = 0.30
      expect(tax).toMatchObject({
        ICMS_base: 10,
        ICMS_rate: 18,
        ICMS_value: 0,
        PIS_base: 10,
        PIS_value: 0.07,
        COFINS_value: 0.3,
        total_tax: 0.37,
      });
      expect(tax.zeroReasons).toEqual({ ICMS: `CST_${cst}` });
    });

    it('normal regime: a 3-digit CST_ICMS is origin + CST', () => {
      const zero = { '21069090': rule('21069090', { CST_ICMS: '260' }) };
      expect(taxOf(run(order([line('burger', 10)]), { taxMatrix: zero }), 0).zeroReasons).toEqual({ ICMS: 'CST_60' });
      const charged = { '21069090': rule('21069090', { CST_ICMS: '100' }) };
      // 10.00 × 18 % = 1.80
      expect(taxOf(run(order([line('burger', 10)]), { taxMatrix: charged }), 0).ICMS_value).toBe(1.8);
    });

    it.each(['00', '10', '20', '51', '70', '90'])('normal regime: ICMS CST %s is charged', (cst) => {
      const matrix = { '21069090': rule('21069090', { CST_ICMS: cst }) };
      // 10.00 × 18 % = 1.80
      expect(taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix }), 0).ICMS_value).toBe(1.8);
    });

    it.each(['101', '102', '103', '201', '202', '203', '300', '400', '500'])('Simples Nacional: CSOSN %s gives no ICMS', (csosn) => {
      const matrix = { '21069090': rule('21069090', { CST_ICMS: csosn }) };
      const tax = taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix, taxRegime: 'SIMPLES_NACIONAL' }), 0);
      expect(tax).toMatchObject({ ICMS_base: 10, ICMS_value: 0 });
      expect(tax.zeroReasons).toEqual({ ICMS: `CSOSN_${csosn}`, PIS: 'SIMPLES_NACIONAL', COFINS: 'SIMPLES_NACIONAL' });
    });

    it.each(['SIMPLES_NACIONAL', 'simples_nacional', 'MEI', '1', '4'])('Simples Nacional (%s): CSOSN 900 charges ICMS', (regime) => {
      const matrix = { '21069090': rule('21069090', { CST_ICMS: '900' }) };
      // 10.00 × 18 % = 1.80
      expect(taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix, taxRegime: regime }), 0).ICMS_value).toBe(1.8);
    });

    it.each(['LUCRO_PRESUMIDO', 'LUCRO_REAL', 'REGIME_NORMAL', '3'])(
      '%s is the normal regime: 3-digit "102" is origin 1 + CST 02, charged',
      (regime) => {
        const matrix = { '21069090': rule('21069090', { CST_ICMS: '102' }) };
        expect(taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix, taxRegime: regime }), 0).ICMS_value).toBe(1.8);
      },
    );

    it.each(['04', '05', '06', '07', '08', '09'])('PIS/COFINS CST %s is zero', (cst) => {
      const matrix = { '21069090': rule('21069090', { CST_PIS: cst, CST_COFINS: cst }) };
      const tax = taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix }), 0);
      // ICMS 1.80 charged; PIS/COFINS base 8.20 kept, values 0
      expect(tax).toMatchObject({
        ICMS_value: 1.8,
        PIS_base: 8.2,
        PIS_rate: 0.65,
        PIS_value: 0,
        COFINS_base: 8.2,
        COFINS_value: 0,
        total_tax: 1.8,
      });
      expect(tax.zeroReasons).toEqual({ PIS: `CST_${cst}`, COFINS: `CST_${cst}` });
    });

    it('PIS/COFINS CSTs 01 and 49 are charged', () => {
      const matrix = { '21069090': rule('21069090', { CST_PIS: '49', CST_COFINS: '01' }) };
      // base 10.00 − 1.80 = 8.20; PIS = 0.0533 → 0.05; COFINS = 0.246 → 0.25
      expect(taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix }), 0)).toMatchObject({ PIS_value: 0.05, COFINS_value: 0.25 });
    });
  });

  it('falls back to the longest matrix key that prefixes the NCM', () => {
    const tax = taxOf(run(order([line('beer', 12)])), 0);
    // NCM 22030000 → key 2203 (CST 000: origin 0 + CST 00, charged)
    // ICMS = 12.00 × 20 % = 2.40; base 9.60; PIS = 9.60 × 1.65 % = 0.1584 → 0.16; COFINS = 9.60 × 7.6 % = 0.7296 → 0.73
    expect(tax).toMatchObject({
      NCM: '22030000',
      matchedKey: '2203',
      ICMS_value: 2.4,
      PIS_value: 0.16,
      COFINS_value: 0.73,
      total_tax: 3.29,
    });
  });

  it('prefers the full code, then longer prefixes', () => {
    const matrix = {
      '22': rule('22', { ICMS_rate: 1 }),
      '220300': rule('220300', { ICMS_rate: 2 }),
      '2203': rule('2203', { ICMS_rate: 3 }),
    };
    // key 220300 wins: 100.00 × 2 % = 2.00
    expect(taxOf(run(order([line('beer', 100)]), { taxMatrix: matrix }), 0)).toMatchObject({ matchedKey: '220300', ICMS_value: 2 });
  });

  it('matches by externalProductId when productId does not match', () => {
    const tax = taxOf(run(order([line('SKU-COLA', 6)])), 0);
    // CST 60 → ICMS 0; PIS/COFINS CST 04 → 0
    expect(tax).toMatchObject({
      matchedBy: 'externalProductId',
      NCM: '22021000',
      ICMS_value: 0,
      PIS_value: 0,
      COFINS_value: 0,
      total_tax: 0,
    });
    expect(tax.zeroReasons).toEqual({ ICMS: 'CST_60', PIS: 'CST_04', COFINS: 'CST_04' });
  });

  it('compares numeric product ids as text', () => {
    const categories: CategoryIndex = { byProductId: new Map([['1234', '21069090']]), byExternalProductId: new Map() };
    const result = engine.enrich({ group: group(), categories, payload: order([line(1234, 10)]), now: NOW });
    expect(taxOf(result, 0).matchedKey).toBe('21069090');
  });

  it('taxes selected modifiers on their own amount with their own rule', () => {
    const burger = line('burger', 25.9, {
      modifierGroups: [
        { name: 'Extras', selectedModifiers: [line('cheese', 3.5), line('no-onion', 0)] },
        { name: 'Drink', selectedModifiers: [line('cola', 6)] },
      ],
    });
    const result = run(order([burger]));
    const groups = (result.payload.order as any).products[0].modifierGroups;
    // cheese 3.50 at ICMS 7 %: ICMS 0.245 → 0.25; base 3.25; PIS 0.021125 → 0.02; COFINS 0.0975 → 0.10; total 0.37
    expect(groups[0].selectedModifiers[0].tax).toMatchObject({
      NCM: '04069000',
      ICMS_base: 3.5,
      ICMS_value: 0.25,
      PIS_value: 0.02,
      COFINS_value: 0.1,
      total_tax: 0.37,
    });
    expect(groups[0].selectedModifiers[1].tax).toBeNull();
    expect(groups[1].selectedModifiers[0].tax).toMatchObject({ NCM: '22021000', total_tax: 0 });
    // Totals: burger 25.90 + cheese 3.50 + cola 6.00 = 35.40; ICMS 4.66 + 0.25 + 0 = 4.91;
    // PIS 0.14 + 0.02 + 0 = 0.16; COFINS 0.64 + 0.10 + 0 = 0.74; total 5.81
    expect(result.summary.totals).toEqual({ base: 35.4, ICMS_value: 4.91, PIS_value: 0.16, COFINS_value: 0.74, total_tax: 5.81 });
    expect(result.warnings).toEqual([
      {
        code: 'PRODUCT_CATEGORY_NOT_FOUND',
        path: 'order.products[0].modifierGroups[0].selectedModifiers[1]',
        message: 'No product fiscal category for productId "no-onion"',
      },
    ]);
  });

  describe('lines that cannot be taxed get tax: null and a warning', () => {
    it.each([
      ['an unknown product', line('unknown', 10), 'PRODUCT_CATEGORY_NOT_FOUND'],
      ['no productId', { price: { totalPrice: { total: 10 } } }, 'PRODUCT_CATEGORY_NOT_FOUND'],
      ['an NCM without a rule', line('orphan-ncm', 10), 'NCM_NOT_IN_MATRIX'],
      ['no amount', { productId: 'burger', price: {} }, 'MISSING_AMOUNT'],
      ['a non-numeric amount', line('burger', 'ten'), 'MISSING_AMOUNT'],
      ['a negative amount', line('burger', -1), 'NEGATIVE_AMOUNT'],
      ['an amount past 2^53 cents', line('burger', '100000000000000000000'), 'AMOUNT_OUT_OF_RANGE'],
    ])('%s', (_label, item, code) => {
      const result = run(order([item, line('burger', 25.9)]));
      expect(taxOf(result, 0)).toBeNull();
      expect(result.warnings).toEqual([expect.objectContaining({ code, path: 'order.products[0]' })]);
      // The other line is still taxed and is the only one in the totals.
      expect(result.summary.totals.total_tax).toBe(5.44);
    });

    it('warns when the order has no products array', () => {
      const result = run({ orderId: 'o', store: { id: 's' } });
      expect(result.warnings).toEqual([expect.objectContaining({ code: 'NO_PRODUCTS' })]);
      expect(result.summary.totals).toEqual({ base: 0, ICMS_value: 0, PIS_value: 0, COFINS_value: 0, total_tax: 0 });
    });

    it('leaves a line that is not an object as is, with a warning', () => {
      const result = run(order(['oops', line('burger', 25.9)]));
      expect((result.payload.order as any).products[0]).toBe('oops');
      expect(result.warnings).toEqual([expect.objectContaining({ code: 'INVALID_LINE', path: 'order.products[0]' })]);
    });
  });

  describe('IBS/CBS (informative)', () => {
    const reform = {
      '21069090': rule('21069090', {
        PIS_rate: 1.65,
        COFINS_rate: 7.6,
        CST_IBSCBS: '000',
        cClassTrib: '000001',
        CBS_rate: 0.9,
        IBS_UF_rate: 0.1,
        IBS_Mun_rate: 0,
      }),
    };

    it('computes them on the amount net of ICMS, PIS and COFINS, outside total_tax', () => {
      const result = run(order([line('burger', 100)]), { taxMatrix: reform });
      // ICMS 18.00; base 82.00; PIS = 1.353 → 1.35; COFINS = 6.232 → 6.23; total_tax = 25.58
      // IBSCBS_base = 100 − 18 − 1.35 − 6.23 = 74.42
      // CBS = 74.42 × 0.9 % = 0.66978 → 0.67; IBS_UF = 0.07442 → 0.07; IBS_Mun = 0
      expect(taxOf(result, 0)).toMatchObject({
        total_tax: 25.58,
        CST_IBSCBS: '000',
        cClassTrib: '000001',
        IBSCBS_base: 74.42,
        CBS_rate: 0.9,
        CBS_value: 0.67,
        IBS_UF_rate: 0.1,
        IBS_UF_value: 0.07,
        IBS_Mun_rate: 0,
        IBS_Mun_value: 0,
      });
      expect(result.summary.totals).toEqual({
        base: 100,
        ICMS_value: 18,
        PIS_value: 1.35,
        COFINS_value: 6.23,
        total_tax: 25.58,
        IBSCBS_base: 74.42,
        CBS_value: 0.67,
        IBS_UF_value: 0.07,
        IBS_Mun_value: 0,
      });
    });

    it('skips them in Simples Nacional', () => {
      const result = run(order([line('burger', 100)]), { taxMatrix: reform, taxRegime: 'SIMPLES_NACIONAL' });
      expect(taxOf(result, 0).CBS_value).toBeUndefined();
      expect(result.summary.totals.CBS_value).toBeUndefined();
    });
  });

  describe('reduced ICMS base (pRedBC)', () => {
    const reduced = (CST_ICMS: string, ICMS_base_reduction: number, ICMS_rate = 18) => ({
      '21069090': rule('21069090', { CST_ICMS, ICMS_rate, ICMS_base_reduction }),
    });

    it('CST 20: the value is taken on the rounded, printed base; PIS/COFINS on the amount minus the ICMS charged', () => {
      const result = run(order([line('burger', 100)]), { taxMatrix: reduced('20', 33.33) });
      // ICMS_base = 100.00 × (100 − 33.33) / 100 = 66.67
      // ICMS      = 66.67 × 18 % = 12.0006 → 12.00
      // PIS base  = 100.00 − 12.00 = 88.00; PIS = 88.00 × 0.65 % = 0.572 → 0.57; COFINS = 88.00 × 3 % = 2.64
      // total     = 12.00 + 0.57 + 2.64 = 15.21
      expect(taxOf(result, 0)).toMatchObject({
        CST_ICMS: '20',
        ICMS_rate: 18,
        ICMS_base_reduction: 33.33,
        ICMS_base: 66.67,
        ICMS_value: 12,
        PIS_base: 88,
        PIS_value: 0.57,
        COFINS_base: 88,
        COFINS_value: 2.64,
        total_tax: 15.21,
      });
      // The sum of amounts, not of reduced bases.
      expect(result.summary.totals).toEqual({ base: 100, ICMS_value: 12, PIS_value: 0.57, COFINS_value: 2.64, total_tax: 15.21 });
    });

    it('a tie on the reduced base rounds half-up before the rate applies', () => {
      const tax = taxOf(run(order([line('burger', 150)]), { taxMatrix: reduced('20', 41.67, 7) }), 0);
      // ICMS_base = 150.00 × 58.33 / 100 = 87.495 → 87.50 (tie, half-up)
      // ICMS      = 87.50 × 7 % = 6.125 → 6.13 (tie, half-up)
      // (on the unrounded base: 87.495 × 7 % = 6.12465 → 6.12, which SEFAZ's vBC × pICMS check would not match)
      expect(tax).toMatchObject({ ICMS_base: 87.5, ICMS_value: 6.13 });
    });

    it('a tie on the value of a small reduced line', () => {
      const tax = taxOf(run(order([line('burger', 1.12)]), { taxMatrix: reduced('20', 33.33) }), 0);
      // ICMS_base = 1.12 × 66.67 / 100 = 0.746704 → 0.75
      // ICMS      = 0.75 × 18 % = 0.135 → 0.14 (tie, half-up; on the unrounded base 0.13440672 → 0.13)
      // PIS base  = 1.12 − 0.14 = 0.98; PIS = 0.00637 → 0.01; COFINS = 0.0294 → 0.03
      expect(tax).toMatchObject({
        ICMS_base: 0.75,
        ICMS_value: 0.14,
        PIS_base: 0.98,
        PIS_value: 0.01,
        COFINS_value: 0.03,
        total_tax: 0.18,
      });
    });

    it.each([
      // 50.00 × (100 − 61.11) / 100 = 19.445 → 19.45; 19.45 × 19 % = 3.6955 → 3.70
      ['70', 'LUCRO_REAL', 61.11, 19, 50, 19.45, 3.7],
      // origin 0 + CST 70: the same
      ['070', 'LUCRO_PRESUMIDO', 61.11, 19, 50, 19.45, 3.7],
      // origin 1 + CST 20: 200.00 × 58.33 / 100 = 116.66; × 12 % = 13.9992 → 14.00
      ['120', 'LUCRO_PRESUMIDO', 41.67, 12, 200, 116.66, 14],
      // CSOSN 900 (Simples Nacional, ICMS on the document): 10.00 × 80 / 100 = 8.00; × 17 % = 1.36
      ['900', 'SIMPLES_NACIONAL', 20, 17, 10, 8, 1.36],
    ])('CST_ICMS %s (%s): %s %% off at %s %% on %s gives base %s and ICMS %s', (cst, regime, reduction, rate, amount, base, value) => {
      const tax = taxOf(run(order([line('burger', amount)]), { taxMatrix: reduced(cst, reduction, rate), taxRegime: regime }), 0);
      expect([tax.ICMS_base_reduction, tax.ICMS_base, tax.ICMS_value, tax.zeroReasons.ICMS]).toEqual([reduction, base, value, undefined]);
    });

    it('reductions of 0 % and 100 %', () => {
      // 0 %: the whole amount, 25.90 × 18 % = 4.662 → 4.66; 100 %: base 0.00, ICMS 0.00, PIS/COFINS on the whole 25.90
      expect(taxOf(run(order([line('burger', 25.9)]), { taxMatrix: reduced('20', 0) }), 0)).toMatchObject({
        ICMS_base: 25.9,
        ICMS_value: 4.66,
      });
      expect(taxOf(run(order([line('burger', 25.9)]), { taxMatrix: reduced('20', 100) }), 0)).toMatchObject({
        ICMS_base: 0,
        ICMS_value: 0,
        PIS_base: 25.9,
      });
    });

    it('the reduced base is printed also where the group keeps ICMS in the PIS/COFINS base', () => {
      const tax = taxOf(
        run(order([line('burger', 100)]), { taxMatrix: reduced('20', 33.33), settings: { includeIcmsInPisCofinsBase: true } }),
        0,
      );
      // ICMS_base 66.67, ICMS 12.00; PIS/COFINS base = the amount 100.00: PIS 0.65, COFINS 3.00
      expect(tax).toMatchObject({ ICMS_base: 66.67, ICMS_value: 12, PIS_base: 100, PIS_value: 0.65, COFINS_value: 3 });
    });

    it('rules without a reduction print no ICMS_base_reduction', () => {
      expect(taxOf(run(order([line('burger', 10)])), 0)).not.toHaveProperty('ICMS_base_reduction');
    });
  });

  describe('FCP (Fundo de Combate à Pobreza)', () => {
    const withFcp = (overrides: Partial<TaxRule>) => ({ '21069090': rule('21069090', { FCP_rate: 2, ...overrides }) });

    it('is charged on the ICMS base beside ICMS, added to total_tax, not taken off the PIS/COFINS base', () => {
      const result = run(order([line('burger', 25.9)]), { taxMatrix: withFcp({}) });
      // ICMS = 25.90 × 18 % = 4.662 → 4.66; FCP = 25.90 × 2 % = 0.518 → 0.52
      // PIS base = 25.90 − 4.66 = 21.24 (FCP not subtracted); PIS = 0.13806 → 0.14; COFINS = 0.6372 → 0.64
      // total_tax = 4.66 + 0.14 + 0.64 + 0.52 = 5.96
      expect(taxOf(result, 0)).toMatchObject({
        ICMS_base: 25.9,
        ICMS_value: 4.66,
        FCP_rate: 2,
        FCP_base: 25.9,
        FCP_value: 0.52,
        PIS_base: 21.24,
        PIS_value: 0.14,
        COFINS_value: 0.64,
        total_tax: 5.96,
      });
      expect(result.summary.totals).toEqual({
        base: 25.9,
        ICMS_value: 4.66,
        PIS_value: 0.14,
        COFINS_value: 0.64,
        FCP_value: 0.52,
        total_tax: 5.96,
      });
    });

    it('is taken on the reduced base', () => {
      const tax = taxOf(
        run(order([line('burger', 100)]), { taxMatrix: withFcp({ CST_ICMS: '20', ICMS_base_reduction: 33.33, FCP_rate: 1 }) }),
        0,
      );
      // ICMS_base = 66.67; ICMS = 12.0006 → 12.00; FCP = 66.67 × 1 % = 0.6667 → 0.67
      // PIS base = 100 − 12.00 = 88.00: PIS 0.57, COFINS 2.64; total = 12.00 + 0.57 + 2.64 + 0.67 = 15.88
      expect(tax).toMatchObject({ ICMS_base: 66.67, FCP_base: 66.67, FCP_value: 0.67, total_tax: 15.88 });
    });

    it('the document total is the sum of the rounded lines, not the total rounded once', () => {
      const result = run(order([line('burger', 0.25), line('burger', 0.25), line('burger', 0.25), line('burger', 0.25)]), {
        taxMatrix: withFcp({ ICMS_rate: 0 }),
      });
      // each line: 0.25 × 2 % = 0.005 → 0.01 (tie, half-up); the sum of 4 lines = 0.04
      // rounded once over the document it would be 1.00 × 2 % = 0.02
      expect(result.summary.totals.FCP_value).toBe(0.04);
    });

    it.each([
      ['60', 'LUCRO_REAL', 'CST_60'],
      ['040', 'LUCRO_PRESUMIDO', 'CST_40'],
      ['102', 'SIMPLES_NACIONAL', 'CSOSN_102'],
    ])('is 0 where ICMS is not charged (CST_ICMS %s, %s): base and rate kept, reason %s', (cst, regime, reason) => {
      const result = run(order([line('burger', 10)]), { taxMatrix: withFcp({ CST_ICMS: cst }), taxRegime: regime });
      const tax = taxOf(result, 0);
      // FCP_base = ICMS_base = 10.00; FCP 0 (10.00 × 2 % = 0.20 is not charged)
      expect(tax).toMatchObject({ ICMS_value: 0, FCP_rate: 2, FCP_base: 10, FCP_value: 0 });
      expect([tax.zeroReasons.ICMS, tax.zeroReasons.FCP]).toEqual([reason, reason]);
      expect(result.summary.totals.FCP_value).toBe(0);
    });

    it('CSOSN 900 charges FCP with ICMS in Simples Nacional', () => {
      const tax = taxOf(run(order([line('burger', 10)]), { taxMatrix: withFcp({ CST_ICMS: '900' }), taxRegime: 'SIMPLES_NACIONAL' }), 0);
      // ICMS 10.00 × 18 % = 1.80; FCP 10.00 × 2 % = 0.20; PIS/COFINS 0 (Simples); total 2.00
      expect(tax).toMatchObject({ ICMS_value: 1.8, FCP_value: 0.2, PIS_value: 0, COFINS_value: 0, total_tax: 2 });
    });

    it('rules without FCP_rate print no FCP fields, and the totals no FCP_value', () => {
      const result = run(order([line('burger', 10)]));
      expect(Object.keys(taxOf(result, 0)).filter((key) => key.startsWith('FCP'))).toEqual([]);
      expect(result.summary.totals).not.toHaveProperty('FCP_value');
    });
  });

  describe('Simples Nacional: no PIS/COFINS on the document', () => {
    it.each(['SIMPLES_NACIONAL', 'MEI', '1', '4'])('%s: PIS/COFINS 0 whatever the CST and rate, base and rate kept', (regime) => {
      const matrix = { '21069090': rule('21069090', { CST_ICMS: '102', CST_PIS: '01', PIS_rate: 0.65, CST_COFINS: '01', COFINS_rate: 3 }) };
      const tax = taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix, taxRegime: regime }), 0);
      // ICMS 0 (CSOSN 102); PIS/COFINS base 10.00 − 0 = 10.00, rates kept, values 0 (paid through the DAS)
      expect(tax).toMatchObject({
        PIS_base: 10,
        PIS_rate: 0.65,
        PIS_value: 0,
        COFINS_base: 10,
        COFINS_rate: 3,
        COFINS_value: 0,
        total_tax: 0,
      });
      expect(tax.zeroReasons).toEqual({ ICMS: 'CSOSN_102', PIS: 'SIMPLES_NACIONAL', COFINS: 'SIMPLES_NACIONAL' });
    });

    it('CST 49, 99 or 07 on the rule: still SIMPLES_NACIONAL', () => {
      for (const cst of ['49', '99', '07']) {
        const matrix = { '21069090': rule('21069090', { CST_ICMS: '900', CST_PIS: cst, CST_COFINS: cst }) };
        const result = run(order([line('burger', 10)]), { taxMatrix: matrix, taxRegime: 'SIMPLES_NACIONAL' });
        // ICMS 10.00 × 18 % = 1.80 (CSOSN 900); PIS base 8.20; PIS/COFINS 0
        expect([cst, taxOf(result, 0).PIS_value, taxOf(result, 0).COFINS_value, taxOf(result, 0).zeroReasons.PIS]).toEqual([
          cst,
          0,
          0,
          'SIMPLES_NACIONAL',
        ]);
        expect(result.summary.totals).toMatchObject({ PIS_value: 0, COFINS_value: 0, total_tax: 1.8 });
      }
    });

    it('the normal regime still charges PIS/COFINS with the same rule', () => {
      const matrix = { '21069090': rule('21069090', { CST_ICMS: '102' }) };
      // origin 1 + CST 02: ICMS 1.80; base 8.20; PIS 0.0533 → 0.05; COFINS 0.246 → 0.25
      expect(taxOf(run(order([line('burger', 10)]), { taxMatrix: matrix }), 0)).toMatchObject({ PIS_value: 0.05, COFINS_value: 0.25 });
    });
  });

  it('stamps engine version 1.2.0 (order-level discounts, fees and charges; lines priced per unit)', () => {
    expect(ENGINE_VERSION).toBe('1.2.0');
    expect(run(order([line('burger', 10)])).summary.engineVersion).toBe('1.2.0');
  });

  it('never modifies the payload it is given and shares what it does not change', () => {
    const payload = order([line('burger', 25.9, { modifierGroups: [{ selectedModifiers: [line('cheese', 3.5)] }] })]);
    const before = structuredClone(payload);
    const result = run(payload);
    expect(payload).toEqual(before);
    expect(result.payload).not.toBe(payload);
    expect(result.payload.payments).toBe(payload.payments);
    expect(result.payload.store).toBe(payload.store);
  });
});
