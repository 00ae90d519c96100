import { isDeepStrictEqual } from 'node:util';
import { changedFields } from '../audit/audit-changes.js';
import type { AuditChanges, AuditRecord } from '../audit/audit-event.types.js';
import type { TaxMatrix } from '../tax-engine/tax-rule.js';
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

const FIELDS = ['externalId', 'name', 'uf', 'taxRegime', 'settings', 'stores'] as const;

export function auditedGroup(group: FiscalGroupEntity, stores: StoreRef[]): AuditedFiscalGroup {
  return {
    externalId: group.externalId,
    name: group.name,
    uf: group.uf,
    taxRegime: group.taxRegime,
    settings: group.settings,
    stores: [...stores].sort((a, b) => a.store_id.localeCompare(b.store_id)),
    taxMatrix: group.taxMatrix,
  };
}

/**
 * The matrix's change as one field per NCM key whose rule changed (`taxMatrix.22021000`), with the
 * rule before and after (null where the key was absent): a reader sees which codes changed and how,
 * without two copies of a matrix of hundreds of codes. See "What the audit log records" in docs/audit-log.md.
 */
export function matrixChanges(before: TaxMatrix | undefined, after: TaxMatrix | undefined): AuditChanges {
  const changes: AuditChanges = {};
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const key of [...keys].sort()) {
    const was = before?.[key] ?? null;
    const is = after?.[key] ?? null;
    if (!isDeepStrictEqual(was, is)) changes[`taxMatrix.${key}`] = { before: was, after: is };
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
  const changes = { ...changedFields(before, after, [...FIELDS]), ...matrixChanges(before?.taxMatrix, after?.taxMatrix) };
  if (action === 'update' || action === 'import-matrix') {
    if (Object.keys(changes).length === 0) return [];
  }
  return [{ action, target: { type: 'fiscal-group', id }, changes }];
}
