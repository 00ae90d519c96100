import { describe, expect, it } from 'vitest';
import { taxRowsOf, totalsRowsOf, zeroReasonOf, type LineTax, type TaxTotals } from './tax-breakdown-model';

describe('zeroReasonOf', () => {
  it('reads Simples Nacional, a CST or CSOSN code, and keeps any other text', () => {
    expect(zeroReasonOf('SIMPLES_NACIONAL')).toEqual({ kind: 'simples' });
    expect(zeroReasonOf('CST_40')).toEqual({ kind: 'code', type: 'CST', code: '40' });
    expect(zeroReasonOf('CSOSN_102')).toEqual({ kind: 'code', type: 'CSOSN', code: '102' });
    expect(zeroReasonOf('SOMETHING_NEW')).toEqual({ kind: 'other', text: 'SOMETHING_NEW' });
    expect(zeroReasonOf(undefined)).toBeUndefined();
  });
});

describe('taxRowsOf', () => {
  const base = {
    CST_ICMS: '40',
    ICMS_rate: 0,
    ICMS_base: 10,
    ICMS_value: 0,
    CST_PIS: '01',
    PIS_rate: 1.65,
    PIS_base: 10,
    PIS_value: 0.17,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
    COFINS_base: 10,
    COFINS_value: 0.76,
    zeroReasons: { ICMS: 'CST_40' },
  } as unknown as LineTax;

  it('has ICMS, PIS and COFINS; FCP only with an FCP rate; IBS/CBS only with reform fields', () => {
    expect(taxRowsOf(base).map((row) => row.key)).toEqual(['ICMS', 'PIS', 'COFINS']);
    const full = { ...base, FCP_rate: 2, FCP_base: 10, FCP_value: 0.2, CBS_rate: 0.9, IBSCBS_base: 10, CST_IBSCBS: '000' } as LineTax;
    const rows = taxRowsOf(full);
    expect(rows.map((row) => row.key)).toEqual(['ICMS', 'FCP', 'PIS', 'COFINS', 'IBS_UF', 'IBS_Mun', 'CBS']);
    expect(rows.filter((row) => row.informative).map((row) => row.key)).toEqual(['IBS_UF', 'IBS_Mun', 'CBS']);
    expect(rows.find((row) => row.key === 'CBS')).toMatchObject({ cst: '000', base: 10, rate: 0.9 });
  });

  it("keeps the engine's figures and the reason a tax is zero", () => {
    const [icms, pis] = taxRowsOf(base);
    expect(icms).toMatchObject({ cst: '40', base: 10, rate: 0, value: 0, zeroReason: { kind: 'code', type: 'CST', code: '40' } });
    expect(pis).toMatchObject({ cst: '01', rate: 1.65, value: 0.17, zeroReason: undefined });
  });
});

describe('totalsRowsOf', () => {
  it('lists the charged totals, FCP when present, and the reform totals apart', () => {
    const totals = { base: 54, ICMS_value: 9, PIS_value: 0.68, COFINS_value: 3.12, total_tax: 12.8, CBS_value: 0.49 } as TaxTotals;
    const { charged, reform } = totalsRowsOf(totals);
    expect(charged.map(([key]) => key)).toEqual(['base', 'ICMS', 'PIS', 'COFINS']);
    expect(reform).toEqual([['CBS', 0.49]]);
    expect(totalsRowsOf({ ...totals, FCP_value: 1 }).charged.map(([key]) => key)).toEqual(['base', 'ICMS', 'FCP', 'PIS', 'COFINS']);
  });
});
