import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import type { AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { ApiError, type ErrorDetail } from '../common/errors/api-error.js';
import { uniqueViolation } from '../database/postgres-errors.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { FiscalLookupService } from '../fiscal-lookup/fiscal-lookup.service.js';
import { CSV_PROBLEMS_LISTED } from '../fiscal-groups/tax-matrix-csv.js';
import { NcmService } from '../ncm/ncm.service.js';
import { externalProductIdInUse, productIdExists } from './dto/product-category-errors.dto.js';
import type { ProductCategoryImportReportDto } from './dto/product-category-import.dto.js';
import {
  categoriesCsv,
  decodeCsvFile,
  planCategoryImport,
  readCategoryCsv,
  type CategoryFields,
  type CategoryImportProblem,
  type CategoryImportRow,
  type CategoryImportWarningCode,
} from './product-categories-csv.js';
import { auditEvent } from './product-categories.service.js';
import { ProductCategoryHistoryRepository } from './product-category-history.repository.js';
import { ProductFiscalCategoryEntity } from './product-fiscal-category.entity.js';

/** Rows per insert statement (the audit rows of a batch go in one statement too). */
const BATCH = 1000;

const WARNING_OF_STATUS: Record<string, CategoryImportWarningCode | undefined> = {
  unknown: 'NCM_UNKNOWN',
  expired: 'NCM_EXPIRED',
  'not-yet-valid': 'NCM_NOT_YET_VALID',
};

/** The categories as CSV: the export, and the import with its dry run. See "Product categories as a spreadsheet" in docs/api-decisions.md. */
@Injectable()
export class ProductCategoriesCsvService {
  constructor(
    @InjectRepository(ProductFiscalCategoryEntity) private readonly categories: Repository<ProductFiscalCategoryEntity>,
    private readonly lookup: FiscalLookupService,
    private readonly transactions: TransactionRunner,
    private readonly audit: AuditLog,
    private readonly historyRows: ProductCategoryHistoryRepository,
    private readonly ncm: NcmService,
  ) {}

  async exportCsv(): Promise<string> {
    return categoriesCsv(await this.categories.find({ order: { productId: 'ASC' } }));
  }

  /**
   * What the file changes, row by row. A dry run changes nothing; a real run writes every row or, when any row has a
   * problem, nothing (400 with the problems). A file that cannot be read is a 400 either way.
   */
  async importCsv(body: Buffer, dryRun: boolean, audit: AuditContext): Promise<ProductCategoryImportReportDto> {
    const decoded = decodeCsvFile(body);
    if ('problem' in decoded) throw ApiError.validation([decoded.problem], `The file cannot be read: ${decoded.problem.problem}`);
    const read = readCategoryCsv(decoded.text);
    if (read.fileProblems.length) {
      throw ApiError.validation(
        read.fileProblems,
        `The CSV cannot be read; nothing was changed. ${read.fileProblems.map((p) => `${p.field}: ${p.problem}`).join('; ')}`,
      );
    }
    if (dryRun) return this.report(planCategoryImport(read, storedFields(await this.categories.find())), true, false, decoded.encoding);

    let rows: CategoryImportRow[] = [];
    try {
      await this.write(audit, async (manager) => {
        // Locked: an import sees the categories as they are when it writes, and two imports do not interleave row by row.
        const stored = storedFields(await manager.find(ProductFiscalCategoryEntity, { lock: { mode: 'pessimistic_write' } }));
        rows = planCategoryImport(read, stored);
        const refused = rows.filter((row) => row.outcome === 'error');
        if (refused.length) throw rowsRefused(refused);
        await this.apply(manager, rows, stored, audit);
      });
    } catch (error) {
      throw await this.explainConflict(error);
    }
    return this.report(rows, false, true, decoded.encoding);
  }

  private async apply(manager: EntityManager, rows: CategoryImportRow[], stored: Map<string, CategoryFields>, audit: AuditContext) {
    const fieldsOf = (row: CategoryImportRow): CategoryFields => {
      const after = { ...(stored.get(row.productId!) ?? { productName: '', ncm: '', externalProductId: null }) };
      for (const change of row.changes) (after as Record<string, string | null>)[change.field] = change.after;
      return after;
    };
    const created = rows.filter((row) => row.outcome === 'created');
    const changed = rows.filter((row) => row.outcome === 'changed');
    // An external id the file moves from one of its products to another: its first holder lets it go first, or the
    // unique index would refuse the second write (the history then shows the first holder's id cleared, then set).
    const wanted = new Set(
      rows.flatMap((row) => row.changes.filter((c) => c.field === 'externalProductId' && c.after !== null).map((c) => c.after!)),
    );
    const releasing = changed.filter((row) => {
      const before = stored.get(row.productId!)!.externalProductId;
      return before !== null && wanted.has(before) && row.changes.some((c) => c.field === 'externalProductId');
    });
    for (const row of releasing)
      await manager.update(ProductFiscalCategoryEntity, { productId: row.productId! }, { externalProductId: null });
    for (let start = 0; start < created.length; start += BATCH) {
      const batch = created.slice(start, start + BATCH);
      await manager.insert(
        ProductFiscalCategoryEntity,
        batch.map((row) => ({ productId: row.productId!, ...fieldsOf(row) })),
      );
      await this.audit.record(manager, audit, ...batch.map((row) => auditEvent('create', row.productId!, undefined, fieldsOf(row))));
    }
    for (const row of changed) {
      await manager.update(ProductFiscalCategoryEntity, { productId: row.productId! }, fieldsOf(row));
    }
    for (let start = 0; start < changed.length; start += BATCH) {
      const batch = changed.slice(start, start + BATCH);
      await this.audit.record(
        manager,
        audit,
        ...batch.map((row) => auditEvent('update', row.productId!, stored.get(row.productId!), fieldsOf(row))),
      );
    }
  }

  private report(
    rows: CategoryImportRow[],
    dryRun: boolean,
    applied: boolean,
    encoding: 'utf-8' | 'windows-1252',
  ): ProductCategoryImportReportDto {
    const counts = { created: 0, changed: 0, unchanged: 0, error: 0 };
    for (const row of rows) counts[row.outcome] += 1;
    return { dryRun, applied, encoding, counts, rows: rows.map((row) => ({ ...row, warnings: this.ncmWarnings(row) })) };
  }

  /** An NCM the installed table lacks or no longer holds valid: said, not refused (the table may be older than the code). */
  private ncmWarnings(row: CategoryImportRow): CategoryImportProblem<CategoryImportWarningCode>[] {
    if (row.outcome === 'error') return [];
    const ncm = row.changes.find((change) => change.field === 'ncm')?.after;
    if (!ncm) return [];
    const { status } = this.ncm.describe(ncm);
    const code = WARNING_OF_STATUS[status];
    return code
      ? [
          {
            code,
            column: 'ncm',
            problem: `NCM ${ncm} is ${status === 'unknown' ? 'not in the NCM table' : status} (${this.ncm.version()?.updatedAt ?? ''})`,
          },
        ]
      : [];
  }

  private async write(audit: AuditContext, work: (manager: EntityManager) => Promise<void>): Promise<void> {
    try {
      await this.transactions.run(async (manager) => {
        await this.historyRows.nameActor(manager, audit.actor);
        await work(manager);
      });
    } finally {
      this.lookup.invalidate();
    }
  }

  /** A category written by someone else while the import ran: the same domain codes as a single write's. */
  private async explainConflict(error: unknown): Promise<unknown> {
    const constraint = uniqueViolation(error);
    const driver = ((error as { driverError?: unknown }).driverError ?? error) as { detail?: string };
    // PostgreSQL names the key that clashed: `Key (external_product_id)=(SKU-1) already exists.`
    const key = /\(([^)]*)\)=\(([^)]*)\)/.exec(driver.detail ?? '');
    if (constraint === 'product_fiscal_category_pkey') return productIdExists(key?.[2] ?? '');
    if (constraint === 'uq_product_fiscal_category_external_product_id') {
      const external = key?.[2] ?? '';
      const other = await this.categories.findOne({ where: { externalProductId: external }, select: { productId: true } });
      return externalProductIdInUse(external, other?.productId);
    }
    return error;
  }
}

function storedFields(categories: ProductFiscalCategoryEntity[]): Map<string, CategoryFields> {
  return new Map(categories.map((c) => [c.productId, { productName: c.productName, ncm: c.ncm, externalProductId: c.externalProductId }]));
}

/** A real import with rows in error: a 400 naming each problem by line and column, at most the first 100. */
function rowsRefused(refused: CategoryImportRow[]): ApiError {
  const details: ErrorDetail[] = refused.flatMap((row) =>
    row.problems.map((problem) =>
      problem.column === null
        ? { field: `line ${row.line}`, problem: problem.problem, line: row.line }
        : { field: `line ${row.line} ${problem.column}`, problem: problem.problem, line: row.line, column: problem.column },
    ),
  );
  return ApiError.validation(
    details.slice(0, CSV_PROBLEMS_LISTED),
    `${refused.length} row(s) of the CSV cannot be imported (${details.length} problem(s)${details.length > CSV_PROBLEMS_LISTED ? `, the first ${CSV_PROBLEMS_LISTED} listed` : ''}); nothing was changed. A dry run (dryRun=true) lists every row.`,
  );
}
