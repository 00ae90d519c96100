import type { ErrorDetail } from '../common/errors/api-error.js';
import { normalizeTaxMatrix, TAX_RULE_FIELDS, validateTaxRule, type TaxMatrix } from '../tax-engine/tax-rule.js';

/**
 * The tax matrix as a spreadsheet: one row per NCM key, the TaxRule field names as
 * columns. Export writes commas and decimal points; import also reads what a pt-BR
 * spreadsheet saves (semicolons, decimal commas, a BOM, CRLF, quoted cells).
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

/** Splits CSV text into rows of cells (RFC 4180 quoting), keeping each row's line number. */
export function parseCsvRows(text: string, delimiter: string): Array<{ line: number; cells: string[] }> {
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index++;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line++;
        cell += char;
      }
      continue;
    }
    if (char === '"' && cell.length === 0) quoted = true;
    else if (char === delimiter) {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      cells.push(cell);
      if (cells.some((value) => value.trim() !== '')) rows.push({ line: rowLine, cells });
      cells = [];
      cell = '';
      line++;
      rowLine = line;
    } else cell += char;
  }
  cells.push(cell);
  if (cells.some((value) => value.trim() !== '')) rows.push({ line: rowLine, cells });
  return rows;
}

export function csvToTaxMatrix(text: string, onProgress?: (done: number, total: number) => void): CsvImportResult {
  const content = text.replace(/^\uFEFF/, '');
  const firstLine = content.slice(0, content.search(/\r?\n|$/));
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  const rows = parseCsvRows(content, delimiter);
  const problems: ErrorDetail[] = [];
  if (rows.length === 0)
    return { matrix: {}, problems: [{ field: 'line 1', problem: 'the file is empty: expected a header row' }], rows: 0 };

  const header = rows[0]!.cells.map((name) => name.trim());
  const unknown = header.filter((name) => !CSV_COLUMNS.includes(name));
  const missing = REQUIRED_COLUMNS.filter((name) => !header.includes(name));
  const duplicated = header.filter((name, index) => header.indexOf(name) !== index);
  if (unknown.length)
    problems.push({ field: 'line 1', problem: `unknown column(s) ${unknown.join(', ')}; expected ${CSV_COLUMNS.join(', ')}` });
  if (missing.length) problems.push({ field: 'line 1', problem: `missing column(s) ${missing.join(', ')}` });
  if (duplicated.length) problems.push({ field: 'line 1', problem: `repeated column(s) ${[...new Set(duplicated)].join(', ')}` });
  if (problems.length) return { matrix: {}, problems, rows: rows.length - 1 };

  const matrix: Record<string, Record<string, unknown>> = {};
  const firstLineOf = new Map<string, number>();
  const dataRows = rows.slice(1);
  dataRows.forEach(({ line, cells }, index) => {
    const where = `line ${line}`;
    if (cells.length !== header.length) {
      problems.push({ field: where, problem: `has ${cells.length} cells, the header has ${header.length}` });
      return;
    }
    const rule: Record<string, unknown> = header.includes('CEST') ? {} : { CEST: '' };
    header.forEach((column, position) => {
      const raw = cells[position]!.trim();
      if (raw === '' && column !== 'CEST') return;
      rule[column] = RATE_COLUMNS.has(column) ? parseRate(raw, delimiter) : raw;
    });
    const key = typeof rule.NCM === 'string' ? rule.NCM : '';
    for (const detail of validateTaxRule(key, rule, 'rule')) {
      problems.push({
        field: `${where}${detail.field === 'rule' ? '' : ` ${detail.field.replace(/^rule\./, '')}`}`,
        problem: detail.problem,
      });
    }
    if (key && firstLineOf.has(key)) {
      problems.push({ field: where, problem: `NCM ${key} is already on line ${firstLineOf.get(key)}` });
      return;
    }
    if (key) firstLineOf.set(key, line);
    matrix[key] = rule;
    if (onProgress && (index % 1000 === 0 || index === dataRows.length - 1)) onProgress(index + 1, dataRows.length);
  });
  return { matrix: problems.length ? {} : normalizeTaxMatrix(matrix), problems, rows: dataRows.length };
}

/** Rate cells are decimal text (a decimal comma is accepted in semicolon files); anything else is kept as text to fail validation. */
function parseRate(raw: string, delimiter: string): number | string {
  const text = delimiter === ';' ? raw.replace(',', '.') : raw;
  return /^\d+(\.\d+)?$/.test(text) ? Number(text) : raw;
}
