import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth } from '../auth/auth.decorators.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { Consumes } from '../common/http/route-config.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { CSV_BODY_LIMIT_BYTES, TEXT_CSV } from '../fiscal-groups/fiscal-groups.controller.js';
import { ExternalProductIdInUseErrorDto, ProductIdExistsErrorDto } from './dto/product-category-errors.dto.js';
import { ProductCategoryImportQueryDto, ProductCategoryImportReportDto } from './dto/product-category-import.dto.js';
import { CATEGORY_CSV_COLUMNS, MAX_IMPORT_ROWS } from './product-categories-csv.js';
import { ProductCategoriesCsvService } from './product-categories-csv.service.js';

const EXAMPLE = 'productId,productName,ncm,externalProductId\r\nprod-cola-350,Coca-Cola lata 350 ml,22021000,SKU-778899\r\n';

// `admin`, not `admin/product-fiscal-categories`: the file is `product-fiscal-categories.csv` beside the list, as the
// audit log's `audit-events.csv`, and a product id of `export.csv` stays a product id.
@ApiTags('Product fiscal categories')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin')
@Auth('admin', { role: 'fiscal' })
export class ProductCategoriesCsvController {
  constructor(private readonly csv: ProductCategoriesCsvService) {}

  @Get('product-fiscal-categories.csv')
  @ApiOperation({
    summary: 'Export the product fiscal categories as CSV',
    description:
      `Every category, ordered by productId, with the columns ${CATEGORY_CSV_COLUMNS.join(', ')} (an empty cell for no external id). ` +
      "A text a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, which the import takes away: the file imports back as unchanged.",
  })
  @ApiProduces(TEXT_CSV)
  @ApiOkResponse({ description: 'The categories as CSV', content: { [TEXT_CSV]: { schema: { type: 'string', example: EXAMPLE } } } })
  async exportCsv(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const csv = await this.csv.exportCsv();
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', 'attachment; filename="product-fiscal-categories.csv"');
    return csv;
  }

  @Post('product-fiscal-categories.csv')
  @HttpCode(200)
  @Consumes([TEXT_CSV], { json: false, bodyLimit: CSV_BODY_LIMIT_BYTES })
  @ApiOperation({
    summary: 'Import product fiscal categories from CSV',
    description:
      `Send \`Content-Type: text/csv\` with a header row naming the columns (${CATEGORY_CSV_COLUMNS.join(', ')}; externalProductId optional: without it each product keeps its own), comma or semicolon separated, UTF-8 (a file that is not UTF-8 is read as Windows-1252), at most ${MAX_IMPORT_ROWS} rows. ` +
      'Each row creates or changes the category of its productId; categories the file does not name are left as they are. ' +
      'With `dryRun=true` nothing changes and the answer says per row what would happen: `created`, `changed` (field by field), `unchanged`, or `error` with its problems (a code, the column, the line). ' +
      'Without it every row is written in one transaction, or, when any row has a problem, nothing (400). An NCM the installed NCM table lacks, or whose validity ended, is a warning, not a problem.',
  })
  @ApiBody({ description: 'CSV text', schema: { type: 'string', example: EXAMPLE } })
  @ApiOkResponse({ type: ProductCategoryImportReportDto })
  @ApiErrors([400, 409, 413, 415], {
    400: 'VALIDATION_FAILED: a file that cannot be read (empty, UTF-16, bad quoting, an unknown, missing or repeated column, too many rows), or, on a real import, rows with problems: `details` names each by `line` and `column`, at most 100. Nothing changes.',
    409: 'PRODUCT_ID_EXISTS or EXTERNAL_PRODUCT_ID_IN_USE: a category written by someone else while the import ran; nothing was written, send it again.',
  })
  @ApiDomainErrors(409, { PRODUCT_ID_EXISTS: ProductIdExistsErrorDto, EXTERNAL_PRODUCT_ID_IN_USE: ExternalProductIdInUseErrorDto })
  async importCsv(
    @Body() body: unknown,
    @Query() query: ProductCategoryImportQueryDto,
    @Audited() audit: AuditContext,
  ): Promise<ProductCategoryImportReportDto> {
    if (!Buffer.isBuffer(body) && typeof body !== 'string') throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the categories as text/csv');
    return this.csv.importCsv(Buffer.isBuffer(body) ? body : Buffer.from(body), query.dryRun === true, audit);
  }
}
