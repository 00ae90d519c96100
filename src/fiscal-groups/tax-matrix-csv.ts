import { CsvError, parse } from 'csv-parse/sync';
import type { ErrorDetail } from '../common/errors/api-error.js';
import type { TaxMatrix } from '../tax-engine/tax-rule.js';
import { normalizeTaxMatrix, TAX_RULE_FIELDS, validateTaxRule } from './tax-rule-validation.js';

/**
 * The tax matrix as a spreadsheet: one row per NCM key, the TaxRule field names as
 * columns. Export writes commas and decimal points; import also reads what a pt-BR
 * spreadsheet saves (semicolons, decimal commas, a BOM, CRLF, quoted cells, empty columns at the
 * end of every row), read by csv-parse.
 */

export const CSV_COLUMNS = TAX_RULE_FIELDS.map((field) => field.name as string);
const RATE_COLUMNS = new Set(TAX_RULE_FIELDS.filter((field) => field.kind === 'rate').map((field) => field.name as string));
// CEST is required on a rule but may be empty: a file without the column means empty CEST on every row.
const REQUIRED_COLUMNS = TAX_RULE_FIELDS.filter((field) => field.required && field.name !== 'CEST').map((field) => field.name as string);

export function taxMatrixToCsv(matrix: TaxMatrix): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const key of Object.keys(matrix).sort()) {
    const rule = matrix[key] as unknown as Record<string, unknown>;
    lines.push(CSV_COLUMNS.map((column) => csvCell(rule[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = String(value);
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * At most this many problems of an imported file are listed. A file with more is checked only up to the next one (and
 * parsed no further once that many rows do not fit the header), so that a bad file of any length costs a short answer.
 */
export const CSV_PROBLEMS_LISTED = 100;

export interface CsvImportResult {
  matrix: TaxMatrix;
  /** In the file's order; at most `CSV_PROBLEMS_LISTED` */
  problems: ErrorDetail[];
  rows: number;
  /** Set when the file has more problems than are listed: the line where checking stopped, of the file's `lines` */
  stoppedAt?: { line: number; lines: number };
}

export interface CsvRow {
  /** The line the record starts on (a quoted cell may hold line breaks, so a record can span lines). */
  line: number;
  cells: string[];
}

/**
 * Splits CSV text into records (RFC 4180: quoted cells with delimiters, doubled quotes and line
 * breaks; CRLF, LF or CR line ends, even mixed; a BOM), keeping the line each record starts on.
 * Lines with only blanks and delimiters are skipped. A file that is not valid CSV (a quote in
 * the middle of an unquoted cell, text after a closing quote, a quote never closed) gives no
 * rows and one problem naming the line. Parsing stops after a row for which `keepGoing` answers false.
 */
export function parseCsvRows(
  text: string,
  delimiter: string,
  keepGoing: (row: CsvRow) => boolean = () => true,
): { rows: CsvRow[]; problem?: ErrorDetail } {
  const rows: CsvRow[] = [];
  // csv-parse counts a CRLF inside a quoted cell as two lines (and a record delimiter CRLF as one): undone here.
  let extraLines = 0;
  let lastLine = 0;
  try {
    parse(text, {
      delimiter,
      record_delimiter: ['\r\n', '\n', '\r'],
      bom: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
      on_record: (cells: string[], { lines }) => {
        extraLines += cells.reduce((sum, cell) => sum + count(cell, /\r\n/g), 0);
        lastLine = lines - extraLines;
        if (cells.some((cell) => cell.trim() !== '')) {
          const row = { line: lastLine - cells.reduce((sum, cell) => sum + count(cell, /\r\n|\r|\n/g), 0), cells };
          rows.push(row);
          if (!keepGoing(row)) throw STOP;
        }
        return null;
      },
    });
  } catch (error) {
    if (error === STOP) return { rows };
    if (!(error instanceof CsvError)) throw error;
    return { rows: [], problem: syntaxProblem(error, lastLine, extraLines) };
  }
  return { rows };
}

/** Thrown out of csv-parse's callback to end the parse (csv-parse has no other way). */
const STOP = Symbol('stop parsing');

function count(text: string, pattern: RegExp): number {
  return text.match(pattern)?.length ?? 0;
}

/**
 * A problem of the file: `line` (1 = the header) and, about one cell, its `column`, typed for programs;
 * `field` says the same in words (`line 3 ICMS_rate`), as it always has.
 */
function csvProblem(line: number, problem: string, column?: string): ErrorDetail {
  return column === undefined ? { field: `line ${line}`, problem, line } : { field: `line ${line} ${column}`, problem, line, column };
}

function syntaxProblem(error: CsvError, lastLine: number, extraLines: number): ErrorDetail {
  const line = Number(error.lines) - extraLines;
  switch (error.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return csvProblem(lastLine + 1, 'a quoted cell starting on this line or after it is never closed');
    case 'INVALID_OPENING_QUOTE':
      return csvProblem(line, 'has a quote inside an unquoted cell (quote the whole cell and double the quote: "a""b")');
    case 'CSV_INVALID_CLOSING_QUOTE':
      return csvProblem(line, 'has text after the closing quote of a cell');
    default:
      return csvProblem(line, `is not valid CSV (${error.code})`);
  }
}

export function csvToTaxMatrix(text: string, onProgress?: (done: number, total: number) => void): CsvImportResult {
  const content = text.replace(/^\uFEFF/, '');
  const firstLine = content.slice(0, content.search(/[\r\n]|$/));
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  let header: Header | undefined;
  let misshapen = 0;
  const { rows, problem } = parseCsvRows(content, delimiter, (row) => {
    if (!header) {
      header = headerOf(row.cells);
      return headerProblems(header).length === 0;
    }
    // A row whose cells do not fit the header is the slow kind to parse (csv-parse builds an error for it): once such
    // rows alone pass the problems listed, the rest of the file cannot change the answer.
    if (shapeProblem(row.cells, header) !== undefined) misshapen += 1;
    return misshapen <= CSV_PROBLEMS_LISTED;
  });
  if (problem) return { matrix: {}, problems: [problem], rows: 0 };
  if (!header) return { matrix: {}, problems: [csvProblem(1, 'the file is empty: expected a header row')], rows: 0 };
  const refused = headerProblems(header);
  if (refused.length) return { matrix: {}, problems: refused, rows: rows.length - 1 };

  const problems: ErrorDetail[] = [];
  let stoppedAt: CsvImportResult['stoppedAt'];
  const matrix: Record<string, Record<string, unknown>> = {};
  const firstLineOf = new Map<string, number>();
  const dataRows = rows.slice(1);
  for (const [index, { line, cells }] of dataRows.entries()) {
    for (const found of rowProblems(line, cells, header, delimiter, matrix, firstLineOf)) {
      if (problems.length === CSV_PROBLEMS_LISTED) {
        stoppedAt = { line, lines: lineCount(content) };
        break;
      }
      problems.push(found);
    }
    if (stoppedAt) break;
    if (onProgress && (index % 1000 === 0 || index === dataRows.length - 1)) onProgress(index + 1, dataRows.length);
  }
  return {
    matrix: problems.length ? {} : normalizeTaxMatrix(matrix),
    problems,
    rows: dataRows.length,
    ...(stoppedAt ? { stoppedAt } : {}),
  };
}

/**
 * How many problems a file has, in words: all of them, or (the error body has no field for it) that there are more
 * than the ones listed and where checking stopped.
 */
export function csvProblemCount(listed: number, stoppedAt: CsvImportResult['stoppedAt']): string {
  if (!stoppedAt) return `${listed} problem(s)`;
  return `more than ${listed} problems, the first ${listed} listed (checking stopped at line ${stoppedAt.line} of ${stoppedAt.lines})`;
}

interface Header {
  /** The columns' names, without the empty cells at the end of the header row */
  names: string[];
  /** The header row's cells, those empty cells included */
  cells: number;
}

function headerOf(cells: string[]): Header {
  const names = cells.map((name) => name.trim());
  // A spreadsheet saves the empty columns at the right of what it holds (pt-BR Excel: `CFOP;;`): they are no columns.
  let width = names.length;
  while (width > 0 && names[width - 1] === '') width -= 1;
  return { names: names.slice(0, width), cells: names.length };
}

function headerProblems({ names }: Header): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const nameless = names.flatMap((name, index) => (name === '' ? [String(index + 1)] : []));
  const unknown = names.filter((name) => name !== '' && !CSV_COLUMNS.includes(name));
  const missing = REQUIRED_COLUMNS.filter((name) => !names.includes(name));
  const duplicated = [...new Set(names.filter((name, index) => name !== '' && names.indexOf(name) !== index))];
  if (nameless.length === 1) problems.push(csvProblem(1, `column ${nameless[0]} has no name`));
  if (nameless.length > 1) problems.push(csvProblem(1, `columns ${listed(nameless)} have no name`));
  if (unknown.length) problems.push(csvProblem(1, `unknown column(s) ${listed(unknown)}; expected ${CSV_COLUMNS.join(', ')}`));
  if (missing.length) problems.push(csvProblem(1, `missing column(s) ${missing.join(', ')}`));
  if (duplicated.length) problems.push(csvProblem(1, `repeated column(s) ${listed(duplicated)}`));
  return problems;
}

/** The first names of a list that may be as long as the header row, and how many others there are. */
function listed(names: string[], shown = 10): string {
  return names.length <= shown ? names.join(', ') : `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/**
 * What is wrong with where a row's cells sit, if anything. Under the header's empty cells at its end a row may have
 * cells, empty ones; past them it may have none.
 */
function shapeProblem(cells: string[], header: Header): string | undefined {
  if (cells.length > header.cells || cells.length < header.names.length) {
    return `has ${cells.length} cells, the header has ${cells.length > header.cells ? header.cells : header.names.length}`;
  }
  for (let index = header.names.length; index < cells.length; index += 1) {
    if (cells[index]!.trim() !== '') return `column ${index + 1} has no name`;
  }
  return undefined;
}

/**
 * An NCM of 7 digits in a CSV is an 8-digit code whose leading zero a spreadsheet dropped (chapters 01 to 09 begin
 * with 0, and a column read as numbers loses it), far more often than a 7-digit prefix key: read as a prefix it would
 * tax no product of the code meant. So a CSV refuses it, with the 8-digit value to write; a 7-digit prefix key is
 * set through the group's JSON. See "The tax matrix as a spreadsheet" in docs/api-decisions.md.
 */
const DROPPED_ZERO_NCM = /^\d{7}$/;

function droppedZeroProblem(key: string): string {
  return `${key} has 7 digits: a spreadsheet dropped its leading zero; write 0${key} (format the column as text so that it keeps it). A 7-digit NCM is not read as a prefix from a CSV`;
}

/** The problems of one data row, in the order of its cells; a valid rule goes into `matrix`. */
function rowProblems(
  line: number,
  cells: string[],
  header: Header,
  delimiter: string,
  matrix: Record<string, Record<string, unknown>>,
  firstLineOf: Map<string, number>,
): ErrorDetail[] {
  const shape = shapeProblem(cells, header);
  if (shape !== undefined) return [csvProblem(line, shape)];
  const rule: Record<string, unknown> = header.names.includes('CEST') ? {} : { CEST: '' };
  header.names.forEach((column, position) => {
    const raw = cells[position]!.trim();
    if (raw === '' && column !== 'CEST') return;
    rule[column] = RATE_COLUMNS.has(column) ? parseRate(raw, delimiter) : raw;
  });
  const key = typeof rule.NCM === 'string' ? rule.NCM : '';
  const problems = validateTaxRule(key, rule, 'rule').map((detail) =>
    csvProblem(line, detail.problem, detail.field === 'rule' ? undefined : detail.field.replace(/^rule\./, '')),
  );
  if (DROPPED_ZERO_NCM.test(key)) problems.unshift(csvProblem(line, droppedZeroProblem(key), 'NCM'));
  if (key && firstLineOf.has(key)) return [...problems, csvProblem(line, `NCM ${key} is already on line ${firstLineOf.get(key)}`)];
  if (key) firstLineOf.set(key, line);
  matrix[key] = rule;
  return problems;
}

/** The file's lines, as an editor counts them (CRLF, LF or CR ends one; a last line without an end counts). */
function lineCount(text: string): number {
  let lines = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 10 || (code === 13 && text.charCodeAt(index + 1) !== 10)) lines += 1;
  }
  const last = text.charCodeAt(text.length - 1);
  return text.length > 0 && last !== 10 && last !== 13 ? lines + 1 : lines;
}

/** Rate cells are decimal text (a decimal comma is accepted in semicolon files); anything else is kept as text to fail validation. */
function parseRate(raw: string, delimiter: string): number | string {
  const text = delimiter === ';' ? raw.replace(',', '.') : raw;
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : raw;
}
