import type { Readable } from 'node:stream';
import { Controller, Get, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { OrderExportQuery } from './dto/order-export.query.js';
import { ReportsService } from './reports.service.js';

const TEXT_CSV = 'text/csv';

const CSV_EXAMPLE =
  'id,orderId,status,storeId,source,createdAt,webhookAttempts,fiscalGroupId,uf,base,ICMS_value,FCP_value,PIS_value,COFINS_value,total_tax\r\n' +
  '0b7f3c1e-5a2d-4e8b-9c61-7d2f4a9e3b10,ORD-2026-000123,DELIVERED,store-0042,ifood,2026-11-21T14:03:12.123456Z,1,3f0c2a5e-8d1b-4c8e-9f00-2b6f1d7a9c11,SP,25.90,4.66,,0.14,0.64,5.44\r\n';

/** The order list as a file: who may list the orders may export them, so the list's role. */
@ApiTags('Reports (admin)')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/reports')
@Auth('admin', { role: 'support' })
export class OrderExportController {
  constructor(private readonly reports: ReportsService) {}

  @Get('orders.csv')
  @ApiOperation({
    summary: 'Export the order list as CSV',
    description:
      'Every stored order matching the filters of `GET /api/admin/orders` (the same parameters and rules, without `page` and `pageSize`), newest first, one line each: ' +
      'its identifiers, status, store, source, creation time (UTC, microseconds), webhook attempts, fiscal group, and `taxSummary`’s UF and totals as stored (empty for an order without taxes). ' +
      'Comma separated, decimal points. Streamed: the file is written as the orders are read, so its size has no bound but the filters.',
  })
  @ApiProduces(TEXT_CSV)
  @ApiOkResponse({ description: 'The orders as CSV', content: { [TEXT_CSV]: { schema: { type: 'string', example: CSV_EXAMPLE } } } })
  @ApiErrors([400], {
    400: 'A parameter is not an integer, out of range, not a known status, not an ISO 8601 date-time, createdFrom is after createdTo, minWebhookAttempts is above maxWebhookAttempts, or the parameter is unknown',
  })
  async exportOrders(@Query() query: OrderExportQuery, @Res({ passthrough: true }) reply: FastifyReply): Promise<Readable> {
    const csv = await this.reports.exportOrdersCsv(query);
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="orders.csv"');
    return csv;
  }
}
