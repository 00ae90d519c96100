import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { changedFields } from '../audit/audit-changes.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { ApiError } from '../common/errors/api-error.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { uniqueViolation } from '../database/postgres-errors.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import { externalProductIdInUse, productIdExists } from './dto/product-category-errors.dto.js';
import type { CreateProductFiscalCategoryDto, UpdateProductFiscalCategoryDto } from './dto/product-fiscal-category.dto.js';
import { ProductFiscalCategoryEntity } from './product-fiscal-category.entity.js';
import { ProductCategoryHistoryRepository, type CategoryHistoryRow } from './product-category-history.repository.js';
import type { ProductCategoryHistoryEntryDto, ProductCategoryHistoryFieldsDto } from './dto/product-category-history.dto.js';
import { pageOf, type Page } from '../common/http/pagination.js';

/** The fields of a category the audit log compares. */
const AUDITED_FIELDS = ['productName', 'ncm', 'externalProductId'] as const;

export function auditEvent(action: 'create' | 'update' | 'delete', productId: string, before?: Audited, after?: Audited) {
  return {
    action,
    target: { type: 'product-fiscal-category' as const, id: productId },
    changes: changedFields(before, after, [...AUDITED_FIELDS]),
  };
}

type Audited = Pick<ProductFiscalCategoryEntity, (typeof AUDITED_FIELDS)[number]>;

function fieldsOf(
  productName: string | null,
  ncm: string | null,
  externalProductId: string | null,
): ProductCategoryHistoryFieldsDto | null {
  // A side the change did not have (before a creation, after a deletion) keeps no NCM.
  return ncm === null ? null : { productName: productName ?? '', ncm, externalProductId };
}

function toHistoryEntry(row: CategoryHistoryRow): ProductCategoryHistoryEntryDto {
  return {
    productId: row.product_id,
    kind: row.kind,
    at: row.changed_at.toISOString(),
    actor:
      row.actor_type && row.actor_id !== null ? { type: row.actor_type, id: row.actor_id, name: row.actor_name ?? row.actor_id } : null,
    before: fieldsOf(row.product_name_before, row.ncm_before, row.external_product_id_before),
    after: fieldsOf(row.product_name_after, row.ncm_after, row.external_product_id_after),
  };
}

@Injectable()
export class ProductCategoriesService {
  constructor(
    @InjectRepository(ProductFiscalCategoryEntity) private readonly categories: Repository<ProductFiscalCategoryEntity>,
    private readonly lookup: FiscalLookupService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditLog,
    private readonly historyRows: ProductCategoryHistoryRepository,
  ) {}

  async create(dto: CreateProductFiscalCategoryDto, audit: AuditContext): Promise<ProductFiscalCategoryEntity> {
    const created: Audited = { productName: dto.productName, ncm: dto.ncm, externalProductId: dto.externalProductId ?? null };
    try {
      await this.write(audit, async (manager) => {
        await manager.insert(ProductFiscalCategoryEntity, { productId: dto.productId, ...created });
        await this.audit.record(manager, audit, auditEvent('create', dto.productId, undefined, created));
      });
    } catch (error) {
      throw await this.explainConflict(error, dto.productId, dto.externalProductId);
    }
    return this.findOne(dto.productId);
  }

  list(): Promise<ProductFiscalCategoryEntity[]> {
    return this.categories.find({ order: { productId: 'ASC' } });
  }

  async findOne(productId: string): Promise<ProductFiscalCategoryEntity> {
    const category = await this.categories.findOneBy({ productId });
    if (!category) throw ApiError.notFound(`Product fiscal category ${productId} not found`);
    return category;
  }

  /** The category's history, newest first; 404 only for a product id that never had a category (a deleted one keeps its history). */
  async history(productId: string, page = 1, pageSize = 20): Promise<Page<ProductCategoryHistoryEntryDto>> {
    const { rows, total } = await this.historyRows.page(productId, pageSize, (page - 1) * pageSize);
    if (total === 0) throw ApiError.notFound(`Product fiscal category ${productId} has no history`);
    return pageOf(rows.map(toHistoryEntry), total, page, pageSize);
  }

  async update(productId: string, dto: UpdateProductFiscalCategoryDto, audit: AuditContext): Promise<ProductFiscalCategoryEntity> {
    const changes: Partial<ProductFiscalCategoryEntity> = {};
    if (dto.productName !== undefined) changes.productName = dto.productName;
    if (dto.ncm !== undefined) changes.ncm = dto.ncm;
    if (dto.externalProductId !== undefined) changes.externalProductId = dto.externalProductId;
    if (Object.keys(changes).length === 0) return this.findOne(productId);
    try {
      await this.write(audit, async (manager) => {
        const before = await this.locked(manager, productId);
        await manager.update(ProductFiscalCategoryEntity, { productId }, changes);
        const event = auditEvent('update', productId, before, { ...before, ...changes });
        if (Object.keys(event.changes).length > 0) await this.audit.record(manager, audit, event);
      });
    } catch (error) {
      throw await this.explainConflict(error, productId, dto.externalProductId ?? undefined);
    }
    return this.findOne(productId);
  }

  async remove(productId: string, audit: AuditContext): Promise<void> {
    await this.write(audit, async (manager) => {
      const before = await this.locked(manager, productId);
      await manager.delete(ProductFiscalCategoryEntity, { productId });
      await this.audit.record(manager, audit, auditEvent('delete', productId, before, undefined));
    });
  }

  /**
   * A write transaction, its actor named first for the history trigger; afterwards this instance's cached
   * lookups are dropped (others hear it through NOTIFY).
   */
  private async write<T>(audit: AuditContext, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    try {
      return await this.transactions.run(async (manager) => {
        await this.historyRows.nameActor(manager, audit.actor);
        return work(manager);
      });
    } finally {
      this.lookup.invalidate();
    }
  }

  /** The category's audited fields, its row locked until the transaction ends; 404 when there is none. */
  private async locked(manager: EntityManager, productId: string): Promise<Audited> {
    const category = await manager.findOne(ProductFiscalCategoryEntity, { where: { productId }, lock: { mode: 'pessimistic_write' } });
    if (!category) throw ApiError.notFound(`Product fiscal category ${productId} not found`);
    return { productName: category.productName, ncm: category.ncm, externalProductId: category.externalProductId };
  }

  private async explainConflict(error: unknown, productId: string, externalProductId: string | null | undefined): Promise<unknown> {
    const constraint = uniqueViolation(error);
    if (constraint === 'product_fiscal_category_pkey') return productIdExists(productId);
    if (constraint === 'uq_product_fiscal_category_external_product_id') {
      const other = await this.categories.findOne({ where: { externalProductId: externalProductId! }, select: { productId: true } });
      return externalProductIdInUse(externalProductId!, other?.productId);
    }
    return error;
  }
}
