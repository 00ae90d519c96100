import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import writeXlsxFile, { type Row } from 'write-excel-file/node';
import { ApiError } from '../common/errors/api-error.js';
import { FiscalGroupsService } from '../fiscal-groups/fiscal-groups.service.js';
import { OrderReadsRepository, type OrderExportRow } from '../orders/order-reads.repository.js';
import { OrderTaxReportRepository, type TaxReportRow } from '../orders/order-tax-report.repository.js';
import { toOrderListFilter } from '../orders/orders-query.service.js';
import type { OrderExportQuery } from './dto/order-export.query.js';
import { DEFAULT_REPORT_TIME_ZONE, MAX_REPORT_DAYS, type TaxReportQuery } from './dto/tax-report.query.js';
import type { TaxReportDto, TaxReportRowDto, TaxReportTotalsDto } from './dto/tax-report.dto.js';
import { centsText, csvLine } from './report-csv.js';

/** The money columns of a report row, in the order of the CSV and the spreadsheet. */
const MONEY = [
  ['icmsBase', 'icms_base_cents'],
  ['icmsValue', 'icms_cents'],
  ['fcpValue', 'fcp_cents'],
  ['pisBase', 'pis_base_cents'],
  ['pisValue', 'pis_cents'],
  ['cofinsBase', 'cofins_base_cents'],
  ['cofinsValue', 'cofins_cents'],
  ['totalTax', 'total_tax_cents'],
] as const satisfies ReadonlyArray<readonly [keyof TaxReportTotalsDto, keyof TaxReportRow]>;

const TAX_REPORT_COLUMNS = ['storeId', 'fiscalGroupId', 'fiscalGroupName', 'uf', 'cfop', 'cst', 'icmsRate', 'orders', 'items'] as const;

const ORDER_EXPORT_COLUMNS = [
  ['id', 'id'],
  ['orderId', 'order_id'],
  ['status', 'status'],
  ['storeId', 'store_id'],
  ['source', 'source'],
  ['createdAt', 'created_at'],
  ['webhookAttempts', 'webhook_attempts'],
  ['fiscalGroupId', 'fiscal_group_id'],
  ['uf', 'uf'],
  ['base', 'base'],
  ['ICMS_value', 'icms_value'],
  ['FCP_value', 'fcp_value'],
  ['PIS_value', 'pis_value'],
  ['COFINS_value', 'cofins_value'],
  ['total_tax', 'total_tax'],
] as const satisfies ReadonlyArray<readonly [string, keyof OrderExportRow]>;

/** Orders read per statement by the export: one batch in memory at a time. */
const EXPORT_BATCH = 2000;

const DAY_MS = 86_400_000;

/** A calendar day `YYYY-MM-DD` as a UTC midnight, or undefined when no such day exists (2026-02-30). */
function dayOf(text: string): number | undefined {
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== text ? undefined : time;
}

const money = (cents: string) => Number(centsText(cents));

@Injectable()
export class ReportsService {
  constructor(
    private readonly reports: OrderTaxReportRepository,
    private readonly fiscalGroups: FiscalGroupsService,
    private readonly orders: OrderReadsRepository,
  ) {}

  /** The tax report of the period: rows, totals summed from the rows' cents, and the period's instants. */
  async taxReport(query: TaxReportQuery): Promise<{ report: TaxReportDto; rows: TaxReportRow[] }> {
    const from = dayOf(query.from);
    const to = dayOf(query.to);
    if (from === undefined) throw ApiError.badRequest('from is not a calendar day', 'from');
    if (to === undefined) throw ApiError.badRequest('to is not a calendar day', 'to');
    if (to < from) throw ApiError.badRequest('to must not be before from', 'to');
    if ((to - from) / DAY_MS + 1 > MAX_REPORT_DAYS)
      throw ApiError.badRequest(`the period must not be longer than ${MAX_REPORT_DAYS} days`, 'to');
    const timeZone = query.timeZone ?? DEFAULT_REPORT_TIME_ZONE;
    const { rows, periodStart, periodEnd } = await this.reports.taxReport({
      from: query.from,
      to: query.to,
      timeZone,
      storeId: query.storeId ?? null,
      fiscalGroupId: query.fiscalGroupId ?? null,
      uf: query.uf ?? null,
    });
    const names = await this.fiscalGroups.namesOf([...new Set(rows.flatMap((row) => (row.fiscal_group_id ? [row.fiscal_group_id] : [])))]);
    const sums = new Map<string, bigint>(MONEY.map(([, column]) => [column, 0n]));
    let items = 0;
    const reportRows = rows.map((row): TaxReportRowDto => {
      items += Number(row.items);
      for (const [, column] of MONEY) sums.set(column, sums.get(column)! + BigInt(row[column]));
      const reportRow = {
        storeId: row.store_id,
        fiscalGroupId: row.fiscal_group_id,
        fiscalGroupName: row.fiscal_group_id ? (names.get(row.fiscal_group_id) ?? null) : null,
        uf: row.uf,
        cfop: row.cfop,
        cst: row.cst,
        icmsRate: row.icms_rate === null ? null : Number(row.icms_rate),
        orders: Number(row.orders),
        items: Number(row.items),
      } as TaxReportRowDto;
      for (const [field, column] of MONEY) reportRow[field] = money(row[column]);
      return reportRow;
    });
    const totals = { orders: rows.length > 0 ? Number(rows[0]!.order_count) : 0, items } as TaxReportTotalsDto;
    for (const [field, column] of MONEY) totals[field] = money(sums.get(column)!.toString());
    return {
      report: { periodStart: periodStart.toISOString(), periodEnd: periodEnd.toISOString(), timeZone, rows: reportRows, totals },
      rows,
    };
  }

  /** The report as CSV: one line per row, then a `TOTAL` line; the amounts exact from the cents. */
  async taxReportCsv(query: TaxReportQuery): Promise<string> {
    const { report, rows } = await this.taxReport(query);
    const header = csvLine([...TAX_REPORT_COLUMNS, ...MONEY.map(([field]) => field)]);
    const lines = report.rows.map((row, index) =>
      csvLine([...TAX_REPORT_COLUMNS.map((column) => row[column]), ...MONEY.map(([, column]) => centsText(rows[index]![column]))]),
    );
    const total = report.totals;
    const totalLine = csvLine([
      'TOTAL',
      null,
      null,
      null,
      null,
      null,
      null,
      total.orders,
      total.items,
      ...MONEY.map(([field]) => total[field].toFixed(2)),
    ]);
    return header + lines.join('') + totalLine;
  }

  /** The report as an XLSX workbook of one sheet: the rows, then the totals; amounts as numbers formatted `0.00`. */
  async taxReportXlsx(query: TaxReportQuery): Promise<Buffer> {
    const { report } = await this.taxReport(query);
    const header: Row = [...TAX_REPORT_COLUMNS, ...MONEY.map(([field]) => field)].map((title) => ({ value: title, fontWeight: 'bold' }));
    const amount = (value: number) => ({ value, type: Number, format: '0.00' });
    const data: Row[] = [header];
    for (const row of report.rows) {
      data.push([
        row.storeId,
        row.fiscalGroupId,
        row.fiscalGroupName,
        row.uf,
        row.cfop,
        row.cst,
        row.icmsRate,
        row.orders,
        row.items,
        ...MONEY.map(([field]) => amount(row[field])),
      ]);
    }
    const total = report.totals;
    data.push([
      { value: 'TOTAL', fontWeight: 'bold' },
      null,
      null,
      null,
      null,
      null,
      null,
      total.orders,
      total.items,
      ...MONEY.map(([field]) => amount(total[field])),
    ]);
    return writeXlsxFile(data, { sheet: 'Tax report' }).toBuffer();
  }

  /**
   * The order list's matches as CSV, newest first, streamed batch after batch (never the whole list in memory). The
   * first batch is read before the answer starts, so a database that is down answers 503 rather than a cut 200.
   */
  async exportOrdersCsv(query: OrderExportQuery): Promise<Readable> {
    const batches = this.orders.exportBatches(toOrderListFilter(query), EXPORT_BATCH)[Symbol.asyncIterator]();
    const first = await batches.next();
    return Readable.from(
      (async function* () {
        yield csvLine(ORDER_EXPORT_COLUMNS.map(([title]) => title));
        if (first.done) return;
        yield orderCsvLines(first.value);
        for (let next = await batches.next(); !next.done; next = await batches.next()) yield orderCsvLines(next.value);
      })(),
      { objectMode: false },
    );
  }
}

/** A batch of the order export as CSV lines. */
function orderCsvLines(batch: OrderExportRow[]): string {
  return batch.map((row) => csvLine(ORDER_EXPORT_COLUMNS.map(([, column]) => row[column]))).join('');
}
