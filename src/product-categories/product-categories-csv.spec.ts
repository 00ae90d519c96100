import {
  categoriesCsv,
  categoryCsvCell,
  decodeCsvFile,
  MAX_IMPORT_ROWS,
  planCategoryImport,
  readCategoryCsv,
  type CategoryFields,
} from './product-categories-csv.js';

const stored = (...categories: Array<CategoryFields & { productId: string }>) => new Map(categories.map((c) => [c.productId, c]));
const COLA = { productId: 'cola', productName: 'Coca-Cola lata 350 ml', ncm: '22021000', externalProductId: 'SKU-1' };
const BEER = { productId: 'beer', productName: 'Cerveja', ncm: '22030000', externalProductId: null };

function plan(csv: string, current = stored(COLA, BEER)) {
  const read = readCategoryCsv(csv);
  expect(read.fileProblems).toEqual([]);
  return planCategoryImport(read, current);
}

describe('product categories as CSV', () => {
  describe('export', () => {
    it('writes a header and one CRLF row per category, an empty cell for no external id', () => {
      expect(categoriesCsv([BEER, COLA])).toBe(
        'productId,productName,ncm,externalProductId\r\nbeer,Cerveja,22030000,\r\ncola,Coca-Cola lata 350 ml,22021000,SKU-1\r\n',
      );
    });

    it('neutralises what a spreadsheet would run as a formula, and quotes delimiters, quotes and surrounding blanks', () => {
      expect(categoryCsvCell('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
      expect(categoryCsvCell('+55')).toBe("'+55");
      expect(categoryCsvCell('-10%')).toBe("'-10%");
      expect(categoryCsvCell('@SUM(A1)')).toBe("'@SUM(A1)");
      expect(categoryCsvCell('\tx')).toBe("'\tx");
      // A text that already starts with the quote a neutralised cell gets is marked too, so that import can tell them apart.
      expect(categoryCsvCell("'=1")).toBe("''=1");
      expect(categoryCsvCell("'plain")).toBe("'plain");
      expect(categoryCsvCell('a;b')).toBe('"a;b"');
      expect(categoryCsvCell(' padded ')).toBe('" padded "');
      expect(categoryCsvCell(null)).toBe('');
    });

    it('round-trips: every exported row, formulas and blanks included, imports as unchanged', () => {
      const odd = [
        { productId: '=id', productName: '=HYPERLINK("http://evil","x")', ncm: '01012100', externalProductId: '@ext' },
        { productId: "'=q", productName: ' padded, "quoted"; name ', ncm: '22021000', externalProductId: "'plain" },
        { productId: 'multi', productName: 'line\r\nbreak', ncm: '22030000', externalProductId: '-1' },
        BEER,
      ];
      const rows = plan(categoriesCsv(odd), stored(...odd));
      expect(rows.map((row) => [row.productId, row.outcome, row.problems])).toEqual(odd.map((c) => [c.productId, 'unchanged', []]));
    });
  });

  describe('import', () => {
    it('says per row what would be created, changed field by field, or left unchanged, with its line', () => {
      const rows = plan(
        [
          'productId,productName,ncm,externalProductId',
          'cola,Coca-Cola lata 350 ml,22021000,SKU-1',
          'beer,Cerveja artesanal,22030000,SKU-2',
          'new,Água,22011000,',
        ].join('\n'),
      );
      expect(rows).toEqual([
        { line: 2, productId: 'cola', outcome: 'unchanged', changes: [], problems: [], warnings: [] },
        {
          line: 3,
          productId: 'beer',
          outcome: 'changed',
          changes: [
            { field: 'productName', before: 'Cerveja', after: 'Cerveja artesanal' },
            { field: 'externalProductId', before: null, after: 'SKU-2' },
          ],
          problems: [],
          warnings: [],
        },
        {
          line: 4,
          productId: 'new',
          outcome: 'created',
          changes: [
            { field: 'productName', before: null, after: 'Água' },
            { field: 'ncm', before: null, after: '22011000' },
          ],
          problems: [],
          warnings: [],
        },
      ]);
    });

    it('leaves external ids alone when the file has no such column, and clears one for an empty cell', () => {
      expect(plan('productId,productName,ncm\ncola,Coca-Cola lata 350 ml,22021000')[0]!.outcome).toBe('unchanged');
      expect(plan('productId,productName,ncm,externalProductId\ncola,Coca-Cola lata 350 ml,22021000,')[0]!.changes).toEqual([
        { field: 'externalProductId', before: 'SKU-1', after: null },
      ]);
    });

    it('reads a pt-BR spreadsheet: semicolons, a BOM, CRLF, columns in any order, empty columns at the end', () => {
      const rows = plan('\uFEFFncm;productId;productName;;\r\n22021000;cola;Coca-Cola lata 350 ml;;\r\n');
      expect(rows).toEqual([expect.objectContaining({ line: 2, productId: 'cola', outcome: 'unchanged' })]);
    });

    it('refuses a 7-digit NCM with its row, naming the 8-digit value a spreadsheet dropped the zero of', () => {
      const [row] = plan('productId,productName,ncm\nbeef,Carne,2013000');
      expect(row).toMatchObject({ line: 2, productId: 'beef', outcome: 'error', changes: [] });
      expect(row!.problems).toEqual([
        {
          code: 'NCM_LEADING_ZERO_DROPPED',
          column: 'ncm',
          suggestion: '02013000',
          problem: expect.stringMatching(/7 digits: a spreadsheet dropped its leading zero; write 02013000/),
        },
      ]);
    });

    it('lists every problem of a row with a code and its column, and the other line of a repeated id', () => {
      const rows = plan(
        [
          'productId,productName,ncm,externalProductId',
          ',,22.02.10.00,',
          `cola,${'x'.repeat(301)},22021000,SKU-1`,
          'cola,Again,22021000,',
          'other,Other,22030000,SKU-1',
          'short,Short,22021000',
        ].join('\n'),
      );
      expect(rows.map((row) => [row.line, row.outcome, row.problems.map((p) => [p.code, p.column, p.otherLine ?? null])])).toEqual([
        [
          2,
          'error',
          [
            ['REQUIRED', 'productId', null],
            ['REQUIRED', 'productName', null],
            ['NCM_NOT_8_DIGITS', 'ncm', null],
          ],
        ],
        [3, 'error', [['TOO_LONG', 'productName', null]]],
        [4, 'error', [['PRODUCT_ID_REPEATED', 'productId', 3]]],
        [5, 'error', [['EXTERNAL_PRODUCT_ID_REPEATED', 'externalProductId', 3]]],
        [6, 'error', [['ROW_SHAPE', null, null]]],
      ]);
    });

    it('refuses an external id another stored product keeps, and allows one the file moves away from it', () => {
      const taken = plan('productId,productName,ncm,externalProductId\nbeer,Cerveja,22030000,SKU-1');
      expect(taken[0]!.problems).toEqual([
        expect.objectContaining({ code: 'EXTERNAL_PRODUCT_ID_IN_USE', column: 'externalProductId', otherProductId: 'cola' }),
      ]);
      const swapped = plan(
        'productId,productName,ncm,externalProductId\nbeer,Cerveja,22030000,SKU-1\ncola,Coca-Cola lata 350 ml,22021000,SKU-9',
      );
      expect(swapped.map((row) => row.outcome)).toEqual(['changed', 'changed']);
    });

    it('reads a cell a spreadsheet would run as a formula as its text', () => {
      const [row] = plan('productId,productName,ncm\n=cmd|calc,=1+1,22021000');
      expect(row).toMatchObject({
        productId: '=cmd|calc',
        outcome: 'created',
        changes: [{ field: 'productName', after: '=1+1' }, { field: 'ncm' }],
      });
    });
  });

  describe('files that cannot be read', () => {
    it('names what is wrong with the file: empty, no header, unknown or missing or repeated columns, bad quoting', () => {
      const problems = (csv: string) => readCategoryCsv(csv).fileProblems.map((p) => [p.line, p.problem]);
      expect(problems('')).toEqual([[1, expect.stringMatching(/empty/)]]);
      expect(problems('\r\n \r\n')).toEqual([[1, expect.stringMatching(/empty/)]]);
      expect(problems('NCM,CST_ICMS\n22021000,60')).toEqual([
        [1, expect.stringMatching(/unknown column\(s\) NCM, CST_ICMS/)],
        [1, expect.stringMatching(/missing column\(s\) productId, productName, ncm/)],
      ]);
      expect(problems('productId,productName,ncm,ncm')).toEqual([[1, expect.stringMatching(/repeated column\(s\) ncm/)]]);
      expect(problems('productId,productName,ncm\n"a,b,22021000')).toEqual([[2, expect.stringMatching(/never closed/)]]);
    });

    it(`refuses more than ${MAX_IMPORT_ROWS} rows, before reading them all`, () => {
      const csv = ['productId,productName,ncm', ...Array.from({ length: MAX_IMPORT_ROWS + 5 }, (_, i) => `p${i},n,22021000`)].join('\n');
      expect(readCategoryCsv(csv).fileProblems).toEqual([
        expect.objectContaining({ line: MAX_IMPORT_ROWS + 2, problem: expect.stringMatching(/more than 20000 rows/) }),
      ]);
    });

    it('decodes UTF-8 (with or without a BOM) and Windows-1252, and refuses UTF-16', () => {
      expect(decodeCsvFile(Buffer.from('\uFEFFproductId,Água', 'utf8'))).toEqual({ text: 'productId,Água', encoding: 'utf-8' });
      expect(decodeCsvFile(Buffer.from([0x43, 0x61, 0x66, 0xe9]))).toEqual({ text: 'Café', encoding: 'windows-1252' });
      expect(decodeCsvFile(Buffer.from('\uFEFFproductId', 'utf16le'))).toEqual({
        problem: expect.objectContaining({ line: 1, problem: expect.stringMatching(/UTF-16/) }),
      });
      expect(decodeCsvFile(Buffer.from('p\u0000r\u0000', 'latin1'))).toEqual({ problem: expect.objectContaining({ line: 1 }) });
    });
  });
});
