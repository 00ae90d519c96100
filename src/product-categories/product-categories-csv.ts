import type { ErrorDetail } from '../common/errors/api-error.js';
import { parseCsvRows } from '../fiscal-groups/tax-matrix-csv.js';

/**
 * The product fiscal categories as a spreadsheet: export, and an import that says per row what it would do (created,
 * changed field by field, unchanged, or the row's problems) before it does it. See "Product categories as a
 * spreadsheet" in docs/api-decisions.md.
 */

export const CATEGORY_CSV_COLUMNS = ['productId', 'productName', 'ncm', 'externalProductId'] as const;
const REQUIRED_COLUMNS = ['productId', 'productName', 'ncm'] as const;

/** A file is for a catalogue, not a data dump: past this many rows it is refused before it is read further. */
export const MAX_IMPORT_ROWS = 20_000;

/** The fields a file sets for a product. */
export interface CategoryFields {
  productName: string;
  ncm: string;
  externalProductId: string | null;
}

export const CATEGORY_IMPORT_PROBLEM_CODES = [
  'ROW_SHAPE',
  'REQUIRED',
  'TOO_LONG',
  'NCM_NOT_8_DIGITS',
  'NCM_LEADING_ZERO_DROPPED',
  'PRODUCT_ID_REPEATED',
  'EXTERNAL_PRODUCT_ID_REPEATED',
  'EXTERNAL_PRODUCT_ID_IN_USE',
] as const;
export type CategoryImportProblemCode = (typeof CATEGORY_IMPORT_PROBLEM_CODES)[number];

export const CATEGORY_IMPORT_WARNING_CODES = ['NCM_UNKNOWN', 'NCM_EXPIRED', 'NCM_NOT_YET_VALID'] as const;
export type CategoryImportWarningCode = (typeof CATEGORY_IMPORT_WARNING_CODES)[number];

export interface CategoryImportProblem<Code extends string = CategoryImportProblemCode> {
  code: Code;
  /** The column the problem is about; null for the row as a whole */
  column: (typeof CATEGORY_CSV_COLUMNS)[number] | null;
  /** The same in English words */
  problem: string;
  /** The line of the row this one repeats */
  otherLine?: number;
  /** The product whose category keeps this external id */
  otherProductId?: string;
  /** The value meant (an NCM with its leading zero back) */
  suggestion?: string;
}

export type CategoryImportOutcome = 'created' | 'changed' | 'unchanged' | 'error';

export interface CategoryFieldChange {
  field: keyof CategoryFields;
  before: string | null;
  after: string | null;
}

export interface CategoryImportRow {
  /** The file's line the row starts on (1 is the header) */
  line: number;
  /** Null when the row has none */
  productId: string | null;
  outcome: CategoryImportOutcome;
  /** What the row changes; empty unless created or changed */
  changes: CategoryFieldChange[];
  problems: CategoryImportProblem[];
  /** What does not stop the row (an NCM the table lacks) */
  warnings: CategoryImportProblem<CategoryImportWarningCode>[];
}

// ----- Export ---------------------------------------------------------------------------------------------------------

/** A cell a spreadsheet would run as a formula, or one that already starts with the quote that neutralises one. */
const FORMULA_LIKE = /^'*[=+\-@\t\r]/;

/**
 * One CSV cell. A text a spreadsheet would run as a formula gets a leading `'` (names come from whoever typed them, and
 * the file is opened by someone else), as the audit export does; a text of quotes before such a start gets one more,
 * so that the import, which takes one away, reads back exactly what was exported. Quoted when it holds a delimiter, a
 * quote or a line break, or begins or ends with blanks (the import trims unquoted cells).
 */
export function categoryCsvCell(value: string | null): string {
  if (value === null) return '';
  const text = FORMULA_LIKE.test(value) ? `'${value}` : value;
  return /[",;\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function categoriesCsv(categories: ReadonlyArray<CategoryFields & { productId: string }>): string {
  const lines = [CATEGORY_CSV_COLUMNS.join(',')];
  for (const category of categories) lines.push(CATEGORY_CSV_COLUMNS.map((column) => categoryCsvCell(category[column])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

// ----- Reading a file ---------------------------------------------------------------------------------------------------

function fileProblem(line: number, problem: string): ErrorDetail {
  return { field: `line ${line}`, problem, line };
}

/**
 * The file's text. UTF-8 (a BOM or not); a file that is not UTF-8 is read as Windows-1252, what a pt-BR Excel saves as
 * "CSV (separado por vírgulas)". UTF-16 (Excel's "Unicode text") is refused with what to do, rather than read as garbage.
 */
export function decodeCsvFile(body: Buffer): { text: string; encoding: 'utf-8' | 'windows-1252' } | { problem: ErrorDetail } {
  const utf16 = (body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff) || body.includes(0);
  if (utf16) return { problem: fileProblem(1, 'the file is UTF-16 or binary, not CSV text: save it as "CSV UTF-8"') };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(body).replace(/^\uFEFF/, ''), encoding: 'utf-8' };
  } catch {
    return { text: new TextDecoder('windows-1252').decode(body), encoding: 'windows-1252' };
  }
}

interface Header {
  names: string[];
  /** The header row's cells, empty ones at its end included */
  cells: number;
}

export interface ReadCategoryCsv {
  rows: Array<{ line: number; productId: string | null; fields?: CategoryFields; problems: CategoryImportProblem[] }>;
  /** Problems of the file as a whole: when any, `rows` is empty */
  fileProblems: ErrorDetail[];
  /** Without the column, the import keeps each product's external id */
  hasExternalColumn: boolean;
}

export function readCategoryCsv(input: string): ReadCategoryCsv {
  const text = input.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r\n|\r|\n/, 50).find((line) => line.trim() !== '') ?? '';
  const delimiter = firstLine.split(';').length > firstLine.split(',').length ? ';' : ',';
  let header: Header | undefined;
  let tooMany: number | undefined;
  let dataRows = 0;
  const parsed = parseCsvRows(text, delimiter, (row) => {
    if (!header) {
      header = headerOf(row.cells);
      return headerProblems(header).length === 0;
    }
    // Reading stops at the first row past the limit: the rest cannot change the answer.
    dataRows += 1;
    return dataRows <= MAX_IMPORT_ROWS;
  });
  if (dataRows > MAX_IMPORT_ROWS) tooMany = parsed.rows[parsed.rows.length - 1]!.line;
  const none = { rows: [], hasExternalColumn: false };
  if (parsed.problem) return { ...none, fileProblems: [parsed.problem] };
  if (!header) return { ...none, fileProblems: [fileProblem(1, 'the file is empty: expected a header row')] };
  const refused = headerProblems(header);
  if (refused.length) return { ...none, fileProblems: refused };
  if (tooMany !== undefined) {
    return { ...none, fileProblems: [fileProblem(tooMany, `the file has more than ${MAX_IMPORT_ROWS} rows: split it`)] };
  }

  const seenProducts = new Map<string, number>();
  const seenExternal = new Map<string, number>();
  const rows = parsed.rows.slice(1).map(({ line, cells }) => {
    const shape = shapeProblem(cells, header!);
    if (shape) {
      const productId = cells[header!.names.indexOf('productId')]?.trim() || null;
      return { line, productId, problems: [{ code: 'ROW_SHAPE' as const, column: null, problem: shape }] };
    }
    const cell = (column: string) => {
      const index = header!.names.indexOf(column);
      return index < 0 ? undefined : withoutNeutralisingQuote(cells[index]!);
    };
    const problems: CategoryImportProblem[] = [];
    const productId = required(cell('productId')!, 'productId', 100, problems);
    const productName = required(cell('productName')!, 'productName', 300, problems);
    const ncm = ncmOf(cell('ncm')!, problems);
    const external = cell('externalProductId');
    const externalProductId = external === undefined || external === '' ? null : external;
    if (externalProductId !== null && externalProductId.length > 100) problems.push(tooLong('externalProductId', 100));
    if (productId !== null) {
      const first = seenProducts.get(productId);
      if (first !== undefined) {
        problems.push({
          code: 'PRODUCT_ID_REPEATED',
          column: 'productId',
          otherLine: first,
          problem: `productId ${productId} is already on line ${first}`,
        });
      } else seenProducts.set(productId, line);
    }
    if (externalProductId !== null) {
      const first = seenExternal.get(externalProductId);
      if (first !== undefined) {
        problems.push({
          code: 'EXTERNAL_PRODUCT_ID_REPEATED',
          column: 'externalProductId',
          otherLine: first,
          problem: `externalProductId ${externalProductId} is already on line ${first}`,
        });
      } else seenExternal.set(externalProductId, line);
    }
    const fields = problems.length === 0 ? { productName: productName!, ncm: ncm!, externalProductId } : undefined;
    return { line, productId, problems, ...(fields ? { fields } : {}) };
  });
  return { rows, fileProblems: [], hasExternalColumn: header.names.includes('externalProductId') };
}

/** Takes away the `'` the export puts before a cell a spreadsheet would run as a formula (see categoryCsvCell). */
function withoutNeutralisingQuote(cell: string): string {
  return /^'+[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

function required(value: string, column: 'productId' | 'productName', max: number, problems: CategoryImportProblem[]): string | null {
  if (value === '') {
    problems.push({ code: 'REQUIRED', column, problem: `${column} is required` });
    return null;
  }
  if (value.length > max) {
    problems.push(tooLong(column, max));
    return column === 'productId' ? value : null;
  }
  return value;
}

function tooLong(column: 'productId' | 'productName' | 'externalProductId', max: number): CategoryImportProblem {
  return { code: 'TOO_LONG', column, problem: `${column} must be at most ${max} characters` };
}

/**
 * An NCM of 7 digits in a CSV is an 8-digit code whose leading zero a spreadsheet dropped (chapters 01 to 09 begin
 * with 0, and a column read as numbers loses it): refused with the value to write, as the tax matrix's CSV does.
 */
function ncmOf(value: string, problems: CategoryImportProblem[]): string | null {
  if (value === '') {
    problems.push({ code: 'REQUIRED', column: 'ncm', problem: 'ncm is required' });
    return null;
  }
  if (/^\d{7}$/.test(value)) {
    problems.push({
      code: 'NCM_LEADING_ZERO_DROPPED',
      column: 'ncm',
      suggestion: `0${value}`,
      problem: `${value} has 7 digits: a spreadsheet dropped its leading zero; write 0${value} (format the column as text so that it keeps it)`,
    });
    return null;
  }
  if (!/^\d{8}$/.test(value)) {
    problems.push({ code: 'NCM_NOT_8_DIGITS', column: 'ncm', problem: 'must be an NCM code of 8 digits' });
    return null;
  }
  return value;
}

function headerOf(cells: string[]): Header {
  const names = cells.map((name) => name.trim());
  // A spreadsheet saves the empty columns at the right of what it holds (pt-BR Excel: `ncm;;`): they are no columns.
  let width = names.length;
  while (width > 0 && names[width - 1] === '') width -= 1;
  return { names: names.slice(0, width), cells: names.length };
}

function headerProblems({ names }: Header): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  const known = CATEGORY_CSV_COLUMNS as readonly string[];
  const nameless = names.flatMap((name, index) => (name === '' ? [String(index + 1)] : []));
  const unknown = names.filter((name) => name !== '' && !known.includes(name));
  const missing = REQUIRED_COLUMNS.filter((name) => !names.includes(name));
  const repeated = [...new Set(names.filter((name, index) => name !== '' && names.indexOf(name) !== index))];
  if (nameless.length) problems.push(fileProblem(1, `column(s) ${nameless.join(', ')} have no name`));
  if (unknown.length) {
    problems.push(fileProblem(1, `unknown column(s) ${unknown.slice(0, 10).join(', ')}; expected ${CATEGORY_CSV_COLUMNS.join(', ')}`));
  }
  if (missing.length) problems.push(fileProblem(1, `missing column(s) ${missing.join(', ')}`));
  if (repeated.length) problems.push(fileProblem(1, `repeated column(s) ${repeated.join(', ')}`));
  return problems;
}

function shapeProblem(cells: string[], header: Header): string | undefined {
  if (cells.length > header.cells || cells.length < header.names.length) {
    return `has ${cells.length} cells, the header has ${cells.length > header.cells ? header.cells : header.names.length}`;
  }
  for (let index = header.names.length; index < cells.length; index += 1) {
    if (cells[index]!.trim() !== '') return `column ${index + 1} has no name`;
  }
  return undefined;
}

// ----- What an import would do ------------------------------------------------------------------------------------------

const COMPARED: ReadonlyArray<keyof CategoryFields> = ['productName', 'ncm', 'externalProductId'];

/**
 * Each row's outcome against the stored categories. A product the file does not name is left as it is; without an
 * `externalProductId` column each product keeps its own. An external id is refused when, after the file, another
 * product would still keep it (a file may move external ids between the products it names).
 */
export function planCategoryImport(read: ReadCategoryCsv, stored: ReadonlyMap<string, CategoryFields>): CategoryImportRow[] {
  const target = (row: ReadCategoryCsv['rows'][number]): CategoryFields | undefined => {
    if (!row.fields) return undefined;
    const kept = stored.get(row.productId!)?.externalProductId ?? null;
    return { ...row.fields, externalProductId: read.hasExternalColumn ? row.fields.externalProductId : kept };
  };
  const changedByFile = new Map<string, CategoryFields>();
  for (const row of read.rows) {
    const fields = target(row);
    if (fields) changedByFile.set(row.productId!, fields);
  }
  // Who keeps each external id after the file: the products it does not set (those it sets were checked among themselves).
  const holder = new Map<string, string>();
  for (const [productId, fields] of stored) {
    if (!changedByFile.has(productId) && fields.externalProductId !== null) holder.set(fields.externalProductId, productId);
  }

  return read.rows.map((row) => {
    const fields = target(row);
    const base = { line: row.line, productId: row.productId, warnings: [] };
    if (!fields) return { ...base, outcome: 'error', changes: [], problems: row.problems };
    const owner = fields.externalProductId === null ? undefined : holder.get(fields.externalProductId);
    if (owner !== undefined) {
      const problem: CategoryImportProblem = {
        code: 'EXTERNAL_PRODUCT_ID_IN_USE',
        column: 'externalProductId',
        otherProductId: owner,
        problem: `externalProductId ${fields.externalProductId} is already used by product ${owner}`,
      };
      return { ...base, outcome: 'error', changes: [], problems: [problem] };
    }
    const before = stored.get(row.productId!);
    const changes = COMPARED.flatMap((field) =>
      (before?.[field] ?? null) === fields[field] ? [] : [{ field, before: before?.[field] ?? null, after: fields[field] }],
    );
    const outcome: CategoryImportOutcome = !before ? 'created' : changes.length ? 'changed' : 'unchanged';
    return { ...base, outcome, changes, problems: [] };
  });
}
