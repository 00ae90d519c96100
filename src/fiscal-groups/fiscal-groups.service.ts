import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, type EntityManager, type Repository } from 'typeorm';
import { AuditLog } from '../audit/audit-log.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { ApiError, type ErrorDetail } from '../common/errors/api-error.js';
import { pageOf, type Page } from '../common/http/pagination.js';
import { uniqueViolation } from '../database/postgres-errors.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import type { CreateFiscalGroupDto, FiscalGroupResponseDto, StoreRefDto, UpdateFiscalGroupDto } from './dto/fiscal-group.dto.js';
import { sentSettings } from './dto/fiscal-group.mapper.js';
import { contentOf, FiscalGroupRevisions, snapshotOf } from './fiscal-group-revisions.service.js';
import type { ListFiscalGroupsQuery } from './dto/list-fiscal-groups.query.js';
import { externalIdInUse, storeInAnotherGroup } from './dto/fiscal-group-errors.dto.js';
import { FiscalGroupEntity, storeRefsOf, type StoreRef } from './fiscal-group.entity.js';
import { FiscalGroupStoresRepository } from './fiscal-group-stores.repository.js';
import { csvProblemCount, csvToTaxMatrix } from './tax-matrix-csv.js';
import { auditedGroup, fiscalGroupEvent } from './fiscal-group-audit.js';
import type { TaxMatrix } from '../tax-engine/tax-rule.js';
import type { FiscalGroupSnapshot } from '../tax-engine/tax-engine.js';
import { normalizeTaxMatrix, validateTaxMatrix } from './tax-rule-validation.js';

/** Checks of a fiscal group body that class-validator cannot express; merged into the same 400. */
export function fiscalGroupBodyChecks(body: Record<string, unknown>): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (body.taxMatrix !== undefined) problems.push(...validateTaxMatrix(body.taxMatrix));
  if (Array.isArray(body.stores)) {
    const seen = new Map<string, number>();
    body.stores.forEach((store, index) => {
      const id = (store as { store_id?: unknown } | null)?.store_id;
      if (typeof id !== 'string') return;
      if (id !== id.trim()) problems.push({ field: `stores.${index}.store_id`, problem: 'must not start or end with spaces' });
      if (seen.has(id))
        problems.push({ field: `stores.${index}.store_id`, problem: `store "${id}" is already listed at stores.${seen.get(id)}` });
      else seen.set(id, index);
    });
  }
  return problems;
}

@Injectable()
export class FiscalGroupsService {
  constructor(
    @InjectRepository(FiscalGroupEntity) private readonly groups: Repository<FiscalGroupEntity>,
    private readonly transactions: TransactionRunner,
    private readonly lookup: FiscalLookupService,
    private readonly stores: FiscalGroupStoresRepository,
    private readonly audit: AuditLog,
    private readonly revisions: FiscalGroupRevisions,
  ) {}

  /** The groups as the API shows them: the revision in force and the scheduled ones. */
  async responses(groups: FiscalGroupEntity[]): Promise<FiscalGroupResponseDto[]> {
    return this.revisions.responses(groups);
  }

  async response(group: FiscalGroupEntity): Promise<FiscalGroupResponseDto> {
    return (await this.revisions.responses([group]))[0]!;
  }

  async create(dto: CreateFiscalGroupDto, audit: AuditContext): Promise<FiscalGroupEntity> {
    return this.withConflictsExplained((written) =>
      this.write(async (manager) => {
        const group = manager.create(FiscalGroupEntity, {
          externalId: dto.externalId ?? null,
          name: dto.name,
          uf: dto.uf,
          taxRegime: dto.taxRegime ?? null,
          taxMatrix: normalizeTaxMatrix(dto.taxMatrix as never),
          settings: sentSettings(dto.settings),
          revision: 1,
        });
        written.externalId = group.externalId;
        await manager.insert(FiscalGroupEntity, group);
        await this.claimStores(manager, group.id, dto.stores);
        const created = await manager.findOneByOrFail(FiscalGroupEntity, { id: group.id });
        await this.revisions.record(manager, group.id, 'create', snapshotOf(created, storeRefs(dto.stores)), audit.actor);
        const after = auditedGroup(created, storeRefs(dto.stores));
        await this.audit.record(manager, audit, ...fiscalGroupEvent('create', group.id, undefined, after));
        return created;
      }),
    );
  }

  /**
   * Applies the properties sent. With `effectiveFrom`, writes a revision that takes effect then, built on the revision
   * that will be in force just before it; the group and its stores stay as they are. See "Changes scheduled for a
   * date" in docs/fiscal-configuration-over-time.md.
   */
  async update(id: string, dto: UpdateFiscalGroupDto, audit: AuditContext, effectiveFrom?: Date): Promise<FiscalGroupEntity> {
    if (effectiveFrom) return this.schedule(id, audit, effectiveFrom, 'update', dto);
    return this.withConflictsExplained((written) =>
      this.write(async (manager) => {
        const group = await this.lockedGroup(manager, id);
        await this.catchUp(manager, group);
        const storesBefore = await this.stores.listOf(manager, id);
        const before = auditedGroup(group, storesBefore);
        const contentBefore = snapshotOf(group, storesBefore);
        applyUpdate(group, dto);
        written.externalId = group.externalId;
        if (dto.stores !== undefined) {
          await this.stores.releaseAll(manager, id);
          await this.claimStores(manager, id, dto.stores);
        }
        // The stores are rows of their own table: a new list is a change of the group all the same.
        const storesAfter = dto.stores === undefined ? storesBefore : storeRefs(dto.stores);
        // A write that changes nothing makes no revision (nor an audit event).
        const contentAfter = snapshotOf(group, storesAfter);
        if (!isDeepStrictEqual(contentBefore, contentAfter))
          group.revision = await this.revisions.record(manager, id, 'update', contentAfter, audit.actor);
        await manager.save(FiscalGroupEntity, group);
        if (!sameStores(storesBefore, storesAfter)) await this.stores.touchGroup(manager, id);
        const updated = await manager.findOneByOrFail(FiscalGroupEntity, { id });
        await this.audit.record(manager, audit, ...fiscalGroupEvent('update', id, before, auditedGroup(updated, storesAfter)));
        return updated;
      }),
    );
  }

  /** Replaces the whole matrix from a CSV text after validating every row; nothing changes on any error. */
  async importTaxMatrixCsv(id: string, csv: string, audit: AuditContext, effectiveFrom?: Date): Promise<FiscalGroupEntity> {
    const { matrix, problems, stoppedAt } = csvToTaxMatrix(csv);
    if (problems.length > 0)
      throw ApiError.validation(
        problems,
        `The CSV has ${csvProblemCount(problems.length, stoppedAt)}; nothing was changed. ${problems
          .slice(0, 5)
          .map((p) => `${p.field}: ${p.problem}`)
          .join('; ')}`,
      );
    if (effectiveFrom) return this.schedule(id, audit, effectiveFrom, 'import-matrix', { taxMatrix: matrix as never });
    return this.replaceTaxMatrix(id, matrix, audit);
  }

  /**
   * Replaces the whole matrix. `audit` is the request's context, or the CLI's (its import, run by an
   * operator on the server); recorded in the audit log whenever it is given.
   */
  async replaceTaxMatrix(id: string, matrix: TaxMatrix, audit: AuditContext | undefined): Promise<FiscalGroupEntity> {
    return this.write(async (manager) => {
      const group = await this.lockedGroup(manager, id);
      await this.catchUp(manager, group);
      const before = group.taxMatrix;
      group.taxMatrix = normalizeTaxMatrix(matrix as never);
      const stores = await this.stores.listOf(manager, id);
      if (!isDeepStrictEqual(before, group.taxMatrix))
        group.revision = await this.revisions.record(manager, id, 'import-matrix', snapshotOf(group, stores), audit?.actor ?? null);
      await manager.save(FiscalGroupEntity, group);
      const updated = await manager.findOneByOrFail(FiscalGroupEntity, { id });
      if (audit) {
        const was = { ...auditedGroup(updated, stores), taxMatrix: before };
        await this.audit.record(manager, audit, ...fiscalGroupEvent('import-matrix', id, was, auditedGroup(updated, stores)));
      }
      return updated;
    });
  }

  async remove(id: string, audit: AuditContext): Promise<void> {
    await this.write(async (manager) => {
      const group = await this.lockedGroup(manager, id);
      await this.catchUp(manager, group);
      const stores = await this.stores.listOf(manager, id);
      const before = auditedGroup(group, stores);
      // The group's history stays readable; what was scheduled will never apply.
      await this.revisions.cancelScheduled(manager, id, audit.actor);
      await this.revisions.record(manager, id, 'delete', snapshotOf(group, stores), audit.actor);
      await manager.delete(FiscalGroupEntity, { id });
      await this.audit.record(manager, audit, ...fiscalGroupEvent('delete', id, before, undefined));
    });
  }

  /** The names of the groups among `ids` that still exist, by id (for reports, which name the groups they sum). */
  async namesOf(ids: string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const groups = await this.groups.find({ select: { id: true, name: true }, where: { id: In(ids) } });
    return new Map(groups.map((group) => [group.id, group.name]));
  }

  async findById(id: string): Promise<FiscalGroupEntity> {
    const group = await this.groups.findOneBy({ id });
    if (!group) throw notFound(id);
    return group;
  }

  /**
   * The group holding a store, for the admin route that looks it up (the order path reads through
   * FiscalLookupService and its cache instead): one indexed read through the store ownership table.
   */
  async findByStore(storeId: string): Promise<FiscalGroupEntity | undefined> {
    const group = await this.groups
      .createQueryBuilder('g')
      .innerJoin('fiscal_group_store', 's', 's.fiscal_group_id = g.id')
      .leftJoinAndSelect('g.stores', 'held')
      .where('s.store_id = :storeId', { storeId })
      .getOne();
    return group ?? undefined;
  }

  /**
   * The group as the order path taxes with it now, and the stores it holds: plain types for readers
   * outside this module (the impact preview).
   */
  async taxingSnapshot(id: string): Promise<{ group: FiscalGroupSnapshot; storeIds: string[] }> {
    const row = await this.findById(id);
    // The revision in force, which a scheduled one may have replaced since the row was written.
    const inForce = await this.revisions.inForceAt(undefined, id);
    const group = inForce
      ? Object.assign(Object.create(FiscalGroupEntity.prototype) as FiscalGroupEntity, row, contentOf(inForce.snapshot))
      : row;
    return {
      group: {
        id: group.id,
        externalId: group.externalId,
        uf: group.uf,
        taxRegime: group.taxRegime,
        taxMatrix: group.taxMatrix,
        settings: group.settings ?? {},
      },
      storeIds: storeRefsOf(row).map((store) => store.store_id),
    };
  }

  /** Which of these stores a group holds now. */
  async heldStores(storeIds: string[]): Promise<Set<string>> {
    if (storeIds.length === 0) return new Set();
    return new Set((await this.stores.holders(undefined, storeIds)).map((holder) => holder.storeId));
  }

  async list(query: ListFiscalGroupsQuery): Promise<Page<FiscalGroupEntity>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 20;
    const builder = this.groups.createQueryBuilder('g');
    if (query.uf) builder.andWhere('g.uf = :uf', { uf: query.uf });
    if (query.storeId) {
      builder.andWhere('EXISTS (SELECT 1 FROM fiscal_group_store s WHERE s.fiscal_group_id = g.id AND s.store_id = :storeId)', {
        storeId: query.storeId,
      });
    }
    const [items, total] = await builder
      .orderBy('g.created_at', 'DESC')
      .addOrderBy('g.id', 'DESC')
      .skip((page - 1) * pageSize)
      .take(pageSize)
      .getManyAndCount();
    await this.stores.attachTo(items);
    return pageOf(items, total, page, pageSize);
  }

  /** A write transaction, after which this instance's cached lookups are dropped (others hear it through NOTIFY). */
  private async write<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.transactions.run(work);
    } finally {
      this.lookup.invalidate();
    }
  }

  /**
   * A write to a group whose scheduled revision has taken effect since the row was last written starts from that
   * revision: the row takes its content first.
   */
  private async catchUp(manager: EntityManager, group: FiscalGroupEntity): Promise<void> {
    const inForce = await this.revisions.inForceAt(manager, group.id);
    if (!inForce || inForce.revision === group.revision) return;
    // The row's own revision still to take effect (an immediate write waiting for an order dated ahead): it is ahead.
    if (group.revision !== null && (await this.revisions.takesEffectAfter(manager, group.id, group.revision, inForce.effectiveFrom)))
      return;
    Object.assign(group, contentOf(inForce.snapshot), { revision: inForce.revision });
  }

  /** A revision written for a later instant: nothing else changes now (the group's row, its stores, the cache's content). */
  private async schedule(
    id: string,
    audit: AuditContext,
    effectiveFrom: Date,
    kind: 'update' | 'import-matrix',
    dto: UpdateFiscalGroupDto,
  ): Promise<FiscalGroupEntity> {
    return this.write(async (manager) => {
      const group = await this.lockedGroup(manager, id);
      const stores = await this.stores.listOf(manager, id);
      const base = (await this.revisions.inForceAt(manager, id, effectiveFrom))?.snapshot ?? snapshotOf(group, stores);
      const problems: ErrorDetail[] = [];
      if (dto.stores !== undefined && !sameStores(storeRefs(dto.stores), stores))
        problems.push({ field: 'stores', problem: 'store moves take effect at once: change the stores without effectiveFrom' });
      // The row holds the external id in force: it changes at once, never by a revision.
      if (dto.externalId !== undefined && dto.externalId !== group.externalId)
        problems.push({ field: 'externalId', problem: 'the external id changes at once: change it without effectiveFrom' });
      if (problems.length > 0) throw ApiError.validation(problems);
      const built = Object.assign(Object.create(FiscalGroupEntity.prototype) as FiscalGroupEntity, group, contentOf(base));
      const planned = Object.assign(Object.create(FiscalGroupEntity.prototype) as FiscalGroupEntity, built);
      applyUpdate(planned, dto);
      const snapshot = snapshotOf(planned, stores);
      // Like a write made at once, one that changes nothing makes no revision (nor an audit event).
      if (isDeepStrictEqual(snapshotOf(built, stores), snapshot)) return manager.findOneByOrFail(FiscalGroupEntity, { id });
      const revision = await this.revisions.record(manager, id, kind, snapshot, audit.actor, effectiveFrom);
      const changes = fiscalGroupEvent('update', id, auditedGroup(built, stores), auditedGroup(planned, stores));
      for (const event of changes) {
        await this.audit.record(manager, audit, {
          ...event,
          action: 'schedule-revision',
          changes: {
            ...event.changes,
            effectiveFrom: { before: null, after: effectiveFrom.toISOString() },
            revision: { before: null, after: revision },
          },
        });
      }
      return manager.findOneByOrFail(FiscalGroupEntity, { id });
    });
  }

  private async lockedGroup(manager: EntityManager, id: string): Promise<FiscalGroupEntity> {
    // Without the stores: FOR UPDATE cannot lock the outer-joined side; they are read after the write.
    const group = await manager.findOne(FiscalGroupEntity, {
      where: { id },
      lock: { mode: 'pessimistic_write' },
      loadEagerRelations: false,
    });
    if (!group) throw notFound(id);
    return group;
  }

  /**
   * Inserts the ownership rows; a store already held by another group is not inserted
   * (a concurrent claim waits for the first one to commit), and the whole write is refused.
   */
  private async claimStores(manager: EntityManager, groupId: string, stores: StoreRefDto[]): Promise<void> {
    const ids = stores.map((store) => store.store_id);
    const claimed = await this.stores.claim(manager, groupId, storeRefs(stores));
    if (claimed.size === ids.length) return;
    const refused = ids.filter((id) => !claimed.has(id));
    const holders = new Map((await this.stores.holders(manager, refused)).map((holder) => [holder.storeId, holder]));
    throw storeInAnotherGroup(
      refused.map((storeId) => {
        const holder = holders.get(storeId);
        return { storeId, holder: holder && { id: holder.groupId, name: holder.groupName } };
      }),
    );
  }

  /**
   * A taken external id as its own 409, naming the group that holds it. The work says which external id it wrote (the
   * group's own once the body is applied, whether or not the body sent one).
   */
  private async withConflictsExplained<T>(work: (written: { externalId: string | null }) => Promise<T>): Promise<T> {
    const written: { externalId: string | null } = { externalId: null };
    try {
      return await work(written);
    } catch (error) {
      const externalId = written.externalId;
      if (uniqueViolation(error) === 'uq_fiscal_group_external_id' && externalId !== null) {
        const other = await this.groups.findOne({ where: { externalId }, select: { id: true } });
        throw externalIdInUse(externalId, other?.id);
      }
      throw error;
    }
  }
}

/** The properties sent, applied to the group (`taxMatrix` and `stores` replace; `settings` merge). */
function applyUpdate(group: FiscalGroupEntity, dto: UpdateFiscalGroupDto): void {
  if (dto.externalId !== undefined) group.externalId = dto.externalId;
  if (dto.name !== undefined) group.name = dto.name;
  if (dto.uf !== undefined) group.uf = dto.uf;
  if (dto.taxRegime !== undefined) group.taxRegime = dto.taxRegime;
  if (dto.taxMatrix !== undefined) group.taxMatrix = normalizeTaxMatrix(dto.taxMatrix as never);
  if (dto.settings !== undefined) group.settings = { ...group.settings, ...sentSettings(dto.settings) };
}

function storeRefs(stores: StoreRefDto[]): StoreRef[] {
  return stores.map((store) => ({ store_id: store.store_id, store_name: store.store_name }));
}

function sameStores(a: StoreRef[], b: StoreRef[]): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function notFound(id: string): ApiError {
  return ApiError.notFound(`Fiscal group ${id} not found`);
}
