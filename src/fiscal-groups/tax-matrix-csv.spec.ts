import { csvToTaxMatrix, parseCsvRows, taxMatrixToCsv } from './tax-matrix-csv.js';
import type { TaxMatrix } from '../tax-engine/tax-rule.js';

const MATRIX: TaxMatrix = {
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
  '2202': {
    NCM: '2202',
    CEST: '0300700',
    CST_ICMS: '060',
    ICMS_rate: 18,
    CST_PIS: '04',
    PIS_rate: 1.65,
    CST_COFINS: '04',
    COFINS_rate: 7.6,
  },
  '22030000': {
    NCM: '22030000',
    CEST: '0302100',
    CST_ICMS: '60',
    ICMS_rate: 20.5,
    CST_PIS: '04',
    PIS_rate: 0,
    CST_COFINS: '04',
    COFINS_rate: 0,
    CFOP: '5405',
    CST_IBSCBS: '000',
    cClassTrib: '000001',
    IBS_UF_rate: 0.1,
    IBS_Mun_rate: 0,
    CBS_rate: 0.9,
  },
};

describe('tax matrix CSV', () => {
  it('round-trips a matrix exactly', () => {
    const csv = taxMatrixToCsv(MATRIX);
    expect(csv.split('\r\n')[0]).toBe(
      'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP,CST_IBSCBS,cClassTrib,IBS_UF_rate,IBS_Mun_rate,CBS_rate',
    );
    const result = csvToTaxMatrix(csv);
    expect(result.problems).toEqual([]);
    expect(result.matrix).toEqual(MATRIX);
    expect(result.rows).toBe(3);
  });

  it('reads a pt-BR spreadsheet export: BOM, semicolons, decimal commas, quotes, blank lines, reordered columns', () => {
    const csv =
      '\uFEFFCST_ICMS;NCM;CEST;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate\r\n"00";21069090;;18;01;0,65;01;3\r\n\r\n60;"22030000";0302100;"20,5";04;0;04;0\r\n';
    const result = csvToTaxMatrix(csv);
    expect(result.problems).toEqual([]);
    expect(result.matrix['21069090']).toEqual({
      NCM: '21069090',
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: 18,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
    });
    expect(result.matrix['22030000']!.ICMS_rate).toBe(20.5);
  });

  it('names every bad row by its line number and returns no matrix', () => {
    const csv = [
      'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate',
      '21069090,,00,18,01,0.65,01,3',
      '2202,0300700,060,180,04,1.65,04,7.6',
      '2203,,60,18,4,0,04,0',
      '21069090,,00,18,01,0.65,01,3',
      '1905,,00,18',
    ].join('\n');
    const result = csvToTaxMatrix(csv);
    expect(result.matrix).toEqual({});
    expect(result.problems.map((problem) => problem.field)).toEqual(['line 3 ICMS_rate', 'line 4 CST_PIS', 'line 5', 'line 6']);
    expect(result.problems[2]!.problem).toMatch(/already on line 2/);
  });

  it('refuses unknown and missing columns', () => {
    const result = csvToTaxMatrix('NCM,CEST,ICMS,ICMS_rate\n22021000,,18,18\n');
    expect(result.problems).toHaveLength(2);
    expect(result.problems[0]!.problem).toMatch(/unknown column\(s\) ICMS/);
    expect(result.problems[1]!.problem).toMatch(/missing column\(s\) CST_ICMS, CST_PIS, PIS_rate, CST_COFINS, COFINS_rate/);
  });

  it('takes a file without a CEST column as empty CEST on every row', () => {
    const result = csvToTaxMatrix('NCM,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\n21069090,00,18,01,0.65,01,3\n');
    expect(result.problems).toEqual([]);
    expect(result.matrix['21069090']).toMatchObject({ NCM: '21069090', CEST: '', ICMS_rate: 18 });
  });

  it('refuses an empty file', () => {
    expect(csvToTaxMatrix('').problems[0]!.problem).toMatch(/empty/);
  });

  it('parses quoted cells holding delimiters, quotes and newlines', () => {
    expect(parseCsvRows('a,"b,c","d""e"\n"f\ng",h\n', ',')).toEqual([
      { line: 1, cells: ['a', 'b,c', 'd"e'] },
      { line: 2, cells: ['f\ng', 'h'] },
    ]);
  });
});
