import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditActor } from '../audit/audit-event.types.js';
import { ADVISORY_LOCKS } from '../database/advisory-locks.js';
import { sql, SqlRunner } from '../database/sql-runner.js';
import type { FiscalGroupRevisionSnapshot, RevisionKind } from './fiscal-group-revision.entity.js';

/** Revisions that can be in force: a cancelled one never is, and a deletion only records the group's end. */
const CAN_BE_IN_FORCE = `cancelled_at IS NULL AND kind <> 'delete'`;

/**
 * The number follows the group's last one (the writer holds the group's row lock). An immediate revision takes effect
 * at the next millisecond of the clock read here, under the group's revisions lock (`LOCK_REVISIONS`): every order
 * stored before has an earlier tax instant, unless it was dated ahead; and no revision takes effect before the latest
 * such instant (`$8`), so an order already taxed keeps the revision in force at its instant.
 */
export const INSERT_REVISION = sql<{ revision: number; effective_from: Date }>(
  'fiscal-group-revision-insert',
  `INSERT INTO fiscal_group_revision (fiscal_group_id, revision, kind, actor_type, actor_id, actor_name, effective_from, snapshot)
   SELECT $1::uuid, coalesce(max(revision), 0) + 1, $2, $3, $4, $5,
          greatest(coalesce($6::timestamptz, date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond'),
                   $8::timestamptz + interval '1 millisecond'),
          $7::jsonb
   FROM fiscal_group_revision WHERE fiscal_group_id = $1::uuid
   RETURNING revision, effective_from`,
  { revision: true, effective_from: true },
);

/**
 * The group's revisions lock, held until the transaction ends: an order's storing statement shares it
 * (`fiscal_revision_taxes_at`, migration RevisionInForceAtTaxInstant), so it either waits for this write and sees it,
 * or is committed before the write reads the orders.
 */
export const LOCK_REVISIONS = sql<{ locked: number }>(
  'fiscal-group-revisions-lock',
  `SELECT 1 AS locked FROM pg_advisory_xact_lock(${ADVISORY_LOCKS.fiscalGroupRevisions}, hashtext($1::uuid::text))`,
  { locked: true },
);

/** The revision in force at an instant (now when null). */
export const IN_FORCE_AT = sql<{ revision: number; effective_from: Date; snapshot: FiscalGroupRevisionSnapshot }>(
  'fiscal-group-revision-in-force-at',
  `SELECT revision, effective_from, snapshot FROM fiscal_group_revision
   WHERE fiscal_group_id = $1 AND ${CAN_BE_IN_FORCE} AND effective_from <= coalesce($2::timestamptz, now())
   ORDER BY effective_from DESC, revision DESC LIMIT 1`,
  { revision: true, effective_from: true, snapshot: true },
);

interface CurrentRevisionRow {
  fiscal_group_id: string;
  revision: number;
  effective_from: Date;
  actor_type: 'client' | 'user' | null;
  actor_id: string | null;
  actor_name: string | null;
  scheduled: boolean;
  snapshot: FiscalGroupRevisionSnapshot | null;
}
/** For each group: the revision in force now (with its content) and the scheduled ones, by effective instant. */
export const CURRENT_REVISIONS = sql<CurrentRevisionRow>(
  'fiscal-group-revisions-current',
  `SELECT r.fiscal_group_id::text AS fiscal_group_id, r.revision, r.effective_from, r.actor_type, r.actor_id, r.actor_name,
          r.effective_from > now() AS scheduled, CASE WHEN r.effective_from <= now() THEN r.snapshot END AS snapshot
   FROM fiscal_group_revision r
   WHERE r.fiscal_group_id = ANY($1::uuid[]) AND r.cancelled_at IS NULL AND r.kind <> 'delete'
     AND (r.effective_from > now() OR r.id = (
       SELECT i.id FROM fiscal_group_revision i
       WHERE i.fiscal_group_id = r.fiscal_group_id AND i.cancelled_at IS NULL AND i.kind <> 'delete' AND i.effective_from <= now()
       ORDER BY i.effective_from DESC, i.revision DESC LIMIT 1))
   ORDER BY r.fiscal_group_id, r.effective_from, r.revision`,
  {
    fiscal_group_id: true,
    revision: true,
    effective_from: true,
    actor_type: true,
    actor_id: true,
    actor_name: true,
    scheduled: true,
    snapshot: true,
  },
);

export interface RevisionRow {
  fiscal_group_id: string;
  revision: number;
  kind: RevisionKind;
  actor_type: 'client' | 'user' | null;
  actor_id: string | null;
  actor_name: string | null;
  created_at: Date;
  effective_from: Date;
  cancelled_at: Date | null;
  cancelled_by_type: 'client' | 'user' | null;
  cancelled_by_id: string | null;
  cancelled_by_name: string | null;
  in_force: boolean;
  total: string;
}
const REVISION_COLUMNS = {
  fiscal_group_id: true,
  revision: true,
  kind: true,
  actor_type: true,
  actor_id: true,
  actor_name: true,
  created_at: true,
  effective_from: true,
  cancelled_at: true,
  cancelled_by_type: true,
  cancelled_by_id: true,
  cancelled_by_name: true,
  in_force: true,
  total: true,
} as const;
const REVISION_SELECT = `SELECT r.fiscal_group_id::text AS fiscal_group_id, r.revision, r.kind, r.actor_type, r.actor_id, r.actor_name,
     r.created_at, r.effective_from, r.cancelled_at, r.cancelled_by_type, r.cancelled_by_id, r.cancelled_by_name,
     r.id = (SELECT i.id FROM fiscal_group_revision i
             WHERE i.fiscal_group_id = r.fiscal_group_id AND i.cancelled_at IS NULL AND i.effective_from <= now()
             ORDER BY i.effective_from DESC, i.revision DESC LIMIT 1) AS in_force,
     count(*) OVER () AS total`;

/** A page of a group's revisions, newest first, with the count of all of them. */
export const REVISION_PAGE = sql<RevisionRow>(
  'fiscal-group-revision-page',
  `${REVISION_SELECT} FROM fiscal_group_revision r WHERE r.fiscal_group_id = $1 ORDER BY r.revision DESC LIMIT $2 OFFSET $3`,
  REVISION_COLUMNS,
);
export const REVISION_COUNT = sql<{ total: string }>(
  'fiscal-group-revision-count',
  `SELECT count(*) AS total FROM fiscal_group_revision WHERE fiscal_group_id = $1`,
  { total: true },
);

export const ONE_REVISION = sql<RevisionRow & { snapshot: FiscalGroupRevisionSnapshot }>(
  'fiscal-group-revision-one',
  `${REVISION_SELECT}, r.snapshot FROM fiscal_group_revision r WHERE r.fiscal_group_id = $1 AND r.revision = $2`,
  { ...REVISION_COLUMNS, snapshot: true },
);

/** Cancels a revision that has not taken effect; no row when it is unknown, cancelled already or in force. */
export const CANCEL_REVISION = sql<{ revision: number }>(
  'fiscal-group-revision-cancel',
  `UPDATE fiscal_group_revision SET cancelled_at = clock_timestamp(), cancelled_by_type = $3, cancelled_by_id = $4, cancelled_by_name = $5
   WHERE fiscal_group_id = $1 AND revision = $2 AND cancelled_at IS NULL AND effective_from > clock_timestamp()
   RETURNING revision`,
  { revision: true },
);

/** Every revision of the group still to take effect, cancelled (the group is deleted), but those orders name (`$5`). */
export const CANCEL_SCHEDULED = sql(
  'fiscal-group-revision-cancel-scheduled',
  `UPDATE fiscal_group_revision SET cancelled_at = clock_timestamp(), cancelled_by_type = $2, cancelled_by_id = $3, cancelled_by_name = $4
   WHERE fiscal_group_id = $1 AND cancelled_at IS NULL AND effective_from > clock_timestamp() AND NOT revision = ANY($5::integer[])`,
);

export interface NewRevision {
  groupId: string;
  kind: RevisionKind;
  /** Null: a write that names no actor (demo seeding, SQL by hand). */
  actor: AuditActor | null;
  /** Undefined: takes effect at once. */
  effectiveFrom?: Date;
  snapshot: FiscalGroupRevisionSnapshot;
}

/** The revision a scheduled write is built on, or that a reader shows as in force. */
export interface RevisionContent {
  revision: number;
  effectiveFrom: Date;
  snapshot: FiscalGroupRevisionSnapshot;
}

/** The revisions of the fiscal groups (`fiscal_group_revision`), written in the transaction of the change they record. */
@Injectable()
export class FiscalGroupRevisionsRepository {
  constructor(private readonly db: SqlRunner) {}

  /** Takes the group's revisions lock (see LOCK_REVISIONS) in `manager`'s transaction. */
  async lock(manager: EntityManager, groupId: string): Promise<void> {
    await this.db.rows(LOCK_REVISIONS, [groupId], manager);
  }

  /** Under the group's revisions lock; `notBefore`: the latest tax instant of an order already taxed (see INSERT_REVISION). */
  async insert(manager: EntityManager, revision: NewRevision, notBefore: Date | null): Promise<{ revision: number; effectiveFrom: Date }> {
    const { actor } = revision;
    const row = await this.db.row(
      INSERT_REVISION,
      [
        revision.groupId,
        revision.kind,
        actor?.type ?? null,
        actor?.id ?? null,
        actor?.name ?? null,
        revision.effectiveFrom ?? null,
        JSON.stringify(revision.snapshot),
        notBefore,
      ],
      manager,
    );
    return { revision: row!.revision, effectiveFrom: row!.effective_from };
  }

  /** The revision in force at `at` (now when absent); undefined for a group without revisions. */
  async inForceAt(groupId: string, at: Date | undefined, manager?: EntityManager): Promise<RevisionContent | undefined> {
    const row = await this.db.row(IN_FORCE_AT, [groupId, at ?? null], manager);
    return row && { revision: row.revision, effectiveFrom: row.effective_from, snapshot: row.snapshot };
  }

  async current(groupIds: string[], manager?: EntityManager): Promise<CurrentRevisionRow[]> {
    if (groupIds.length === 0) return [];
    return this.db.rows(CURRENT_REVISIONS, [groupIds], manager);
  }

  async page(groupId: string, limit: number, offset: number): Promise<{ rows: RevisionRow[]; total: number }> {
    const rows = await this.db.rows(REVISION_PAGE, [groupId, limit, offset]);
    // Past the last page the window count is missing: count alone.
    const total = rows.length > 0 ? Number(rows[0]!.total) : Number((await this.db.row(REVISION_COUNT, [groupId]))!.total);
    return { rows, total };
  }

  async one(
    groupId: string,
    revision: number,
    manager?: EntityManager,
  ): Promise<(RevisionRow & { snapshot: FiscalGroupRevisionSnapshot }) | undefined> {
    return this.db.row(ONE_REVISION, [groupId, revision], manager);
  }

  /** Whether the revision was cancelled (false: unknown, cancelled already or in force; the caller tells which). */
  async cancel(manager: EntityManager, groupId: string, revision: number, actor: AuditActor): Promise<boolean> {
    const rows = await this.db.rows(CANCEL_REVISION, [groupId, revision, actor.type, actor.id, actor.name], manager);
    return rows.length > 0;
  }

  async cancelScheduled(manager: EntityManager, groupId: string, actor: AuditActor | null, keep: ReadonlySet<number>): Promise<void> {
    await this.db.rows(CANCEL_SCHEDULED, [groupId, actor?.type ?? null, actor?.id ?? null, actor?.name ?? null, [...keep]], manager);
  }
}
