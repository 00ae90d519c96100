import { ExternalIdInUseErrorDto, StoreInAnotherGroupErrorDto } from './dto/fiscal-group-errors.dto.js';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiExtraModels,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiTags,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth } from '../auth/auth.decorators.js';
import { ApiError } from '../common/errors/api-error.js';
import { ValidatedBody } from '../common/http/dto-validation.pipe.js';
import { UuidPipe } from '../common/http/uuid.pipe.js';
import { Consumes } from '../common/http/route-config.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import {
  CreateFiscalGroupDto,
  FiscalGroupPageDto,
  FiscalGroupResponseDto,
  TAX_MATRIX_EXAMPLE,
  TaxRuleDto,
  UpdateFiscalGroupDto,
} from './dto/fiscal-group.dto.js';
import { ImmediateWriteQuery, ScheduleQuery } from './dto/fiscal-group-revision.dto.js';
import { effectiveFromOf } from './fiscal-group-revisions.service.js';
import { ListFiscalGroupsQuery } from './dto/list-fiscal-groups.query.js';
import { fiscalGroupBodyChecks, FiscalGroupsService } from './fiscal-groups.service.js';
import { CSV_PROBLEMS_LISTED, taxMatrixToCsv } from './tax-matrix-csv.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

export const TEXT_CSV = 'text/csv';
/** A whole NCM table as a spreadsheet is larger than any order. */
export const CSV_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

const CREATE_EXAMPLE = {
  externalId: 'ERP-SP-001',
  name: 'Restaurants SP - Lucro Presumido',
  uf: 'SP',
  taxRegime: 'LUCRO_PRESUMIDO',
  stores: [{ store_id: 'store-0042', store_name: 'Burger House Paulista' }],
  taxMatrix: TAX_MATRIX_EXAMPLE,
};

/** When `GET /admin/fiscal-groups/by-store/{storeId}` was deprecated (RFC 9745: `@` and seconds since the epoch, 2026-12-07)... */
export const BY_STORE_DEPRECATED = '@1796601600';
/** ...and the date after which it may be gone (RFC 8594). */
export const BY_STORE_SUNSET = 'Mon, 07 Jun 2027 00:00:00 GMT';
const DEPRECATION_HEADERS = {
  Deprecation: { description: 'When this path was deprecated (RFC 9745)', schema: { type: 'string', example: BY_STORE_DEPRECATED } },
  Sunset: { description: 'After this date the path may be removed (RFC 8594)', schema: { type: 'string', example: BY_STORE_SUNSET } },
  Link: {
    description: 'The successor: the list filtered by the store',
    schema: { type: 'string', example: '</api/admin/fiscal-groups?storeId=store-0042>; rel="successor-version"' },
  },
};

const ID_PARAM = { name: 'id', format: 'uuid', description: 'Fiscal group id', example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' };

const STORE_OR_EXTERNAL_ID_TAKEN =
  'STORE_IN_ANOTHER_GROUP: a store is already held by another group (one detail per store, with the group that holds it); EXTERNAL_ID_IN_USE: the externalId is taken. Nothing is written.';
const IMMEDIATE_WRITE_400 =
  'Invalid body (malformed JSON, wrong type, failed validation, unknown property), or a query parameter (`effectiveFrom` among them: a new group takes effect at once)';
const FISCAL_GROUP_CONFLICTS = {
  STORE_IN_ANOTHER_GROUP: StoreInAnotherGroupErrorDto,
  EXTERNAL_ID_IN_USE: ExternalIdInUseErrorDto,
};
const STORE_CONFLICT_EXAMPLE = {
  409: {
    message: 'store "store-0042" already belongs to fiscal group 0b7e7a36-5c1e-4f4e-9d43-8f0f6a3b2a10 ("Restaurants RJ")',
    error: 'STORE_IN_ANOTHER_GROUP',
    details: [
      {
        field: 'stores',
        problem: 'store "store-0042" already belongs to fiscal group 0b7e7a36-5c1e-4f4e-9d43-8f0f6a3b2a10 ("Restaurants RJ")',
        storeId: 'store-0042',
        fiscalGroupId: '0b7e7a36-5c1e-4f4e-9d43-8f0f6a3b2a10',
        fiscalGroupName: 'Restaurants RJ',
      },
    ],
  },
};

@ApiTags('Fiscal groups')
@ApiExtraModels(TaxRuleDto)
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/fiscal-groups')
@Auth('admin', { role: 'fiscal' })
export class FiscalGroupsController {
  constructor(private readonly fiscalGroups: FiscalGroupsService) {}

  @Post()
  @ApiOperation({
    summary: 'Create a fiscal group',
    description:
      'A fiscal group holds the tax matrix (TaxRule per NCM code) applied to the orders of its stores. A store belongs to at most one group (409 otherwise); `externalId`, when given, is unique. The group takes effect at once: the route takes no query parameter, and `effectiveFrom`, like any other, is refused (400).',
  })
  @ApiBody({ type: CreateFiscalGroupDto, examples: { restaurant: { summary: 'A restaurant group in São Paulo', value: CREATE_EXAMPLE } } })
  @ApiCreatedResponse({ type: FiscalGroupResponseDto })
  @ApiErrors([400, 409], { 400: IMMEDIATE_WRITE_400, 409: STORE_OR_EXTERNAL_ID_TAKEN }, STORE_CONFLICT_EXAMPLE)
  @ApiDomainErrors(409, FISCAL_GROUP_CONFLICTS)
  async create(
    @ValidatedBody(CreateFiscalGroupDto, fiscalGroupBodyChecks) dto: CreateFiscalGroupDto,
    @Query() _immediate: ImmediateWriteQuery,
    @Audited() audit: AuditContext,
  ): Promise<FiscalGroupResponseDto> {
    return this.fiscalGroups.response(await this.fiscalGroups.create(dto, audit));
  }

  @Get()
  @ApiOperation({
    summary: 'List fiscal groups',
    description:
      'Newest first, paged; filter by state or by a store the group holds. `?storeId=` is the lookup by store: the group holding it as the one item, or no item.',
  })
  @ApiOkResponse({ type: FiscalGroupPageDto })
  @ApiErrors([400])
  async list(@Query() query: ListFiscalGroupsQuery): Promise<FiscalGroupPageDto> {
    const page = await this.fiscalGroups.list(query);
    return { ...page, items: await this.fiscalGroups.responses(page.items) };
  }

  @Get('by-store/:storeId')
  @ApiOperation({
    summary: 'The fiscal group holding a store (deprecated)',
    description:
      'Deprecated: use `GET /api/admin/fiscal-groups?storeId=`, which answers the same group as the one item of a page (no item when no group holds the store). ' +
      'This path is kept for one release and answers `Deprecation`, `Sunset` and a `Link` to its successor.',
    deprecated: true,
  })
  @ApiParam({ name: 'storeId', example: 'store-0042' })
  @ApiOkResponse({ type: FiscalGroupResponseDto, headers: DEPRECATION_HEADERS })
  @ApiErrors([404])
  async byStore(@Param('storeId') storeId: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<FiscalGroupResponseDto> {
    reply
      .header('deprecation', BY_STORE_DEPRECATED)
      .header('sunset', BY_STORE_SUNSET)
      .header('link', `</api/admin/fiscal-groups?storeId=${encodeURIComponent(storeId)}>; rel="successor-version"`);
    const group = await this.fiscalGroups.findByStore(storeId);
    if (!group) throw ApiError.notFound(`No fiscal group holds store ${storeId}`);
    return this.fiscalGroups.response(group);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a fiscal group',
    description:
      'The group with its stores and its whole tax matrix, as in force now (`revision`), and the revisions scheduled for a later instant (`scheduled`).',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: FiscalGroupResponseDto })
  @ApiErrors([400, 404], { 400: 'The id is not a UUID' })
  async findOne(@Param('id', new UuidPipe()) id: string): Promise<FiscalGroupResponseDto> {
    return this.fiscalGroups.response(await this.fiscalGroups.findById(id));
  }

  @Put(':id')
  @ApiOperation({
    summary: 'Update a fiscal group (partial)',
    description:
      'Only the properties sent change. `taxMatrix`, when sent, replaces the whole matrix; `stores`, when sent, replaces the list. Every write makes a new revision. With `effectiveFrom` the change is scheduled: it takes effect at that instant, built on the revision that will be in force just before it, and cannot change `stores` or `externalId` (400), which change at once.',
  })
  @ApiParam(ID_PARAM)
  @ApiBody({
    type: UpdateFiscalGroupDto,
    examples: { rename: { summary: 'Rename only', value: { name: 'Restaurants SP - Lucro Real', taxRegime: 'LUCRO_REAL' } } },
  })
  @ApiOkResponse({ type: FiscalGroupResponseDto })
  @ApiErrors([400, 404, 409], { 409: STORE_OR_EXTERNAL_ID_TAKEN }, STORE_CONFLICT_EXAMPLE)
  @ApiDomainErrors(409, FISCAL_GROUP_CONFLICTS)
  async update(
    @Param('id', new UuidPipe()) id: string,
    @ValidatedBody(UpdateFiscalGroupDto, fiscalGroupBodyChecks) dto: UpdateFiscalGroupDto,
    @Query() schedule: ScheduleQuery,
    @Audited() audit: AuditContext,
  ): Promise<FiscalGroupResponseDto> {
    return this.fiscalGroups.response(await this.fiscalGroups.update(id, dto, audit, effectiveFromOf(schedule)));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a fiscal group',
    description:
      "At once, its stores are released and its scheduled revisions cancelled: the route takes no query parameter, and `effectiveFrom`, like any other, is refused (400); a group that must stop taxing on a date has its stores moved on that date instead. Stored orders keep the taxes they were given; the group's revisions stay readable.",
  })
  @ApiParam(ID_PARAM)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors([400, 404], { 400: 'The id is not a UUID, or a query parameter was sent (`effectiveFrom` among them)' })
  async remove(
    @Param('id', new UuidPipe()) id: string,
    @Query() _immediate: ImmediateWriteQuery,
    @Audited() audit: AuditContext,
  ): Promise<void> {
    await this.fiscalGroups.remove(id, audit);
  }

  @Get(':id/tax-matrix.csv')
  @ApiOperation({
    summary: 'Export the tax matrix as CSV',
    description:
      'One row per NCM key; the columns are the TaxRule field names. Import it back with `PUT /api/admin/fiscal-groups/{id}/tax-matrix`.',
  })
  @ApiParam(ID_PARAM)
  @ApiProduces(TEXT_CSV)
  @ApiOkResponse({
    description: 'The matrix as CSV',
    content: {
      [TEXT_CSV]: {
        schema: {
          type: 'string',
          example:
            'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP,CST_IBSCBS,cClassTrib,IBS_UF_rate,IBS_Mun_rate,CBS_rate\r\n22021000,0300700,60,18,04,0.65,04,3,5405,,,,,\r\n',
        },
      },
    },
  })
  @ApiErrors([400, 404])
  async exportCsv(@Param('id', new UuidPipe()) id: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const group = await this.fiscalGroups.response(await this.fiscalGroups.findById(id));
    reply.header('content-type', 'text/csv; charset=utf-8');
    reply.header('content-disposition', `attachment; filename="tax-matrix-${id}.csv"`);
    return taxMatrixToCsv(group.taxMatrix as never);
  }

  @Put(':id/tax-matrix')
  @Consumes([TEXT_CSV], { json: false, bodyLimit: CSV_BODY_LIMIT_BYTES })
  @ApiOperation({
    summary: 'Replace the tax matrix from CSV',
    description:
      'Send `Content-Type: text/csv` with a header row of TaxRule field names (any order; CFOP and the reform columns optional). Comma or semicolon separated; in semicolon files a decimal comma is accepted. Empty cells at the end of the header row (columns a spreadsheet left unused) are not columns: the cells of a row under them must be empty. Every row is validated: a 400 lists the problems by line number and nothing changes. With `effectiveFrom` the new matrix is scheduled for that instant.',
  })
  @ApiParam(ID_PARAM)
  @ApiBody({
    description: 'CSV text',
    schema: {
      type: 'string',
      example: 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP\r\n22021000,0300700,60,18,04,0.65,04,3,5405\r\n',
    },
  })
  @ApiOkResponse({ type: FiscalGroupResponseDto })
  @ApiErrors([400, 404, 415], {
    400: `Invalid request (a bad id or \`effectiveFrom\`) or file. For the file: VALIDATION_FAILED, \`details\` lists its problems in its order, each with its \`line\` (and \`column\` when it is about one cell), at most ${CSV_PROBLEMS_LISTED}. A file with more is checked up to the next one only, and \`message\` says so and where checking stopped: "The CSV has more than ${CSV_PROBLEMS_LISTED} problems, the first ${CSV_PROBLEMS_LISTED} listed (checking stopped at line 102 of 250000)...". Nothing changes.`,
  })
  async importCsv(
    @Param('id', new UuidPipe()) id: string,
    @Body() body: unknown,
    @Query() schedule: ScheduleQuery,
    @Audited() audit: AuditContext,
  ): Promise<FiscalGroupResponseDto> {
    if (!Buffer.isBuffer(body) && typeof body !== 'string') throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the matrix as text/csv');
    return this.fiscalGroups.response(await this.fiscalGroups.importTaxMatrixCsv(id, body.toString(), audit, effectiveFromOf(schedule)));
  }
}
