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
] as const satisfies readonly AuditTargetType[];

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
