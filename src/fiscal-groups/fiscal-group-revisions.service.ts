import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { AuditActor, AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { ApiError } from '../common/errors/api-error.js';
import { pageOf, type Page } from '../common/http/pagination.js';
import { parseIsoDateTime } from '../common/iso-date-time.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import type { FiscalGroupRevisionDetailDto, FiscalGroupRevisionDto, ScheduleQuery } from './dto/fiscal-group-revision.dto.js';
import type { FiscalGroupResponseDto } from './dto/fiscal-group.dto.js';
import { settingsOf, toFiscalGroupResponse } from './dto/fiscal-group.mapper.js';
import type { RevisionActorDto } from './dto/scheduled-revision.dto.js';
import type { FiscalGroupRevisionSnapshot, RevisionKind } from './fiscal-group-revision.entity.js';
import { FiscalGroupRevisionsRepository, type RevisionContent, type RevisionRow } from './fiscal-group-revisions.repository.js';
import type { FiscalGroupEntity, StoreRef } from './fiscal-group.entity.js';
import { revisionInForce, revisionInUse } from './dto/revision-errors.dto.js';
import { TAXED_ORDERS, type TaxedOrders } from './taxed-orders.port.js';

/** How far ahead a change can be scheduled. */
export const MAX_SCHEDULE_DAYS = 400;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The whole group as a revision keeps it. */
export function snapshotOf(group: FiscalGroupEntity, stores: StoreRef[]): FiscalGroupRevisionSnapshot {
  return {
    externalId: group.externalId,
    name: group.name,
    uf: group.uf,
    taxRegime: group.taxRegime,
    settings: group.settings ?? {},
    stores,
    taxMatrix: group.taxMatrix,
  };
}

/**
 * A revision's content as the group's own columns. Not the external id: it changes at once, so the group's row holds
 * the one in force, and a revision built before a change of it would bring the old one back. See "Changes scheduled
 * for a date" in docs/fiscal-configuration-over-time.md.
 */
export function contentOf(snapshot: FiscalGroupRevisionSnapshot): Partial<FiscalGroupEntity> {
  return {
    name: snapshot.name,
    uf: snapshot.uf,
    taxRegime: snapshot.taxRegime,
    settings: snapshot.settings,
    taxMatrix: snapshot.taxMatrix,
  };
}

/**
 * The instant a write takes effect (undefined: at once), checked against the clock: from now to 400 days ahead.
 * See "Changes scheduled for a date" in docs/fiscal-configuration-over-time.md.
 */
export function effectiveFromOf(query: ScheduleQuery | undefined, now = Date.now()): Date | undefined {
  if (query?.effectiveFrom === undefined) return undefined;
  const ns = parseIsoDateTime(query.effectiveFrom);
  // The validation pipe has checked the text: a date-time with its offset.
  const at = Number(ns! / 1_000_000n);
  if (at < now) throw ApiError.validation([{ field: 'effectiveFrom', problem: 'must not be in the past' }]);
  if (at > now + MAX_SCHEDULE_DAYS * DAY_MS) {
    throw ApiError.validation([{ field: 'effectiveFrom', problem: `must be at most ${MAX_SCHEDULE_DAYS} days ahead` }]);
  }
  return new Date(at);
}

function actorOf(type: 'client' | 'user' | null, id: string | null, name: string | null): RevisionActorDto | null {
  return type && id !== null ? { type, id, name: name ?? id } : null;
}

function toRevisionDto(row: RevisionRow, now: number): FiscalGroupRevisionDto {
  const status = row.cancelled_at ? 'cancelled' : row.effective_from.getTime() > now ? 'scheduled' : row.in_force ? 'in-force' : 'past';
  return {
    fiscalGroupId: row.fiscal_group_id,
    revision: row.revision,
    kind: row.kind,
    actor: actorOf(row.actor_type, row.actor_id, row.actor_name),
    createdAt: row.created_at.toISOString(),
    effectiveFrom: row.effective_from.toISOString(),
    status,
    cancelledAt: row.cancelled_at?.toISOString() ?? null,
    cancelledBy: actorOf(row.cancelled_by_type, row.cancelled_by_id, row.cancelled_by_name),
  };
}

/** The fiscal groups' revisions: writing them with each change, reading them, cancelling a scheduled one, showing the one in force. */
@Injectable()
export class FiscalGroupRevisions {
  constructor(
    private readonly revisions: FiscalGroupRevisionsRepository,
    private readonly transactions: TransactionRunner,
    private readonly lookup: FiscalLookupService,
    private readonly audit: AuditLog,
    @Inject(TAXED_ORDERS) private readonly orders: TaxedOrders,
  ) {}

  /**
   * Records the group as it now is (or as it will be from `effectiveFrom`); the revision's number. Under the group's
   * revisions lock, held until the write commits: no order of the group is stored meanwhile, and none stored before
   * has a tax instant at or after the new revision's (one dated ahead of its receipt pushes the instant after it). See
   * "Which revision taxes an order" in docs/fiscal-configuration-over-time.md.
   */
  async record(
    manager: EntityManager,
    groupId: string,
    kind: RevisionKind,
    snapshot: FiscalGroupRevisionSnapshot,
    actor: AuditActor | null,
    effectiveFrom?: Date,
  ): Promise<number> {
    await this.revisions.lock(manager, groupId);
    const notBefore = await this.orders.latestTaxInstantAhead(manager, groupId);
    return (await this.revisions.insert(manager, { groupId, kind, actor, snapshot, effectiveFrom }, notBefore)).revision;
  }

  /** The revision in force at `at` (now when absent), undefined for a group without revisions. */
  inForceAt(manager: EntityManager | undefined, groupId: string, at?: Date): Promise<RevisionContent | undefined> {
    return this.revisions.inForceAt(groupId, at, manager);
  }

  /** Whether the revision is not cancelled and takes effect after `instant`. */
  async takesEffectAfter(manager: EntityManager, groupId: string, revision: number, instant: Date): Promise<boolean> {
    const row = await this.revisions.one(groupId, revision, manager);
    return !!row && !row.cancelled_at && row.effective_from.getTime() > instant.getTime();
  }

  /**
   * The groups as the API shows them: the content of the revision in force (a scheduled revision that took effect
   * since the row was last written replaces the row's), its number and the scheduled revisions.
   */
  async responses(groups: FiscalGroupEntity[]): Promise<FiscalGroupResponseDto[]> {
    const rows = await this.revisions.current(groups.map((group) => group.id));
    return groups.map((group) => {
      const own = rows.filter((row) => row.fiscal_group_id === group.id);
      const inForce = own.find((row) => !row.scheduled);
      const content = inForce?.snapshot && inForce.revision !== group.revision ? inForce.snapshot : undefined;
      const shown = content
        ? Object.assign(Object.create(Object.getPrototypeOf(group) as object) as FiscalGroupEntity, group, contentOf(content))
        : group;
      return {
        ...toFiscalGroupResponse(shown),
        revision: inForce?.revision ?? group.revision,
        scheduled: own
          .filter((row) => row.scheduled)
          .map((row) => ({
            revision: row.revision,
            effectiveFrom: row.effective_from.toISOString(),
            actor: actorOf(row.actor_type, row.actor_id, row.actor_name),
          })),
      };
    });
  }

  /** A group's revisions, newest first; a deleted group's stay readable. 404 for an id no revision names. */
  async list(groupId: string, page = 1, pageSize = 20): Promise<Page<FiscalGroupRevisionDto>> {
    const { rows, total } = await this.revisions.page(groupId, pageSize, (page - 1) * pageSize);
    if (total === 0) throw ApiError.notFound(`Fiscal group ${groupId} has no revisions`);
    const now = Date.now();
    return pageOf(
      rows.map((row) => toRevisionDto(row, now)),
      total,
      page,
      pageSize,
    );
  }

  async one(groupId: string, revision: number): Promise<FiscalGroupRevisionDetailDto> {
    const row = await this.revisions.one(groupId, revision);
    if (!row) throw ApiError.notFound(`Fiscal group ${groupId} has no revision ${revision}`);
    const { stores, ...rest } = row.snapshot;
    return {
      ...toRevisionDto(row, Date.now()),
      group: { ...rest, stores, settings: settingsOf(rest.settings) } as never,
    };
  }

  /**
   * Cancels a revision not yet in force: 404 when unknown, 409 `CONFLICT` when already cancelled, `REVISION_IN_FORCE`
   * once it took effect, `REVISION_IN_USE` when a stored order (dated ahead of its receipt) names it. Under the group's
   * revisions lock: an order being stored at that moment either commits first (and is found) or is stored after the
   * cancellation, which its storing statement then sees (and the order is taxed again).
   */
  async cancel(groupId: string, revision: number, audit: AuditContext): Promise<void> {
    try {
      await this.transactions.run(async (manager) => {
        await this.revisions.lock(manager, groupId);
        const row = await this.revisions.one(groupId, revision, manager);
        if (!row) throw ApiError.notFound(`Fiscal group ${groupId} has no revision ${revision}`);
        if (row.cancelled_at) throw ApiError.conflict(`Revision ${revision} of fiscal group ${groupId} is already cancelled`);
        const ref = { fiscalGroupId: groupId, revision, effectiveFrom: row.effective_from };
        if (row.effective_from.getTime() <= Date.now()) throw revisionInForce(ref);
        if ((await this.orders.revisionsNamedFrom(manager, groupId, row.effective_from)).has(revision)) throw revisionInUse(ref);
        // The database's clock decides at the last moment.
        if (!(await this.revisions.cancel(manager, groupId, revision, audit.actor))) throw revisionInForce(ref);
        await this.audit.record(manager, audit, {
          action: 'cancel-revision',
          target: { type: 'fiscal-group', id: groupId },
          changes: { [`revisions.${revision}`]: { before: 'scheduled', after: 'cancelled' } },
        });
      });
    } finally {
      this.lookup.invalidate();
    }
  }

  /** The group is deleted: what was scheduled will never apply, but for the revisions stored orders name (they stay). */
  async cancelScheduled(manager: EntityManager, groupId: string, actor: AuditActor | null): Promise<void> {
    await this.revisions.lock(manager, groupId);
    const named = await this.orders.revisionsNamedFrom(manager, groupId, new Date());
    await this.revisions.cancelScheduled(manager, groupId, actor, named);
  }
}
