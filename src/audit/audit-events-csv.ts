import type { AuditEventRow } from './audit-events.repository.js';

/** The export's columns, in order: the event's fields as the list answers them, `changes` as JSON. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'actorType',
  'actorId',
  'actorName',
  'action',
  'targetType',
  'targetId',
  'changes',
  'requestId',
  'address',
] as const;

/**
 * One CSV cell (RFC 4180: quoted when it holds a comma, a semicolon, a quote or a line break). A text a spreadsheet
 * would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`: names and
 * changed values come from whoever made the change, and the file is opened by an admin.
 */
export function auditCsvCell(value: string | null): string {
  if (value === null) return '';
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",;\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function auditCsvHeader(): string {
  return `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
}

/** The CSV lines of a batch of events, each ending in CRLF. */
export function auditCsvLines(rows: AuditEventRow[]): string {
  return rows
    .map((row) => {
      const cells: Record<(typeof AUDIT_CSV_COLUMNS)[number], string | null> = {
        id: row.id,
        at: row.at,
        actorType: row.actorType,
        actorId: row.actorId,
        actorName: row.actorName,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        changes: JSON.stringify(row.changes ?? {}),
        requestId: row.requestId,
        address: row.address,
      };
      return `${AUDIT_CSV_COLUMNS.map((column) => auditCsvCell(cells[column])).join(',')}\r\n`;
    })
    .join('');
}
