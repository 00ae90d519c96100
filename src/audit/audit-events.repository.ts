import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { formatMicrosUtc } from '../common/iso-date-time.js';
import { sql, SqlRunner } from '../database/sql-runner.js';
import { AuditEventEntity } from './audit-event.entity.js';
import type { AuditChanges } from './audit-event.types.js';

/** The list's filters, instants already rounded to the stored microseconds (inclusive bounds). */
export interface AuditEventFilter {
  actorType?: 'client' | 'user';
  actorId?: string;
  targetType?: string;
  targetId?: string;
  action?: string;
  fromUs?: bigint;
  toUs?: bigint;
}

/** One listed event, as the query answers it (`at` as text, to keep its microseconds). */
export interface AuditEventRow {
  id: string;
  at: string;
  actorType: 'client' | 'user';
  actorId: string;
  actorName: string;
  action: string;
  targetType: string;
  targetId: string;
  changes: AuditChanges;
  requestId: string | null;
  address: string | null;
}

/** Lets the retention job's DELETE through the append-only trigger, for its own transaction only. */
export const RETENTION_ON = sql<{ on: string }>('audit-retention-on', `SELECT set_config('audit.retention', 'on', true) AS on`, {
  on: true,
});

/** Up to `$2` events older than `$1` days, oldest first (read backwards on ix_audit_event_at). */
export const PRUNE_AUDIT_BATCH = sql<{ id: string }>(
  'audit-prune-batch',
  `DELETE FROM audit_event WHERE id IN (
     SELECT id FROM audit_event WHERE at < now() - $1 * interval '1 day' ORDER BY at, id LIMIT $2
   ) RETURNING id`,
  { id: true },
);

/** `audit_event`: the list's query (TypeORM's query builder, on the migration's indexes) and the retention's batches. */
@Injectable()
export class AuditEventsRepository {
  constructor(
    @InjectRepository(AuditEventEntity) private readonly events: Repository<AuditEventEntity>,
    private readonly db: SqlRunner,
  ) {}

  /**
   * The filtered events, newest first. Every equality filter leads an index (`ix_audit_event_target`
   * for a target, `ix_audit_event_actor` for an actor, `ix_audit_event_at` otherwise) whose order is
   * the list's (at desc, id desc), so a page is read from the index without a sort.
   */
  filtered(filter: AuditEventFilter): SelectQueryBuilder<AuditEventEntity> {
    const query = this.events.createQueryBuilder('e');
    if (filter.actorType !== undefined) query.andWhere('e.actor_type = :actorType', { actorType: filter.actorType });
    if (filter.actorId !== undefined) query.andWhere('e.actor_id = :actorId', { actorId: filter.actorId });
    if (filter.targetType !== undefined) query.andWhere('e.target_type = :targetType', { targetType: filter.targetType });
    if (filter.targetId !== undefined) query.andWhere('e.target_id = :targetId', { targetId: filter.targetId });
    if (filter.action !== undefined) query.andWhere('e.action = :action', { action: filter.action });
    if (filter.fromUs !== undefined) query.andWhere('e.at >= CAST(:from AS timestamptz)', { from: formatMicrosUtc(filter.fromUs) });
    if (filter.toUs !== undefined) query.andWhere('e.at <= CAST(:to AS timestamptz)', { to: formatMicrosUtc(filter.toUs) });
    return query;
  }

  /** How many events of `action` on `targetType` since `from` (a range of `ix_audit_event_at`). */
  countSince(targetType: string, action: string, from: Date): Promise<number> {
    return this.events
      .createQueryBuilder('e')
      .where('e.at >= :from', { from })
      .andWhere('e.target_type = :targetType', { targetType })
      .andWhere('e.action = :action', { action })
      .getCount();
  }

  /** The page's query: the filtered events' columns, `at` as RFC 3339 text in UTC to the microsecond. */
  pageQuery(filter: AuditEventFilter, page: number, pageSize: number): SelectQueryBuilder<AuditEventEntity> {
    return this.filtered(filter)
      .select('e.id', 'id')
      .addSelect(`to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, 'at')
      .addSelect('e.actor_type', 'actorType')
      .addSelect('e.actor_id', 'actorId')
      .addSelect('e.actor_name', 'actorName')
      .addSelect('e.action', 'action')
      .addSelect('e.target_type', 'targetType')
      .addSelect('e.target_id', 'targetId')
      .addSelect('e.changes', 'changes')
      .addSelect('e.request_id', 'requestId')
      .addSelect('e.address', 'address')
      .orderBy('e.at', 'DESC')
      .addOrderBy('e.id', 'DESC')
      .offset((page - 1) * pageSize)
      .limit(pageSize);
  }

  async page(filter: AuditEventFilter, page: number, pageSize: number): Promise<{ rows: AuditEventRow[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.pageQuery(filter, page, pageSize).getRawMany<AuditEventRow>(),
      this.filtered(filter).getCount(),
    ]);
    return { rows, total };
  }

  /**
   * Every filtered event, newest first, in batches of `batchSize` (the export). Each batch continues after the last
   * event of the one before by its place in the list's order (`(at, id) <` the last one's), on the same indexes as a
   * page, so a long export holds no transaction open and never reads an event twice; events written meanwhile are
   * newer than the first batch and are not in it.
   */
  async *batches(filter: AuditEventFilter, batchSize: number): AsyncGenerator<AuditEventRow[]> {
    let after: AuditEventRow | undefined;
    for (;;) {
      const query = this.pageQuery(filter, 1, batchSize);
      if (after !== undefined)
        query.andWhere('(e.at, e.id) < (CAST(:afterAt AS timestamptz), CAST(:afterId AS bigint))', {
          afterAt: after.at,
          afterId: after.id,
        });
      const rows = await query.getRawMany<AuditEventRow>();
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) return;
      after = rows[rows.length - 1];
    }
  }

  /** Deletes up to `batch` events older than `days`, in the caller's transaction; the number deleted. */
  async pruneBatch(manager: EntityManager, days: number, batch: number): Promise<number> {
    await this.db.rows(RETENTION_ON, [], manager);
    return (await this.db.rows(PRUNE_AUDIT_BATCH, [days, batch], manager)).length;
  }
}
