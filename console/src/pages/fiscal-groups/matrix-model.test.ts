import { describe, expect, it } from 'vitest';
import {
  decimalSeparatorOf,
  duplicateNcms,
  isUf,
  matrixFromRows,
  rowsFromMatrix,
  sortDetails,
  UF_CODES,
  unsavedCells,
  type MatrixRow,
  type TaxRule,
} from './matrix-model';

const row = (ncm: string, cells: MatrixRow['cells'] = {}, uid = ncm): MatrixRow => ({ uid, ncm, cells });

describe('isUf', () => {
  it('accepts the 27 UFs in capitals only', () => {
    // 26 states and the Federal District.
    expect(UF_CODES).toHaveLength(27);
    expect(new Set(UF_CODES).size).toBe(27);
    expect(isUf('SP')).toBe(true);
    expect(isUf('DF')).toBe(true);
    expect(isUf('sp')).toBe(false);
    expect(isUf('XX')).toBe(false);
    expect(isUf('')).toBe(false);
    expect(isUf(null)).toBe(false);
    expect(isUf(undefined)).toBe(false);
  });
});

describe('rowsFromMatrix', () => {
  it('gives one row per NCM key, sorted, with every present field as text and absent ones left out', () => {
    const matrix = {
      '22030000': {
        NCM: '22030000',
        CEST: '0302100',
        CST_ICMS: '00',
        ICMS_rate: 18,
        CST_PIS: '01',
        PIS_rate: 1.65,
        CST_COFINS: '01',
        COFINS_rate: 7.6,
      },
      '2106': {
        NCM: '2106',
        CEST: '',
        CST_ICMS: '20',
        ICMS_rate: 12,
        ICMS_base_reduction: 33.33,
        CST_PIS: '06',
        PIS_rate: 0,
        CST_COFINS: '06',
        COFINS_rate: 0,
        CFOP: null,
      },
    } as unknown as Record<string, TaxRule>;

    const rows = rowsFromMatrix(matrix);

    // String order: "2106" < "22030000" (the second character, '1' < '2').
    expect(rows.map((r) => r.ncm)).toEqual(['2106', '22030000']);
    expect(rows[0]!.cells).toEqual({
      CEST: '',
      CST_ICMS: '20',
      ICMS_rate: '12',
      ICMS_base_reduction: '33.33',
      CST_PIS: '06',
      PIS_rate: '0',
      CST_COFINS: '06',
      COFINS_rate: '0',
    });
    expect(rows[1]!.cells).toEqual({
      CEST: '0302100',
      CST_ICMS: '00',
      ICMS_rate: '18',
      CST_PIS: '01',
      PIS_rate: '1.65',
      CST_COFINS: '01',
      COFINS_rate: '7.6',
    });
    expect(rows[0]!.uid).not.toBe(rows[1]!.uid);
  });

  it('gives no row for a group without a matrix', () => {
    expect(rowsFromMatrix(undefined)).toEqual([]);
    expect(rowsFromMatrix({})).toEqual([]);
  });
});

describe('matrixFromRows', () => {
  it('sends rates as numbers, reading a decimal comma, and codes as typed (leading zeros kept)', () => {
    const matrix = matrixFromRows([
      row(' 22030000 ', {
        CEST: '0302100',
        CST_ICMS: '00',
        ICMS_rate: '18',
        ICMS_base_reduction: ' 33,33 ',
        CST_PIS: '01',
        PIS_rate: '1,65',
        CST_COFINS: '01',
        COFINS_rate: '7.6',
        CFOP: '5102',
      }),
    ]);

    expect(matrix).toEqual({
      '22030000': {
        NCM: '22030000',
        CEST: '0302100',
        CST_ICMS: '00',
        ICMS_rate: 18,
        ICMS_base_reduction: 33.33,
        CST_PIS: '01',
        PIS_rate: 1.65,
        CST_COFINS: '01',
        COFINS_rate: 7.6,
        CFOP: '5102',
      },
    });
  });

  it('sends a rate that is not a number as typed, for the API to name the problem on that cell', () => {
    const rule = matrixFromRows([row('2106', { ICMS_rate: 'abc', PIS_rate: '1.2.3', COFINS_rate: '-1' })])['2106'] as unknown as Record<
      string,
      unknown
    >;

    expect(rule.ICMS_rate).toBe('abc');
    expect(rule.PIS_rate).toBe('1.2.3');
    expect(rule.COFINS_rate).toBe(-1);
  });

  it('sends an empty CEST as an empty string and leaves out every other empty cell', () => {
    const rule = matrixFromRows([row('2106', { CEST: '  ', CST_ICMS: '', FCP_rate: ' ', CFOP: '' })])['2106'];

    expect(rule).toEqual({ NCM: '2106', CEST: '' });
  });

  it('gives back the matrix it was read from', () => {
    const matrix = {
      '2106': {
        NCM: '2106',
        CEST: '',
        CST_ICMS: '20',
        ICMS_rate: 12,
        ICMS_base_reduction: 33.33,
        FCP_rate: 2,
        CST_PIS: '06',
        PIS_rate: 0,
        CST_COFINS: '06',
        COFINS_rate: 0,
        CFOP: '5405',
        CST_IBSCBS: '000',
        cClassTrib: '000001',
        IBS_UF_rate: 0.1,
        IBS_Mun_rate: 0,
        CBS_rate: 0.9,
      },
    } as unknown as Record<string, TaxRule>;

    expect(matrixFromRows(rowsFromMatrix(matrix))).toEqual(matrix);
  });
});

describe('duplicateNcms', () => {
  it('names each NCM typed in more than one row once, comparing trimmed codes', () => {
    const rows = [row('2106', {}, 'a'), row('2106 ', {}, 'b'), row(' 2106', {}, 'c'), row('2203', {}, 'd'), row('0402', {}, 'e')];

    expect(duplicateNcms(rows)).toEqual(['2106']);
    expect(duplicateNcms([row('2106', {}, 'a'), row('2203', {}, 'b')])).toEqual([]);
  });
});

describe('sortDetails', () => {
  it("puts each problem of the API's 400 on the field or matrix cell it names, and the rest apart", () => {
    const sorted = sortDetails([
      { field: 'name', problem: 'name should not be empty' },
      { field: 'stores[0].store_id', problem: 'store_id must be a string' },
      { field: 'settings.includeIcmsInPisCofinsBase', problem: 'must be a boolean' },
      { field: 'taxMatrix.22030000.ICMS_rate', problem: 'must not be greater than 100' },
      { field: 'taxMatrix.22030000.ICMS_rate', problem: 'must be a number' },
      { field: 'taxMatrix.21x', problem: 'NCM must be 2 to 8 digits' },
      { field: 'names', problem: 'property names should not exist' },
      { problem: 'body is not an object' },
    ]);

    expect(sorted.byField).toEqual({
      name: ['name should not be empty'],
      'stores.0.store_id': ['store_id must be a string'],
      'settings.includeIcmsInPisCofinsBase': ['must be a boolean'],
    });
    expect(sorted.byCell).toEqual({
      '22030000': { ICMS_rate: ['must not be greater than 100', 'must be a number'] },
      '21x': { NCM: ['NCM must be 2 to 8 digits'] },
    });
    // "names" only starts with a group field's name: not one of them.
    expect(sorted.rest).toEqual(['names: property names should not exist', 'body is not an object']);
  });

  it('sorts nothing when the API gave no details', () => {
    expect(sortDetails(undefined)).toEqual({ byField: {}, byCell: {}, rest: [] });
  });
});

describe('rates in the reader’s language, and the cells not saved', () => {
  const saved = {
    '22021000': {
      NCM: '22021000',
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: 18.5,
      CST_PIS: '01',
      PIS_rate: 1.65,
      CST_COFINS: '01',
      COFINS_rate: 7.6,
    },
  } as unknown as Record<string, TaxRule>;

  it('writes a rate with the language’s decimal separator, and reads either back as the same number', () => {
    expect(decimalSeparatorOf('pt-BR')).toBe(',');
    expect(decimalSeparatorOf('en')).toBe('.');
    const [row] = rowsFromMatrix(saved, ',');
    expect(row!.cells).toMatchObject({ ICMS_rate: '18,5', PIS_rate: '1,65', CST_ICMS: '00' });
    expect(matrixFromRows([row!])).toEqual(saved);
  });

  it('marks only the cells whose value differs from the saved matrix, and every cell of a row not saved', () => {
    const [row] = rowsFromMatrix(saved, ',');
    expect(unsavedCells([row!], saved).size).toBe(0);
    const edited = { ...row!, cells: { ...row!.cells, ICMS_rate: '18.50', PIS_rate: '2', CFOP: '5102' } };
    expect([...(unsavedCells([edited], saved).get(row!.uid) ?? [])].sort()).toEqual(['CFOP', 'PIS_rate']);
    const added: MatrixRow = { uid: 'new', ncm: '1905', cells: { ICMS_rate: '7' } };
    expect([...(unsavedCells([added], saved).get('new') ?? [])].sort()).toEqual(['ICMS_rate', 'NCM']);
  });
});
