import type { Schemas } from '../../api/client';
import { RULE_FIELDS } from './matrix-model';

/** The whole group as a revision keeps it. */
export type RevisionContent = Schemas['FiscalGroupRevisionContentDto'];
export type Revision = Schemas['FiscalGroupRevisionDto'];
export type RevisionDetail = Schemas['FiscalGroupRevisionDetailDto'];

/** A scalar as the API answers it in a group (text, number, boolean), or absent. */
export type DiffValue = string | number | boolean | null | undefined;

export interface ValueChange {
  field: string;
  before: DiffValue;
  after: DiffValue;
}

/** The changes of one NCM's rule: every cell for a rule added or removed, only the differing ones otherwise. */
export interface RuleChange {
  ncm: string;
  kind: 'added' | 'removed' | 'changed';
  cells: ValueChange[];
}

export interface StoreChange {
  storeId: string;
  kind: 'added' | 'removed' | 'renamed';
  nameBefore?: string;
  nameAfter?: string;
}

/** What changed from one revision to another, in the order a reader checks it. */
export interface RevisionDiff {
  /** name, uf, externalId, taxRegime */
  fields: ValueChange[];
  settings: ValueChange[];
  stores: StoreChange[];
  matrix: RuleChange[];
}

export const GROUP_FIELDS = ['name', 'uf', 'externalId', 'taxRegime'] as const;

const RULE_FIELD_ORDER: string[] = RULE_FIELDS.map((field) => field.name);

/** The API answers a missing optional value as absent or null; the reader sees neither as a change. */
function same(a: DiffValue, b: DiffValue): boolean {
  return (a ?? null) === (b ?? null);
}

function scalar(value: unknown): DiffValue {
  if (value === null || value === undefined) return value;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** The rule fields in the matrix table's column order, then any field this console does not know, by name. */
function orderedKeys(keys: Iterable<string>): string[] {
  const unique = [...new Set(keys)].filter((key) => key !== 'NCM');
  const known = RULE_FIELD_ORDER.filter((field) => unique.includes(field));
  const unknown = unique.filter((field) => !RULE_FIELD_ORDER.includes(field)).sort();
  return [...known, ...unknown];
}

function compareRecords(before: Record<string, unknown>, after: Record<string, unknown>, keys: string[]): ValueChange[] {
  return keys
    .map((field) => ({ field, before: scalar(before[field]), after: scalar(after[field]) }))
    .filter((change) => !same(change.before, change.after));
}

function matrixChanges(before: RevisionContent['taxMatrix'], after: RevisionContent['taxMatrix']): RuleChange[] {
  const ncms = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  const changes: RuleChange[] = [];
  for (const ncm of ncms) {
    const was = before[ncm] as Record<string, unknown> | undefined;
    const is = after[ncm] as Record<string, unknown> | undefined;
    const cells = compareRecords(was ?? {}, is ?? {}, orderedKeys([...Object.keys(was ?? {}), ...Object.keys(is ?? {})]));
    if (!was) changes.push({ ncm, kind: 'added', cells });
    else if (!is) changes.push({ ncm, kind: 'removed', cells });
    else if (cells.length) changes.push({ ncm, kind: 'changed', cells });
  }
  return changes;
}

function storeChanges(before: RevisionContent['stores'], after: RevisionContent['stores']): StoreChange[] {
  const was = new Map(before.map((store) => [store.store_id, store.store_name]));
  const is = new Map(after.map((store) => [store.store_id, store.store_name]));
  const changes: StoreChange[] = [];
  for (const [storeId, name] of is) {
    if (!was.has(storeId)) changes.push({ storeId, kind: 'added', nameAfter: name });
    else if (was.get(storeId) !== name) changes.push({ storeId, kind: 'renamed', nameBefore: was.get(storeId), nameAfter: name });
  }
  for (const [storeId, name] of was) if (!is.has(storeId)) changes.push({ storeId, kind: 'removed', nameBefore: name });
  return changes.sort((a, b) => a.storeId.localeCompare(b.storeId));
}

/**
 * What changed from `before` to `after` (two revisions of one group, in either order: the reader
 * chooses). `before` null compares with nothing, as for a group's first revision: everything is added.
 */
export function diffRevisions(before: RevisionContent | null, after: RevisionContent): RevisionDiff {
  const was = (before ?? {}) as Partial<RevisionContent>;
  const wasSettings = (was.settings ?? {}) as Record<string, unknown>;
  const isSettings = (after.settings ?? {}) as Record<string, unknown>;
  return {
    fields: compareRecords(was as Record<string, unknown>, after as unknown as Record<string, unknown>, [...GROUP_FIELDS]),
    settings: compareRecords(wasSettings, isSettings, [...new Set([...Object.keys(wasSettings), ...Object.keys(isSettings)])].sort()),
    stores: storeChanges(was.stores ?? [], after.stores),
    matrix: matrixChanges(was.taxMatrix ?? {}, after.taxMatrix),
  };
}

export function isEmptyDiff(diff: RevisionDiff): boolean {
  return !diff.fields.length && !diff.settings.length && !diff.stores.length && !diff.matrix.length;
}
