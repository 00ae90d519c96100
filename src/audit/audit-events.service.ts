import { Injectable } from '@nestjs/common';
import { ceilToMicros, floorToMicros, parseIsoDateTime } from '../common/iso-date-time.js';
import { pageOf } from '../common/http/pagination.js';
import type { AuditTargetType } from './audit-event.types.js';
import { AuditEventsRepository, type AuditEventFilter, type AuditEventRow } from './audit-events.repository.js';
import { Readable } from 'node:stream';
import { auditCsvHeader, auditCsvLines } from './audit-events-csv.js';
import { AUDIT_DEFAULT_PAGE_SIZE, type AuditEventFilterQuery, type AuditEventListQuery } from './dto/audit-event-list.query.js';
import type { AuditEventDto, AuditEventPageDto } from './dto/audit-event.dto.js';

/** The query's filters as the repository takes them: instants rounded to the stored microseconds, inclusively. */
export function toAuditEventFilter(query: AuditEventFilterQuery): AuditEventFilter {
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

/** The audit action of the platform's order taking an id a store-limited client stored first (docs/access.md). */
export const ORDER_ID_TAKEN_ACTION = 'take-order-id';

/** Events read per query of the CSV export. */
export const AUDIT_EXPORT_BATCH = 500;

/** Reads the audit log (the admin's list and its CSV export); writing is AuditLog's, in the transaction of each change. */
@Injectable()
export class AuditEventsService {
  constructor(private readonly events: AuditEventsRepository) {}

  /** How many times the platform's order took an id a store-limited client stored first, since `from` (the dashboard's count). */
  orderIdsTakenSince(from: Date): Promise<number> {
    return this.events.countSince('order', ORDER_ID_TAKEN_ACTION, from);
  }

  async list(query: AuditEventListQuery): Promise<AuditEventPageDto> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? AUDIT_DEFAULT_PAGE_SIZE;
    const { rows, total } = await this.events.page(toAuditEventFilter(query), page, pageSize);
    return pageOf(rows.map(toAuditEventDto), total, page, pageSize);
  }

  /**
   * The filtered events as CSV, newest first, streamed batch by batch (never the whole log in memory). The first batch
   * is read before the answer starts, so a database that is down answers 503 rather than a cut 200.
   */
  async exportCsv(query: AuditEventFilterQuery): Promise<Readable> {
    const batches = this.events.batches(toAuditEventFilter(query), AUDIT_EXPORT_BATCH)[Symbol.asyncIterator]();
    const first = await batches.next();
    return Readable.from(
      (async function* () {
        yield auditCsvHeader();
        if (first.done) return;
        yield auditCsvLines(first.value);
        for (let next = await batches.next(); !next.done; next = await batches.next()) yield auditCsvLines(next.value);
      })(),
      { objectMode: false },
    );
  }
}
