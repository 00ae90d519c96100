import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { AuditEventsService } from './audit-events.service.js';
import { AUDIT_CSV_COLUMNS } from './audit-events-csv.js';
import { AuditEventFilterQuery, AuditEventListQuery } from './dto/audit-event-list.query.js';
import { AuditEventPageDto } from './dto/audit-event.dto.js';

@ApiTags('Audit log')
@ErrorBodies(ErrorFamily.AdminApi)
// `admin`, not `admin/audit-events`: the export is `audit-events.csv` beside the list, as the tax matrix's `tax-matrix.csv`.
@Controller('admin')
@Auth('admin', { role: 'admin' })
export class AuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @Get('audit-events')
  @ApiOperation({
    summary: 'List audit events',
    description:
      'The recorded changes, newest first (`at` desc, then `id` desc), with every filter optional and combinable (AND). ' +
      'Each event names its actor (a machine client or a person), the action, the target and the changed fields before and after, ' +
      'with the request id and client address of the change. `total` is exact; `totalPages = ceil(total / pageSize)`, 0 when nothing matches. ' +
      'Events are append-only: no route changes or deletes one; they are kept AUDIT_RETENTION_DAYS days.',
  })
  @ApiOkResponse({ type: AuditEventPageDto, description: 'One page of events' })
  @ApiErrors([400], {
    400: 'A parameter is not an integer, out of range, not a known actor or target type, not an ISO 8601 date-time, from is after to, or the parameter is unknown',
  })
  list(@Query() query: AuditEventListQuery): Promise<AuditEventPageDto> {
    return this.events.list(query);
  }

  @Get('audit-events.csv')
  @ApiOperation({
    summary: 'Export audit events as CSV',
    description:
      'The events the same filters list (every page), newest first, as CSV streamed while it is read: a header row, then one row per event ' +
      `with the columns ${AUDIT_CSV_COLUMNS.join(', ')}; \`at\` is RFC 3339 in UTC to the microsecond and \`changes\` the JSON of the list's \`changes\`. ` +
      'A cell that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage return) is written with a leading apostrophe. ' +
      'Same filters, same 400s and same role as the list; no page parameters.',
  })
  @ApiProduces('text/csv')
  @ApiOkResponse({
    description: 'The events as CSV (`Content-Disposition: attachment; filename="audit-events.csv"`)',
    content: {
      'text/csv': {
        schema: {
          type: 'string',
          example:
            'id,at,actorType,actorId,actorName,action,targetType,targetId,changes,requestId,address\r\n' +
            '1042,2026-11-26T14:03:27.518204Z,user,0b7c2a52-2f0e-4f59-9c52-9a4c6a0d3c11,Ana Fiscal,update,fiscal-group,9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e,"{""name"":{""before"":""Restaurants SP"",""after"":""Restaurants SP - Lucro Real""}}",7f3c1e9a-5b2d-4c8e-a1f0-9d8e7c6b5a43,203.0.113.7\r\n',
        },
      },
    },
  })
  @ApiErrors([400], {
    400: 'A parameter is not a known actor or target type, not an ISO 8601 date-time, from is after to, or the parameter is unknown (page and pageSize included)',
  })
  async exportCsv(@Query() query: AuditEventFilterQuery): Promise<StreamableFile> {
    return new StreamableFile(await this.events.exportCsv(query), {
      type: 'text/csv; charset=utf-8',
      disposition: 'attachment; filename="audit-events.csv"',
    });
  }
}
