import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { TaxReportDto } from './dto/tax-report.dto.js';
import { TaxReportQuery } from './dto/tax-report.query.js';
import { ReportsService } from './reports.service.js';

const TEXT_CSV = 'text/csv';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const REPORT_DESCRIPTION =
  'The taxed items of the stored orders created in the period, by store, fiscal group, UF, CFOP, CST/CSOSN and ICMS rate: ' +
  'bases, tax values and numbers of orders and items, summed to the cent from the figures stored on each item (lines and selected modifiers). ' +
  '`from` and `to` are days in `timeZone` (default America/Sao_Paulo), both included, at most 366 days; the period is read on the orders’ creation time, as the order list’s. ' +
  'Cancelled and rejected orders are left out; orders stored without taxes have no items to sum.';

const REPORT_400 = {
  400: 'A day is not YYYY-MM-DD or not a calendar day, to is before from, the period is over 366 days, the time zone is unknown, fiscalGroupId is not a UUID, uf is not two capital letters, or the parameter is unknown',
};

const CSV_EXAMPLE =
  'storeId,fiscalGroupId,fiscalGroupName,uf,cfop,cst,icmsRate,orders,items,icmsBase,icmsValue,fcpValue,pisBase,pisValue,cofinsBase,cofinsValue,totalTax\r\n' +
  'store-0042,3f0c2a5e-8d1b-4c8e-9f00-2b6f1d7a9c11,Lanchonetes SP,SP,5102,00,18,2,3,77.70,13.99,0.00,63.71,0.41,63.71,1.91,16.31\r\n' +
  'TOTAL,,,,,,,2,3,77.70,13.99,0.00,63.71,0.41,63.71,1.91,16.31\r\n';

@ApiTags('Reports (admin)')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/reports')
@Auth('admin', { role: 'fiscal' })
export class ReportsController {
  constructor(private readonly reports: ReportsService) {}

  @Get('tax')
  @ApiOperation({ summary: 'Tax report of a period', description: REPORT_DESCRIPTION })
  @ApiOkResponse({ type: TaxReportDto, description: 'The report’s rows and their totals' })
  @ApiErrors([400], REPORT_400)
  async taxReport(@Query() query: TaxReportQuery): Promise<TaxReportDto> {
    return (await this.reports.taxReport(query)).report;
  }

  @Get('tax.csv')
  @ApiOperation({
    summary: 'Tax report of a period as CSV',
    description: `${REPORT_DESCRIPTION} One line per row of the JSON report, the same column names, then a line \`TOTAL\`; comma separated, decimal points, amounts with two decimals.`,
  })
  @ApiProduces(TEXT_CSV)
  @ApiOkResponse({ description: 'The report as CSV', content: { [TEXT_CSV]: { schema: { type: 'string', example: CSV_EXAMPLE } } } })
  @ApiErrors([400], REPORT_400)
  async taxReportCsv(@Query() query: TaxReportQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const csv = await this.reports.taxReportCsv(query);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="tax-report-${query.from}-${query.to}.csv"`);
    return csv;
  }

  @Get('tax.xlsx')
  @ApiOperation({
    summary: 'Tax report of a period as a spreadsheet (XLSX)',
    description: `${REPORT_DESCRIPTION} One sheet: a header row, one row per row of the JSON report, then a row \`TOTAL\`; amounts are numbers formatted with two decimals.`,
  })
  @ApiProduces(XLSX)
  @ApiOkResponse({ description: 'The report as an XLSX workbook', content: { [XLSX]: { schema: { type: 'string', format: 'binary' } } } })
  @ApiErrors([400], REPORT_400)
  async taxReportXlsx(@Query() query: TaxReportQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    const workbook = await this.reports.taxReportXlsx(query);
    reply.header('content-type', XLSX);
    reply.header('content-disposition', `attachment; filename="tax-report-${query.from}-${query.to}.xlsx"`);
    return workbook;
  }
}
