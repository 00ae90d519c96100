/** What an audit event can be about. */
export const AUDIT_TARGET_TYPES = [
  'fiscal-group',
  'product-fiscal-category',
  'status-aliases',
  'channel-configuration',
  'client',
  'user',
  'session',
  'order',
  'sign-in-settings',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Who made a change: a machine client (its client id) or a person (their user id). */
export interface AuditActor {
  type: 'client' | 'user';
  id: string;
  name: string;
}

/** The changed fields, each with its value before and after (null when it did not exist). */
export type AuditChanges = Record<string, { before: unknown; after: unknown }>;

/** Where a change came from: its actor, and the request that carried it. */
export interface AuditContext {
  actor: AuditActor;
  requestId: string | null;
  address: string | null;
}

/** One change to record. `action` is a short kebab-case verb phrase: `create`, `update`, `delete`, `import-matrix`, `rotate-secret`… */
export interface AuditRecord {
  action: string;
  target: { type: AuditTargetType; id: string };
  changes?: AuditChanges;
}
