import type { Schemas } from '../../api/client';

export type FiscalGroup = Schemas['FiscalGroupResponseDto'];
export type TaxRule = Schemas['TaxRuleDto'];
export type RuleField = keyof TaxRule & string;

/** The 27 UFs, as the API accepts them. */
export const UF_CODES = [
  'AC', 'AL', 'AM', 'AP', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MG', 'MS', 'MT', 'PA',
  'PB', 'PE', 'PI', 'PR', 'RJ', 'RN', 'RO', 'RR', 'RS', 'SC', 'SE', 'SP', 'TO',
] as const; // prettier-ignore
export type Uf = (typeof UF_CODES)[number];

export function isUf(value: string | null | undefined): value is Uf {
  return !!value && (UF_CODES as readonly string[]).includes(value);
}

/** Every TaxRule field but NCM (the row key), in the API's column order; rates are numbers. */
export const RULE_FIELDS: { name: RuleField; rate: boolean; required: boolean; width: number }[] = [
  { name: 'CEST', rate: false, required: true, width: 110 },
  { name: 'CST_ICMS', rate: false, required: true, width: 90 },
  { name: 'ICMS_rate', rate: true, required: true, width: 100 },
  { name: 'ICMS_base_reduction', rate: true, required: false, width: 110 },
  { name: 'FCP_rate', rate: true, required: false, width: 90 },
  { name: 'CST_PIS', rate: false, required: true, width: 80 },
  { name: 'PIS_rate', rate: true, required: true, width: 90 },
  { name: 'CST_COFINS', rate: false, required: true, width: 90 },
  { name: 'COFINS_rate', rate: true, required: true, width: 100 },
  { name: 'CFOP', rate: false, required: false, width: 80 },
  { name: 'CST_IBSCBS', rate: false, required: false, width: 90 },
  { name: 'cClassTrib', rate: false, required: false, width: 100 },
  { name: 'IBS_UF_rate', rate: true, required: false, width: 100 },
  { name: 'IBS_Mun_rate', rate: true, required: false, width: 100 },
  { name: 'CBS_rate', rate: true, required: false, width: 90 },
  // The goods' origin the invoice prints; kept through the editor so that saving a group never drops it.
  { name: 'orig', rate: false, required: false, width: 70 },
];

/** One editable row of the matrix: every cell as typed text. */
export interface MatrixRow {
  uid: string;
  ncm: string;
  cells: Partial<Record<RuleField, string>>;
}

let counter = 0;
export function newUid(): string {
  counter += 1;
  return `r${counter}`;
}

/** The decimal separator of a language's numbers: "," in pt-BR, "." in English. */
export function decimalSeparatorOf(language: string): string {
  return new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')?.value ?? '.';
}

/** A cell's text as stored: a rate with the language's decimal separator, every digit the API keeps. */
function cellText(field: (typeof RULE_FIELDS)[number], value: unknown, decimalSeparator: string): string {
  return field.rate && typeof value === 'number' ? String(value).replace('.', decimalSeparator) : String(value);
}

export function rowsFromMatrix(matrix: Record<string, TaxRule> | undefined, decimalSeparator = '.'): MatrixRow[] {
  return Object.keys(matrix ?? {})
    .sort()
    .map((key) => {
      const rule = matrix![key]! as unknown as Record<string, unknown>;
      const cells: MatrixRow['cells'] = {};
      for (const field of RULE_FIELDS) {
        const value = rule[field.name];
        if (value !== undefined && value !== null) cells[field.name] = cellText(field, value, decimalSeparator);
      }
      return { uid: newUid(), ncm: key, cells };
    });
}

/**
 * The rows as the API's matrix. A rate typed as a number (a decimal comma accepted) is sent as
 * a number; anything else is sent as typed, so that the API names the problem on that cell.
 */
export function matrixFromRows(rows: MatrixRow[]): Record<string, TaxRule> {
  const matrix: Record<string, Record<string, unknown>> = {};
  for (const row of rows) {
    const ncm = row.ncm.trim();
    const rule: Record<string, unknown> = { NCM: ncm };
    for (const field of RULE_FIELDS) {
      const raw = (row.cells[field.name] ?? '').trim();
      if (raw === '') {
        if (field.name === 'CEST') rule.CEST = '';
        continue;
      }
      if (field.rate) {
        const text = raw.replace(',', '.');
        rule[field.name] = /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : raw;
      } else rule[field.name] = raw;
    }
    matrix[ncm] = rule;
  }
  return matrix as unknown as Record<string, TaxRule>;
}

/** A cell as it would be sent (a rate read as a number, either separator accepted), as text to compare. */
function sentText(field: (typeof RULE_FIELDS)[number], typed: string): string {
  const raw = typed.trim();
  const text = raw.replace(',', '.');
  return field.rate && /^-?\d+(\.\d+)?$/.test(text) ? String(Number(text)) : raw;
}

/**
 * The cells whose text differs from the saved matrix, as `uid` → fields (`NCM` for a row whose NCM
 * is not saved): "18.5" and "18,50" are the saved 18.5, so only a real change is marked.
 */
export function unsavedCells(rows: MatrixRow[], saved: Record<string, TaxRule>): Map<string, Set<string>> {
  const unsaved = new Map<string, Set<string>>();
  for (const row of rows) {
    const rule = saved[row.ncm.trim()] as unknown as Record<string, unknown> | undefined;
    const fields = new Set<string>();
    if (!rule) fields.add('NCM');
    for (const field of RULE_FIELDS) {
      const value = rule?.[field.name];
      const savedText = value === undefined || value === null ? '' : String(value);
      if (sentText(field, row.cells[field.name] ?? '') !== savedText) fields.add(field.name);
    }
    if (fields.size > 0) unsaved.set(row.uid, fields);
  }
  return unsaved;
}

/** NCM codes typed in more than one row (they would collapse into one key). */
export function duplicateNcms(rows: MatrixRow[]): string[] {
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  for (const row of rows) {
    const ncm = row.ncm.trim();
    if (seen.has(ncm)) duplicates.add(ncm);
    seen.add(ncm);
  }
  return [...duplicates];
}

export interface FieldProblems {
  /** Problems of the group's own fields, by path (`name`, `uf`, `stores.0.store_id`, ...). */
  byField: Record<string, string[]>;
  /** Problems of matrix cells: NCM key → field (`NCM` for the key itself) → problems. */
  byCell: Record<string, Record<string, string[]>>;
}

const GROUP_FIELDS = ['name', 'externalId', 'uf', 'taxRegime', 'stores', 'settings'];

/** Sorts the API's 400 details onto the fields and cells they name; the rest is returned apart. */
export function sortDetails(details: { field?: string; problem?: string }[] | undefined): FieldProblems & { rest: string[] } {
  const result: FieldProblems & { rest: string[] } = { byField: {}, byCell: {}, rest: [] };
  for (const detail of details ?? []) {
    const field = (detail.field ?? '').replace(/\[(\d+)\]/g, '.$1');
    const problem = detail.problem ?? '';
    if (field.startsWith('taxMatrix.')) {
      const tail = field.slice('taxMatrix.'.length);
      const dot = tail.indexOf('.');
      const key = dot === -1 ? tail : tail.slice(0, dot);
      const cell = dot === -1 ? 'NCM' : tail.slice(dot + 1);
      ((result.byCell[key] ??= {})[cell] ??= []).push(problem);
    } else if (GROUP_FIELDS.some((name) => field === name || field.startsWith(`${name}.`))) {
      (result.byField[field] ??= []).push(problem);
    } else {
      result.rest.push(field ? `${field}: ${problem}` : problem);
    }
  }
  return result;
}

export interface StoreConflict {
  storeId: string;
  groupId?: string;
  groupName?: string;
}

type StoreInAnotherGroupDetail = Schemas['StoreInAnotherGroupDetailDto'];

/** The stores a 409 STORE_IN_ANOTHER_GROUP names, with the group holding each, read from its typed details. */
export function readStoreConflicts(errorBody: { code?: string; details?: readonly object[] }): StoreConflict[] {
  if (errorBody.code !== 'STORE_IN_ANOTHER_GROUP') return [];
  return (errorBody.details ?? []).flatMap((item) => {
    const detail = item as Partial<StoreInAnotherGroupDetail>;
    if (typeof detail.storeId !== 'string') return [];
    return [{ storeId: detail.storeId, groupId: detail.fiscalGroupId ?? undefined, groupName: detail.fiscalGroupName ?? undefined }];
  });
}
