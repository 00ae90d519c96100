import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { NcmDescriptionsDto, NcmDescriptionsQueryDto, NcmInfoDto, NcmSearchPageDto, NcmSearchQueryDto } from './dto/ncm.dto.js';
import { NcmService } from './ncm.service.js';

@ApiTags('NCM table')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/ncm')
@Auth('admin', { role: 'support' })
export class NcmController {
  constructor(private readonly ncm: NcmService) {}

  @Get()
  @ApiOperation({
    summary: 'Search the NCM table',
    description:
      'The codes of 8 digits of the NCM table Receita Federal publishes (the version loaded is in `table`), by code prefix or by words of their description, accents and case ignored; paged, ordered by code.',
  })
  @ApiOkResponse({ type: NcmSearchPageDto })
  @ApiErrors([400])
  search(@Query() query: NcmSearchQueryDto): NcmSearchPageDto {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 20;
    return { table: this.ncm.version(), ...this.ncm.search(query.q ?? '', page, pageSize) };
  }

  @Get('descriptions')
  @ApiOperation({
    summary: 'What the NCM table says of several codes',
    description:
      'For a page of product categories: each code with its description, path and status today (`unknown` when the table has no such code, `no-table` when none is installed).',
  })
  @ApiOkResponse({ type: NcmDescriptionsDto })
  @ApiErrors([400])
  describeMany(@Query() query: NcmDescriptionsQueryDto): NcmDescriptionsDto {
    return { table: this.ncm.version(), items: query.codes.split(',').map((code) => ({ code, ...this.ncm.describe(code) })) };
  }

  @Get(':code')
  @ApiOperation({
    summary: 'What the NCM table says of a code',
    description: 'Its description, path and status today (`unknown` when the table has no such code, `no-table` when none is installed).',
  })
  @ApiParam({ name: 'code', description: 'An NCM code of 8 digits', example: '22021000' })
  @ApiOkResponse({ type: NcmInfoDto })
  @ApiErrors([400])
  describe(@Param('code') code: string): NcmInfoDto {
    if (!/^\d{8}$/.test(code)) throw ApiError.validation([{ field: 'code', problem: 'must be an NCM code of 8 digits' }]);
    return this.ncm.describe(code);
  }
}
