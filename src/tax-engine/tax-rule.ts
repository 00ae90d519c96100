import type { ErrorDetail } from '../common/errors/api-error.js';

/** The value under each NCM key of a fiscal group's tax matrix (spec "TaxRule"). */
export interface TaxRule {
  NCM: string;
  CEST: string;
  CST_ICMS: string;
  ICMS_rate: number;
  CST_PIS: string;
  PIS_rate: number;
  CST_COFINS: string;
  COFINS_rate: number;
  CFOP?: string;
  /** 2026 tax reform (informative): IBS/CBS classification and rates. */
  CST_IBSCBS?: string;
  cClassTrib?: string;
  IBS_UF_rate?: number;
  IBS_Mun_rate?: number;
  CBS_rate?: number;
}

export type TaxMatrix = Record<string, TaxRule>;

/** A fiscal group's switches that change the arithmetic. */
export interface FiscalGroupSettings {
  /** When true, ICMS stays in the PIS/COFINS base (the default excludes it, STF Tema 69). */
  includeIcmsInPisCofinsBase?: boolean;
}

type FieldKind = 'code' | 'rate';
interface FieldSpec {
  name: keyof TaxRule;
  kind: FieldKind;
  required: boolean;
  pattern?: RegExp;
  rule?: string;
}

/** Column order of the CSV export, and the order problems are reported in. */
export const TAX_RULE_FIELDS: FieldSpec[] = [
  { name: 'NCM', kind: 'code', required: true, pattern: /^\d{2,8}$/, rule: 'must be 2 to 8 digits equal to its matrix key' },
  { name: 'CEST', kind: 'code', required: true, pattern: /^(\d{7})?$/, rule: 'must be 7 digits or empty' },
  {
    name: 'CST_ICMS',
    kind: 'code',
    required: true,
    pattern: /^\d{2,3}$/,
    rule: 'must be 2 digits (CST) or 3 digits (origin + CST, or CSOSN)',
  },
  { name: 'ICMS_rate', kind: 'rate', required: true },
  { name: 'CST_PIS', kind: 'code', required: true, pattern: /^\d{2}$/, rule: 'must be 2 digits' },
  { name: 'PIS_rate', kind: 'rate', required: true },
  { name: 'CST_COFINS', kind: 'code', required: true, pattern: /^\d{2}$/, rule: 'must be 2 digits' },
  { name: 'COFINS_rate', kind: 'rate', required: true },
  { name: 'CFOP', kind: 'code', required: false, pattern: /^\d{4}$/, rule: 'must be 4 digits' },
  { name: 'CST_IBSCBS', kind: 'code', required: false, pattern: /^\d{3}$/, rule: 'must be 3 digits' },
  { name: 'cClassTrib', kind: 'code', required: false, pattern: /^\d{6}$/, rule: 'must be 6 digits' },
  { name: 'IBS_UF_rate', kind: 'rate', required: false },
  { name: 'IBS_Mun_rate', kind: 'rate', required: false },
  { name: 'CBS_rate', kind: 'rate', required: false },
];
const KNOWN_FIELDS = new Set<string>(TAX_RULE_FIELDS.map((field) => field.name));

export const NCM_KEY = /^\d{2,8}$/;
export const RATE_RULE = 'must be a number from 0 to 100 with at most 4 decimals';

/** A rate is a finite JSON number within 0..100 whose decimal form has at most 4 decimals (so it is stored and returned exactly). */
export function isValidRate(value: unknown): value is number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) return false;
  return /^\d+(\.\d{1,4})?$/.test(String(value));
}

/** Every problem of one rule, with paths relative to `path` (e.g. `taxMatrix.22021000`). */
export function validateTaxRule(key: string, rule: unknown, path: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!NCM_KEY.test(key)) problems.push({ field: path, problem: 'matrix keys must be NCM codes of 2 to 8 digits' });
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) {
    problems.push({ field: path, problem: 'must be a TaxRule object' });
    return problems;
  }
  const record = rule as Record<string, unknown>;
  for (const name of Object.keys(record)) {
    if (!KNOWN_FIELDS.has(name)) problems.push({ field: `${path}.${name}`, problem: 'is not a TaxRule property' });
  }
  for (const field of TAX_RULE_FIELDS) {
    const value = record[field.name];
    const fieldPath = `${path}.${field.name}`;
    if (value === undefined || (value === null && !field.required)) {
      if (field.required) problems.push({ field: fieldPath, problem: 'is required' });
      continue;
    }
    if (field.kind === 'rate') {
      if (!isValidRate(value)) problems.push({ field: fieldPath, problem: RATE_RULE });
    } else if (typeof value !== 'string' || !field.pattern!.test(value)) {
      problems.push({ field: fieldPath, problem: field.rule! });
    }
  }
  if (typeof record.NCM === 'string' && NCM_KEY.test(record.NCM) && record.NCM !== key) {
    problems.push({ field: `${path}.NCM`, problem: `must equal its matrix key "${key}"` });
  }
  return problems;
}

export function validateTaxMatrix(matrix: unknown, path = 'taxMatrix'): ErrorDetail[] {
  if (typeof matrix !== 'object' || matrix === null || Array.isArray(matrix)) {
    return [{ field: path, problem: 'must be an object mapping NCM codes to TaxRules' }];
  }
  return Object.entries(matrix).flatMap(([key, rule]) => validateTaxRule(key, rule, `${path}.${key}`));
}

/** A validated matrix with its rules' properties in the canonical order and nulls of optional fields dropped. */
export function normalizeTaxMatrix(matrix: Record<string, Record<string, unknown>>): TaxMatrix {
  const normalized: TaxMatrix = {};
  for (const key of Object.keys(matrix).sort()) {
    const rule: Record<string, unknown> = {};
    for (const field of TAX_RULE_FIELDS) {
      const value = matrix[key]![field.name];
      if (value !== undefined && value !== null) rule[field.name] = value;
    }
    normalized[key] = rule as unknown as TaxRule;
  }
  return normalized;
}
