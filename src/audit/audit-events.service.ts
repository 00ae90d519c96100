import { Injectable } from '@nestjs/common';
import { ceilToMicros, floorToMicros, parseIsoDateTime } from '../common/iso-date-time.js';
import { pageOf } from '../common/http/pagination.js';
import type { AuditTargetType } from './audit-event.types.js';
import { AuditEventsRepository, type AuditEventFilter, type AuditEventRow } from './audit-events.repository.js';
import { AUDIT_DEFAULT_PAGE_SIZE, type AuditEventListQuery } from './dto/audit-event-list.query.js';
import type { AuditEventDto, AuditEventPageDto } from './dto/audit-event.dto.js';

/** The query's filters as the repository takes them: instants rounded to the stored microseconds, inclusively. */
export function toAuditEventFilter(query: AuditEventListQuery): AuditEventFilter {
  const from = parseIsoDateTime(query.from);
  const to = parseIsoDateTime(query.to);
  return {
    actorType: query.actorType,
    actorId: query.actorId,
    targetType: query.targetType,
    targetId: query.targetId,
    action: query.action,
    fromUs: from === undefined ? undefined : ceilToMicros(from),
    toUs: to === undefined ? undefined : floorToMicros(to),
  };
}

function toAuditEventDto(row: AuditEventRow): AuditEventDto {
  return {
    id: row.id,
    at: row.at,
    actor: { type: row.actorType, id: row.actorId, name: row.actorName },
    action: row.action,
    target: { type: row.targetType as AuditTargetType, id: row.targetId },
    changes: row.changes as AuditEventDto['changes'],
    requestId: row.requestId,
    address: row.address,
  };
}

/** Reads the audit log (the admin's list); writing is AuditLog's, in the transaction of each change. */
@Injectable()
export class AuditEventsService {
  constructor(private readonly events: AuditEventsRepository) {}

  async list(query: AuditEventListQuery): Promise<AuditEventPageDto> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? AUDIT_DEFAULT_PAGE_SIZE;
    const { rows, total } = await this.events.page(toAuditEventFilter(query), page, pageSize);
    return pageOf(rows.map(toAuditEventDto), total, page, pageSize);
  }
}
