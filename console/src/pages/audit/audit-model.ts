import type { Schemas } from '../../api/client';

export type AuditEventDto = Schemas['AuditEventDto'];
export type AuditTargetType = AuditEventDto['target']['type'];
/** The target types, in the order the filter offers them; the type keeps the list in step with the API's. */
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
] as const satisfies readonly AuditTargetType[];

/** The actions the service records; a newer one the console does not know yet is shown as its code. */
export const AUDIT_ACTIONS = [
  'create',
  'update',
  'delete',
  'import-matrix',
  'replace',
  'rotate-secret',
  'schedule-revision',
  'cancel-revision',
  'change-status',
  'cancel',
  'track',
  'dispatch',
  'transfer',
  'redeliver',
  'redeliver-closed',
  'take-order-id',
  'sign-in',
  'sign-in-failed',
  'sign-out',
  'end',
  'renew',
  'change-password',
  'set-password',
  'issue-link',
  'order.personal-data.erase',
  'enable-two-factor',
  'disable-two-factor',
  'reset-two-factor',
  'regenerate-recovery-codes',
  'use-recovery-code',
] as const;
export type KnownAuditAction = (typeof AUDIT_ACTIONS)[number];
export const isKnownAction = (action: string): action is KnownAuditAction => (AUDIT_ACTIONS as readonly string[]).includes(action);
export const isKnownTargetType = (type: string): type is AuditTargetType => (AUDIT_TARGET_TYPES as readonly string[]).includes(type);

/** The timestamps' zone: the browser's, named (IANA, e.g. America/Sao_Paulo). */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The audit page's URL of one target's events (the list's filters, in the URL as the API names them). */
export function targetFilterUrl(target: { type: string; id: string }): string {
  return `/audit?${new URLSearchParams({ targetType: target.type, targetId: target.id }).toString()}`;
}

export interface ChangeLine {
  field: string;
  before: string;
  after: string;
}

/** A value of a change as one line of text: absent as "—", text as it is, anything else as JSON. */
export function changeValueText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** An event's changed fields, in the order the API gave them. */
export function changeLines(event: Pick<AuditEventDto, 'changes'>): ChangeLine[] {
  return Object.entries(event.changes ?? {}).map(([field, change]) => ({
    field,
    before: changeValueText(change?.before),
    after: changeValueText(change?.after),
  }));
}
