import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import type { AuditContext } from '../../src/audit/audit-event.types.js';
import type { DataSource } from 'typeorm';

/** The audit context of a change a service test makes: an admin person's request. */
export const AUDIT: AuditContext = {
  actor: { type: 'user', id: '6f1d9a2e-8c3b-4e7a-b5d4-2a1c0e9f8b7d', name: 'Test Admin' },
  requestId: 'req-test',
  address: '192.0.2.10',
};

/** The audit events about one target, oldest first, read through the entity. */
export function auditEventsOf(db: DataSource, type: string, id: string): Promise<AuditEventEntity[]> {
  return db.getRepository(AuditEventEntity).find({ where: { targetType: type, targetId: id }, order: { id: 'ASC' } });
}
