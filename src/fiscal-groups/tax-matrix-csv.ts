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

export interface CsvImportResult {
  matrix: TaxMatrix;
  problems: ErrorDetail[];
  rows: number;
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
 * rows and one problem naming the line.
 */
export function parseCsvRows(text: string, delimiter: string): { rows: CsvRow[]; problem?: ErrorDetail } {
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
          rows.push({ line: lastLine - cells.reduce((sum, cell) => sum + count(cell, /\r\n|\r|\n/g), 0), cells });
        }
        return null;
      },
    });
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    return { rows: [], problem: syntaxProblem(error, lastLine, extraLines) };
  }
  return { rows };
}

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
  const { rows, problem } = parseCsvRows(content, delimiter);
  if (problem) return { matrix: {}, problems: [problem], rows: 0 };
  if (rows.length === 0) return { matrix: {}, problems: [csvProblem(1, 'the file is empty: expected a header row')], rows: 0 };
  const header = headerOf(rows[0]!.cells);
  const refused = headerProblems(header);
  if (refused.length) return { matrix: {}, problems: refused, rows: rows.length - 1 };

  const problems: ErrorDetail[] = [];
  const matrix: Record<string, Record<string, unknown>> = {};
  const firstLineOf = new Map<string, number>();
  const dataRows = rows.slice(1);
  dataRows.forEach(({ line, cells }, index) => {
    problems.push(...rowProblems(line, cells, header, delimiter, matrix, firstLineOf));
    if (onProgress && (index % 1000 === 0 || index === dataRows.length - 1)) onProgress(index + 1, dataRows.length);
  });
  return { matrix: problems.length ? {} : normalizeTaxMatrix(matrix), problems, rows: dataRows.length };
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
  if (nameless.length > 1) problems.push(csvProblem(1, `columns ${nameless.join(', ')} have no name`));
  if (unknown.length) problems.push(csvProblem(1, `unknown column(s) ${unknown.join(', ')}; expected ${CSV_COLUMNS.join(', ')}`));
  if (missing.length) problems.push(csvProblem(1, `missing column(s) ${missing.join(', ')}`));
  if (duplicated.length) problems.push(csvProblem(1, `repeated column(s) ${duplicated.join(', ')}`));
  return problems;
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
  if (key && firstLineOf.has(key)) return [...problems, csvProblem(line, `NCM ${key} is already on line ${firstLineOf.get(key)}`)];
  if (key) firstLineOf.set(key, line);
  matrix[key] = rule;
  return problems;
}

/** Rate cells are decimal text (a decimal comma is accepted in semicolon files); anything else is kept as text to fail validation. */
function parseRate(raw: string, delimiter: string): number | string {
  const text = delimiter === ';' ? raw.replace(',', '.') : raw;
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : raw;
}
