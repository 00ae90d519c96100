import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditEventEntity } from './audit-event.entity.js';
import { withoutSecrets } from './audit-changes.js';
import type { AuditContext, AuditRecord } from './audit-event.types.js';

/**
 * Records changes in the audit log. Always with the `manager` of the transaction that makes the
 * change: the event commits with the change and rolls back with it, so a change that landed never
 * lacks its event, and a change undone leaves none. Never pass a secret or a password in `changes`
 * (secret-like field names are dropped as a last guard).
 */
@Injectable()
export class AuditLog {
  async record(manager: EntityManager, context: AuditContext, ...records: AuditRecord[]): Promise<void> {
    if (records.length === 0) return;
    if (!manager.queryRunner?.isTransactionActive) {
      throw new Error('AuditLog.record needs the manager of the transaction that makes the change');
    }
    const rows: Array<Omit<AuditEventEntity, 'id' | 'at'>> = records.map((record) => ({
      actorType: context.actor.type,
      actorId: context.actor.id,
      actorName: context.actor.name,
      action: record.action,
      targetType: record.target.type,
      targetId: record.target.id,
      changes: withoutSecrets(record.changes ?? {}),
      requestId: context.requestId,
      address: context.address,
    }));
    // TypeORM's deep-partial type cannot follow a jsonb record of unknown values.
    await manager.getRepository(AuditEventEntity).insert(rows as never);
  }
}
