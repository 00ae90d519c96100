import { isDeepStrictEqual } from 'node:util';
import type { AuditChanges } from './audit-event.types.js';

/** Field names whose values never enter the audit log, whatever the caller passes. */
const SECRET_FIELD = /secret|password|hash|token/i;

/**
 * The fields of `fields` whose values differ between `before` and `after`, each with both values.
 * A created thing has `before` undefined, a deleted one `after` undefined (recorded as null).
 * Secret-like fields are left out.
 */
export function changedFields<T extends object>(
  before: T | undefined,
  after: T | undefined,
  fields: ReadonlyArray<keyof T & string>,
): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of fields) {
    if (SECRET_FIELD.test(field)) continue;
    const was = before === undefined ? null : (before[field] ?? null);
    const is = after === undefined ? null : (after[field] ?? null);
    if (!isDeepStrictEqual(was, is)) changes[field] = { before: was, after: is };
  }
  return changes;
}

/** `changes` without any secret-like field, at any depth of its keys' names (a last guard of AuditLog.record). */
export function withoutSecrets(changes: AuditChanges): AuditChanges {
  return Object.fromEntries(Object.entries(changes).filter(([field]) => !SECRET_FIELD.test(field)));
}
