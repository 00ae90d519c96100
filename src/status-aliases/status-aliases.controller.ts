import { Controller, Get, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth } from '../auth/auth.decorators.js';
import { ValidatedBody } from '../common/http/dto-validation.pipe.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { STATUS_ALIASES_EXAMPLE, StatusAliasesDto } from './dto/status-aliases.dto.js';
import { StatusAliasesService } from './status-aliases.service.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

const MATCHING =
  'A received status (fulfillment `status` and `tracking`, the new-order webhook) is matched ignoring case, accents, surrounding spaces and the difference between space, `_` and `-`: ' +
  'first against the order status values, then against these aliases.';

@ApiTags('Status aliases')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/status-aliases')
@Auth('admin', { role: 'fiscal' })
export class StatusAliasesController {
  constructor(private readonly aliases: StatusAliasesService) {}

  @Get()
  @ApiOperation({ summary: 'The status labels of point-of-sale systems and the order status each means', description: MATCHING })
  @ApiOkResponse({ type: StatusAliasesDto })
  @ApiErrors([400])
  async list(): Promise<StatusAliasesDto> {
    return { aliases: await this.aliases.list() };
  }

  @Put()
  @ApiOperation({
    summary: 'Replace the whole alias table',
    description:
      `${MATCHING} The table is replaced in one transaction and every instance uses it at once. ` +
      '400 (nothing changed) for an unknown status, an empty label (or one of nothing but spaces, `_` and `-`), a label that matches a status value itself, or two labels that match the same way.',
  })
  @ApiBody({
    type: StatusAliasesDto,
    examples: {
      defaults: { summary: 'The defaults (KFC Ecuador point of sale)', value: STATUS_ALIASES_EXAMPLE },
      added: {
        summary: 'Another point of sale’s labels added',
        value: { aliases: [...STATUS_ALIASES_EXAMPLE.aliases, { label: 'Listo para retirar', status: 'READY' }] },
      },
    },
  })
  @ApiOkResponse({ type: StatusAliasesDto, description: 'The table as stored' })
  @ApiErrors([400])
  async replace(@ValidatedBody(StatusAliasesDto) body: StatusAliasesDto, @Audited() audit: AuditContext): Promise<StatusAliasesDto> {
    return { aliases: await this.aliases.replace(body.aliases, audit) };
  }
}
