import { Controller, Delete, Get, HttpCode, Param, Query, type PipeTransform } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth } from '../auth/auth.decorators.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { PageQueryDto } from '../common/http/pagination.js';
import { UuidPipe } from '../common/http/uuid.pipe.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { FiscalGroupRevisionDetailDto, FiscalGroupRevisionPageDto } from './dto/fiscal-group-revision.dto.js';
import { FiscalGroupRevisions } from './fiscal-group-revisions.service.js';
import { RevisionInForceErrorDto, RevisionInUseErrorDto } from './dto/revision-errors.dto.js';

const ID_PARAM = { name: 'id', format: 'uuid', description: 'Fiscal group id', example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' };
const REVISION_PARAM = { name: 'revision', type: 'integer', description: 'Revision number, from 1', example: 3 } as const;

/** A revision number in the path: a positive integer (400 otherwise). */
class RevisionNumberPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9]\d{0,8}$/.test(value)) throw ApiError.badRequest('revision must be a positive integer', 'revision');
    return Number(value);
  }
}

@ApiTags('Fiscal groups')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/fiscal-groups/:id/revisions')
@Auth('admin', { role: 'fiscal' })
export class FiscalGroupRevisionsController {
  constructor(private readonly revisions: FiscalGroupRevisions) {}

  @Get()
  @ApiOperation({
    summary: 'List the revisions of a fiscal group',
    description:
      'Newest first, paged. Every write to the group made one: who, when, from when it applies and whether it is scheduled, in force, past or cancelled. A deleted group’s revisions stay readable.',
  })
  @ApiParam(ID_PARAM)
  @ApiOkResponse({ type: FiscalGroupRevisionPageDto })
  @ApiErrors([400, 404], { 404: 'No revision names this group' })
  async list(@Param('id', new UuidPipe()) id: string, @Query() query: PageQueryDto): Promise<FiscalGroupRevisionPageDto> {
    return this.revisions.list(id, query.page, query.pageSize);
  }

  @Get(':revision')
  @ApiOperation({ summary: 'Read a revision of a fiscal group', description: 'The revision with the whole group as it kept it.' })
  @ApiParam(ID_PARAM)
  @ApiParam(REVISION_PARAM)
  @ApiOkResponse({ type: FiscalGroupRevisionDetailDto })
  @ApiErrors([400, 404])
  async one(
    @Param('id', new UuidPipe()) id: string,
    @Param('revision', new RevisionNumberPipe()) revision: number,
  ): Promise<FiscalGroupRevisionDetailDto> {
    return this.revisions.one(id, revision);
  }

  @Delete(':revision')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Cancel a scheduled revision',
    description:
      'Only a revision that has not taken effect can be cancelled: 409 REVISION_IN_FORCE once it took effect (in force, or ' +
      'replaced since), REVISION_IN_USE when a stored order dated ahead of its receipt was already taxed by it (a revision ' +
      'that taxed an order stays), CONFLICT when already cancelled. A revision cancelled with 204 never taxes an order.',
  })
  @ApiParam(ID_PARAM)
  @ApiParam(REVISION_PARAM)
  @ApiNoContentResponse({ description: 'Cancelled' })
  @ApiErrors([400, 404, 409], {
    409: 'REVISION_IN_FORCE: the revision took effect; REVISION_IN_USE: a stored order names it; CONFLICT: already cancelled. Nothing changes.',
  })
  @ApiDomainErrors(409, { REVISION_IN_FORCE: RevisionInForceErrorDto, REVISION_IN_USE: RevisionInUseErrorDto }, { alsoGeneric: true })
  async cancel(
    @Param('id', new UuidPipe()) id: string,
    @Param('revision', new RevisionNumberPipe()) revision: number,
    @Audited() audit: AuditContext,
  ): Promise<void> {
    await this.revisions.cancel(id, revision, audit);
  }
}
