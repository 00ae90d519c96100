import type { ErrorDetail } from '../common/errors/api-error.js';
import { compileFlatDtoRules } from '../common/http/flat-dto-rules.js';
import { isPlainObject } from '../common/plain-object.js';
import type { TaxMatrix, TaxRule } from '../tax-engine/tax-rule.js';
import { TaxRuleDto } from './dto/fiscal-group.dto.js';

type FieldKind = 'code' | 'rate';
interface FieldSpec {
  name: keyof TaxRule;
  kind: FieldKind;
  required: boolean;
}

/**
 * Column order of the CSV export and import (the properties of `TaxRuleDto`, in its order, which
 * holds the rules; a test checks that the two agree).
 */
export const TAX_RULE_FIELDS: FieldSpec[] = [
  { name: 'NCM', kind: 'code', required: true },
  { name: 'CEST', kind: 'code', required: true },
  { name: 'CST_ICMS', kind: 'code', required: true },
  { name: 'ICMS_rate', kind: 'rate', required: true },
  { name: 'CST_PIS', kind: 'code', required: true },
  { name: 'PIS_rate', kind: 'rate', required: true },
  { name: 'CST_COFINS', kind: 'code', required: true },
  { name: 'COFINS_rate', kind: 'rate', required: true },
  { name: 'CFOP', kind: 'code', required: false },
  { name: 'CST_IBSCBS', kind: 'code', required: false },
  { name: 'cClassTrib', kind: 'code', required: false },
  { name: 'IBS_UF_rate', kind: 'rate', required: false },
  { name: 'IBS_Mun_rate', kind: 'rate', required: false },
  { name: 'CBS_rate', kind: 'rate', required: false },
  { name: 'ICMS_base_reduction', kind: 'rate', required: false },
  { name: 'FCP_rate', kind: 'rate', required: false },
  { name: 'orig', kind: 'code', required: false },
];
const KNOWN_FIELDS = new Set<string>(TAX_RULE_FIELDS.map((field) => field.name));

export const NCM_KEY = /^\d{2,8}$/;
/** The rules of `TaxRuleDto`, compiled once: a CSV import checks up to 100,000 rules. */
const taxRuleProblems = compileFlatDtoRules(TaxRuleDto);
/**
 * Every problem of one rule, with paths relative to `path` (e.g. `taxMatrix.22021000`): its key,
 * its properties (the rules of `TaxRuleDto`, an unknown property refused), and `NCM` equal to the key.
 */
export function validateTaxRule(key: string, rule: unknown, path: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!NCM_KEY.test(key)) problems.push({ field: path, problem: 'matrix keys must be NCM codes of 2 to 8 digits' });
  if (!isPlainObject(rule)) {
    problems.push({ field: path, problem: 'must be a TaxRule object' });
    return problems;
  }
  for (const name of Object.keys(rule)) {
    if (!KNOWN_FIELDS.has(name)) problems.push({ field: `${path}.${name}`, problem: 'is not a TaxRule property' });
  }
  problems.push(...taxRuleProblems(rule, path));
  if (typeof rule.NCM === 'string' && NCM_KEY.test(rule.NCM) && rule.NCM !== key) {
    problems.push({ field: `${path}.NCM`, problem: `must equal its matrix key "${key}"` });
  }
  if (rule.ICMS_base_reduction !== undefined && rule.ICMS_base_reduction !== null && !allowsBaseReduction(rule.CST_ICMS)) {
    problems.push({
      field: `${path}.ICMS_base_reduction`,
      problem: 'is allowed only with CST_ICMS 20 or 70 (or origin + CST: 020, 170...) or CSOSN 900',
    });
  }
  return problems;
}

export function validateTaxMatrix(matrix: unknown, path = 'taxMatrix'): ErrorDetail[] {
  if (!isPlainObject(matrix)) {
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

/**
 * A reduced ICMS base goes with CST 20 (reduced base) and 70 (reduced base with substitution), as
 * 2 digits or origin (0 to 8) + CST, and with CSOSN 900 (Simples Nacional, ICMS on the document). No other
 * code prints pRedBC, so the ambiguity of 3 digits does not arise: no CSOSN ends in 20 or 70.
 */
function allowsBaseReduction(cstIcms: unknown): boolean {
  return typeof cstIcms === 'string' && /^([0-8]?(20|70)|900)$/.test(cstIcms);
}
