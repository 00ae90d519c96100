import { CSV_PROBLEMS_LISTED, csvProblemCount, csvToTaxMatrix, parseCsvRows, taxMatrixToCsv } from './tax-matrix-csv.js';
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
  '19059090': {
    NCM: '19059090',
    CEST: '',
    CST_ICMS: '020',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    ICMS_base_reduction: 33.33,
    FCP_rate: 2,
  },
};

describe('tax matrix CSV', () => {
  it('round-trips a matrix exactly', () => {
    const csv = taxMatrixToCsv(MATRIX);
    expect(csv.split('\r\n')[0]).toBe(
      'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP,CST_IBSCBS,cClassTrib,IBS_UF_rate,IBS_Mun_rate,CBS_rate,ICMS_base_reduction,FCP_rate,orig',
    );
    const result = csvToTaxMatrix(csv);
    expect(result.problems).toEqual([]);
    expect(result.matrix).toEqual(MATRIX);
    expect(result.rows).toBe(4);
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

  it('gives each problem its line as a number and, when it is about one cell, its column', () => {
    const csv = [
      'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate',
      '21069090,,00,18,01,0.65,01,3',
      '2202,0300700,060,180,04,1.65,04,7.6',
      '21069090,,00,18,01,0.65,01,3',
      '1905,,00,18',
    ].join('\n');
    const located = csvToTaxMatrix(csv).problems.map(({ field, line, column }) => ({ field, line, column }));
    expect(located).toEqual([
      { field: 'line 3 ICMS_rate', line: 3, column: 'ICMS_rate' },
      { field: 'line 4', line: 4, column: undefined },
      { field: 'line 5', line: 5, column: undefined },
    ]);
    // A row-level problem has no column at all, not an empty one.
    expect(csvToTaxMatrix(csv).problems.filter((problem) => 'column' in problem)).toHaveLength(1);
  });

  it('refuses a 7-digit NCM (a spreadsheet dropped its leading zero) with its line and the 8-digit value, never as a prefix key', () => {
    // 04011010 (milk) saved by a spreadsheet that read the column as a number: 4011010.
    const csv = [
      'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate',
      '21069090,,00,18,01,0.65,01,3',
      '4011010,,00,18,01,0.65,01,3',
      '040110,,00,12,01,0.65,01,3',
    ].join('\n');
    const result = csvToTaxMatrix(csv);
    expect(result.matrix).toEqual({});
    expect(result.problems).toEqual([
      {
        field: 'line 3 NCM',
        line: 3,
        column: 'NCM',
        problem: expect.stringContaining('04011010'),
      },
    ]);
    expect(result.problems[0]!.problem).toMatch(/7 digits/);
    expect(result.problems[0]!.problem).toMatch(/spreadsheet dropped its leading zero/);
  });

  it('refuses unknown and missing columns', () => {
    const result = csvToTaxMatrix('NCM,CEST,ICMS,ICMS_rate\n22021000,,18,18\n');
    expect(result.problems).toHaveLength(2);
    expect(result.problems.map(({ field, line }) => ({ field, line }))).toEqual([
      { field: 'line 1', line: 1 },
      { field: 'line 1', line: 1 },
    ]);
    expect(result.problems[0]!.problem).toMatch(/unknown column\(s\) ICMS/);
    expect(result.problems[1]!.problem).toMatch(/missing column\(s\) CST_ICMS, CST_PIS, PIS_rate, CST_COFINS, COFINS_rate/);
  });

  it('takes a file without a CEST column as empty CEST on every row', () => {
    const result = csvToTaxMatrix('NCM,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate\n21069090,00,18,01,0.65,01,3\n');
    expect(result.problems).toEqual([]);
    expect(result.matrix['21069090']).toMatchObject({ NCM: '21069090', CEST: '', ICMS_rate: 18 });
  });

  it('refuses an empty file', () => {
    expect(csvToTaxMatrix('').problems).toEqual([{ field: 'line 1', line: 1, problem: expect.stringMatching(/empty/) }]);
  });

  it('parses quoted cells holding delimiters, quotes and newlines', () => {
    expect(parseCsvRows('a,"b,c","d""e"\n"f\ng",h\n', ',')).toEqual({
      rows: [
        { line: 1, cells: ['a', 'b,c', 'd"e'] },
        { line: 2, cells: ['f\ng', 'h'] },
      ],
    });
  });
});

/** What a real RFC 4180 file (a spreadsheet's export) has and a hand-written splitter may get wrong. */
describe('tax matrix CSV, RFC 4180 files', () => {
  const HEADER = 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP';
  const fields = (result: ReturnType<typeof csvToTaxMatrix>) => result.problems.map((problem) => problem.field);

  it('reads quoted cells holding the delimiter and doubled quotes as one cell each', () => {
    expect(parseCsvRows('NCM;CFOP\r\n"2202;1";"say ""hi"""\r\n', ';').rows).toEqual([
      { line: 1, cells: ['NCM', 'CFOP'] },
      { line: 2, cells: ['2202;1', 'say "hi"'] },
    ]);
    // A comma inside quotes does not shift the columns after it.
    const result = csvToTaxMatrix(`${HEADER}\n"21069090","",00,"18",01,0.65,01,3,"5102"\n22030000,"03,02100",60,18,04,0,04,0,5405\n`);
    expect(fields(result)).toEqual(['line 3 CEST']);
  });

  it('numbers a record by the line it starts on when a quoted cell holds a line break (LF, CRLF or CR)', () => {
    for (const lineBreak of ['\n', '\r\n', '\r']) {
      const csv = [HEADER, `21069090,,00,18,01,0.65,01,3,"51${lineBreak}02"`, '22030000,,60,118,04,0,04,0,5405', ''].join('\r\n');
      // Line 2 holds the start of the bad CFOP cell, line 3 its end; the next record is on line 4.
      expect([lineBreak, fields(csvToTaxMatrix(csv))]).toEqual([lineBreak, ['line 2 CFOP', 'line 4 ICMS_rate']]);
    }
    expect(parseCsvRows('a,"x\r\ny\r\nz"\r\nb,c\r\n', ',').rows).toEqual([
      { line: 1, cells: ['a', 'x\r\ny\r\nz'] },
      { line: 4, cells: ['b', 'c'] },
    ]);
  });

  it('counts blank lines, whitespace-only lines and rows of empty cells in CRLF files, and skips them', () => {
    const csv = `${HEADER}\r\n\r\n   \r\n,,,,,,,,\r\n22030000,,60,118,04,0,04,0,5405\r\n\r\n`;
    const result = csvToTaxMatrix(csv);
    expect(fields(result)).toEqual(['line 5 ICMS_rate']);
    expect(result.rows).toBe(1);
  });

  it('reads a BOM, CRLF, LF and CR line ends, even mixed in one file', () => {
    const rows = ['21069090,,00,18,01,0.65,01,3,5102', '22030000,,60,18,04,0,04,0,5405', '2202,,60,18,04,0,04,0,5405'];
    for (const text of [
      `\uFEFF${HEADER}\r\n${rows.join('\r\n')}\r\n`,
      `\uFEFF${HEADER}\r${rows.join('\r')}`,
      `${HEADER}\r\n${rows[0]}\n${rows[1]}\r${rows[2]}\n`,
    ]) {
      const result = csvToTaxMatrix(text);
      expect(result.problems).toEqual([]);
      expect(Object.keys(result.matrix).sort()).toEqual(['21069090', '2202', '22030000']);
      expect(result.matrix['21069090']).toMatchObject({ NCM: '21069090', CFOP: '5102', PIS_rate: 0.65 });
    }
  });

  it('accepts blanks around a quoted cell', () => {
    const result = csvToTaxMatrix(`${HEADER}\n21069090, "" ,00, "18" ,01,0.65,01,3,5102\n`);
    expect(result.problems).toEqual([]);
    expect(result.matrix['21069090']).toMatchObject({ CEST: '', ICMS_rate: 18 });
  });

  it.each([
    [
      'a quote never closed',
      `${HEADER}\n21069090,,00,18,01,0.65,01,3,5102\n\n"22030000,,60,18,04,0,04,0,5405\n2202,,60`,
      3,
      /never closed/,
    ],
    ['text after a closing quote', `${HEADER}\n21069090,,00,18,01,0.65,01,3,"51"02\n`, 2, /after the closing quote/],
    [
      'a quote inside an unquoted cell',
      `${HEADER}\n21069090,,00,18,01,0.65,01,3,5102\n22030000,,6"0,18,04,0,04,0,5405\n`,
      3,
      /quote inside/,
    ],
    [
      'a bad quote after a quoted CRLF',
      `${HEADER}\r\n21069090,,00,18,01,0.65,01,3,"51\r\n02"\r\n22030000,,"60"x,18,04,0,04,0,5405\r\n`,
      4,
      /after the closing quote/,
    ],
  ])('refuses a file with %s, naming the line', (_label, csv, line, problem) => {
    const result = csvToTaxMatrix(csv);
    expect(result.matrix).toEqual({});
    expect(result.problems).toEqual([{ field: `line ${line}`, line, problem: expect.stringMatching(problem) }]);
  });

  it('reads the reduced base and FCP columns, and names the line of a reduction the CST does not allow', () => {
    const csv = [
      'NCM;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;ICMS_base_reduction;FCP_rate',
      '19059090;;20;18;01;0,65;01;3;41,67;1,5',
      '21069090;;00;18;01;0,65;01;3;33,33;',
      '22021000;;60;18;04;0;04;0;;5',
    ].join('\r\n');
    expect(csvToTaxMatrix(csv).problems).toEqual([
      {
        field: 'line 3 ICMS_base_reduction',
        problem: 'is allowed only with CST_ICMS 20 or 70 (or origin + CST: 020, 170...) or CSOSN 900',
        line: 3,
        column: 'ICMS_base_reduction',
      },
      { field: 'line 4 FCP_rate', problem: 'must be a number from 0 to 4 with at most 4 decimals', line: 4, column: 'FCP_rate' },
    ]);
    const valid = csvToTaxMatrix(csv.split('\r\n').slice(0, 2).join('\r\n'));
    expect(valid.problems).toEqual([]);
    expect(valid.matrix['19059090']).toMatchObject({ ICMS_base_reduction: 41.67, FCP_rate: 1.5 });
  });
});

describe('tax matrix CSV, a file with many problems', () => {
  const HEADER = 'NCM;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;CFOP';

  it('lists the first problems only, and says where checking stopped of how many lines', () => {
    const result = csvToTaxMatrix(`${HEADER}\n${'x\n'.repeat(1000)}`);
    expect(CSV_PROBLEMS_LISTED).toBe(100);
    expect(result.problems).toHaveLength(100);
    expect(result.problems[0]).toEqual({ field: 'line 2', line: 2, problem: 'has 1 cells, the header has 9' });
    expect(result.problems[99]!.line).toBe(101);
    // Line 102 holds the 101st problem: the file is not read past it.
    expect(result.stoppedAt).toEqual({ line: 102, lines: 1001 });
    expect(result.matrix).toEqual({});
    expect(csvProblemCount(result.problems.length, result.stoppedAt)).toBe(
      'more than 100 problems, the first 100 listed (checking stopped at line 102 of 1001)',
    );
  });

  it('stops within a row whose problems pass the bound, and not at all when there are exactly as many as listed', () => {
    // Each row has two bad cells (ICMS_rate and PIS_rate): the 51st row holds the 101st and 102nd problems.
    const rows = Array.from({ length: 60 }, (_, index) => `${10_000_000 + index};;00;x;01;y;01;3;5102`);
    const many = csvToTaxMatrix([HEADER, ...rows].join('\r\n'));
    expect(many.problems).toHaveLength(100);
    expect(many.problems.at(-1)).toMatchObject({ line: 51, column: 'PIS_rate' });
    expect(many.stoppedAt).toEqual({ line: 52, lines: 61 });

    const exactly = csvToTaxMatrix([HEADER, ...rows.slice(0, 50)].join('\r\n'));
    expect(exactly.problems).toHaveLength(100);
    expect(exactly.stoppedAt).toBeUndefined();
    expect(csvProblemCount(exactly.problems.length, exactly.stoppedAt)).toBe('100 problem(s)');
  });

  it('lists the first 10 names of a header with many unknown or repeated columns', () => {
    const unknown = Array.from({ length: 30 }, (_, index) => `extra${index}`);
    const [problem] = csvToTaxMatrix([HEADER, ...unknown, 'NCM'].join(';')).problems;
    expect(problem!.problem).toMatch(/^unknown column\(s\) extra0, extra1, .*, extra9 and 20 more; expected NCM, CEST/);
  });
});

/** Excel (pt-BR) saves the empty columns at the right of the used range: `CFOP;;` and rows ending `;;`. */
describe('tax matrix CSV, empty columns at the end', () => {
  const HEADER = 'NCM;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;CFOP';

  it('reads a header and rows ending with empty cells, and rows without them', () => {
    const csv = ['\uFEFF' + HEADER + ';;', '21069090;;00;18;01;0,65;01;3;5102;;', ';;;;;;;;;;', '22030000;;60;18;04;0;04;0;5405', ''].join(
      '\r\n',
    );
    const result = csvToTaxMatrix(csv);
    expect(result.problems).toEqual([]);
    expect(result.rows).toBe(2);
    expect(result.matrix['21069090']).toEqual({
      NCM: '21069090',
      CEST: '',
      CST_ICMS: '00',
      ICMS_rate: 18,
      CST_PIS: '01',
      PIS_rate: 0.65,
      CST_COFINS: '01',
      COFINS_rate: 3,
      CFOP: '5102',
    });
  });

  it('refuses a value under a column without a name, and more cells than the header has', () => {
    const csv = [HEADER + ';;', '21069090;;00;18;01;0,65;01;3;5102;x;', '22030000;;60;18;04;0;04;0;5405;;;'].join('\r\n');
    expect(csvToTaxMatrix(csv).problems).toEqual([
      { field: 'line 2', line: 2, problem: 'column 10 has no name' },
      { field: 'line 3', line: 3, problem: 'has 12 cells, the header has 11' },
    ]);
  });

  it('refuses a header with an empty cell before its last name', () => {
    const header = 'NCM;;CEST;CST_ICMS;ICMS_rate;CST_PIS;PIS_rate;CST_COFINS;COFINS_rate;;CFOP;;';
    expect(csvToTaxMatrix(`${header}\n21069090;;;00;18;01;0,65;01;3;;5102;;\n`).problems).toEqual([
      { field: 'line 1', line: 1, problem: 'columns 2, 10 have no name' },
    ]);
    expect(csvToTaxMatrix(`;${HEADER}\n;21069090;;00;18;01;0,65;01;3;5102\n`).problems).toEqual([
      { field: 'line 1', line: 1, problem: 'column 1 has no name' },
    ]);
  });
});
