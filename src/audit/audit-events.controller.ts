import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { AuditEventsService } from './audit-events.service.js';
import { AuditEventListQuery } from './dto/audit-event-list.query.js';
import { AuditEventPageDto } from './dto/audit-event.dto.js';

@ApiTags('Audit log')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/audit-events')
@Auth('admin', { role: 'admin' })
export class AuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
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
}
