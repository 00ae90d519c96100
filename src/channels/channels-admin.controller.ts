import { Body, Controller, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ChannelsService } from './channels.service.js';
import { ChannelsStoresRequestDto } from './dto/channels-stores-request.dto.js';
import { ChannelsStoresResponseDto } from './dto/channels-stores-response.dto.js';
import { COMPLETE_REQUEST_EXAMPLE } from './dto/channels-stores.examples.js';

/**
 * The console's way to replace the store and channel configuration: the platform's route takes HTTP Basic
 * client credentials and answers a token, which a person signed in to the console has neither use nor place for.
 */
@ApiTags('Stores and channels')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/channels-stores')
export class ChannelsAdminController {
  constructor(private readonly channels: ChannelsService) {}

  @Put()
  @Auth('admin', { role: 'admin' })
  @ApiOperation({
    summary: 'Replace the whole store and sales-channel configuration (people and bearer tokens)',
    description:
      'The same replacement as `POST /v3/channels-stores`, with the same body and rules (stores and channels not sent are deleted ' +
      'with everything attached to them; one transaction, one call at a time; audited), for a person of role `admin` or a bearer ' +
      'token with scope `admin`. Answers the configuration as stored, like the GET. A body with problems changes nothing and gets ' +
      'one 400 with a `details` entry per problem.',
  })
  @ApiBody({ type: ChannelsStoresRequestDto, examples: { complete: { summary: 'Every field', value: COMPLETE_REQUEST_EXAMPLE } } })
  @ApiOkResponse({ type: ChannelsStoresResponseDto, description: 'The configuration as stored' })
  @ApiErrors([400])
  replace(@Body() body: unknown, @Audited() audit: AuditContext): Promise<ChannelsStoresResponseDto> {
    return this.channels.replaceFromConsole(body, audit);
  }
}
