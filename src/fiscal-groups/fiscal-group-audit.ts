import { isDeepStrictEqual } from 'node:util';
import { changedFields } from '../audit/audit-changes.js';
import type { AuditChanges, AuditRecord } from '../audit/audit-event.types.js';
import type { TaxMatrix } from '../tax-engine/tax-rule.js';
import { settingsOf } from './dto/fiscal-group.mapper.js';
import type { FiscalGroupEntity, StoreRef } from './fiscal-group.entity.js';

/** A fiscal group as the audit log compares it: its own fields, its stores, its matrix. */
export interface AuditedFiscalGroup {
  externalId: string | null;
  name: string;
  uf: string;
  taxRegime: string | null;
  settings: object;
  stores: StoreRef[];
  taxMatrix: TaxMatrix;
}

const FIELDS = ['externalId', 'name', 'uf', 'taxRegime', 'stores'] as const;

export function auditedGroup(group: FiscalGroupEntity, stores: StoreRef[]): AuditedFiscalGroup {
  return {
    externalId: group.externalId,
    name: group.name,
    uf: group.uf,
    taxRegime: group.taxRegime,
    // As the group applies them (defaults filled in): a save that sends the defaults of settings never stored
    // changes nothing a reader should see.
    settings: settingsOf(group.settings),
    stores: [...stores].sort((a, b) => a.store_id.localeCompare(b.store_id)),
    taxMatrix: group.taxMatrix,
  };
}

/** One change per key of two objects whose value differs, named `prefix.key` (null where a side lacks the key). */
function keyChanges(prefix: string, before: object, after: object): AuditChanges {
  const changes: AuditChanges = {};
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  for (const key of [...new Set([...Object.keys(was), ...Object.keys(is)])].sort()) {
    if (!isDeepStrictEqual(was[key] ?? null, is[key] ?? null))
      changes[`${prefix}.${key}`] = { before: was[key] ?? null, after: is[key] ?? null };
  }
  return changes;
}

/**
 * The matrix's change field by field: a rule that changed as its fields that changed (`taxMatrix.22021000.ICMS_rate`),
 * a rule added or removed as a whole (`taxMatrix.22021000`, null on the side it is missing from). A reader sees which
 * codes changed and how, without two copies of a matrix of hundreds of codes. See "What the audit log records" in
 * docs/audit-log.md.
 */
export function matrixChanges(before: TaxMatrix | undefined, after: TaxMatrix | undefined): AuditChanges {
  const changes: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of [...keys].sort()) {
    const was = before?.[key] ?? null;
    const is = after?.[key] ?? null;
    if (isDeepStrictEqual(was, is)) continue;
    if (was === null || is === null) changes[`taxMatrix.${key}`] = { before: was, after: is };
    else Object.assign(changes, keyChanges(`taxMatrix.${key}`, was, is));
  }
  return changes;
}

/** The event of a write to a group (create: `before` undefined; delete: `after` undefined); none when nothing changed. */
export function fiscalGroupEvent(
  action: 'create' | 'update' | 'import-matrix' | 'delete',
  id: string,
  before: AuditedFiscalGroup | undefined,
  after: AuditedFiscalGroup | undefined,
): AuditRecord[] {
  const changes = {
    ...changedFields(before, after, [...FIELDS]),
    ...keyChanges('settings', before?.settings ?? {}, after?.settings ?? {}),
    ...matrixChanges(before?.taxMatrix, after?.taxMatrix),
  };
  if (action === 'update' || action === 'import-matrix') {
    if (Object.keys(changes).length === 0) return [];
  }
  return [{ action, target: { type: 'fiscal-group', id }, changes }];
}
