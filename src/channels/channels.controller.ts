import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth, BasicAuth, BasicGrant } from '../auth/auth.decorators.js';
import type { GrantedToken } from '../auth/auth.service.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ChannelErrorResponseDto } from '../common/openapi/error-response.dto.js';
import { ChannelsService } from './channels.service.js';
import { ChannelsStoresReplacedDto, ChannelsStoresRequestDto } from './dto/channels-stores-request.dto.js';
import { ChannelsStoresResponseDto } from './dto/channels-stores-response.dto.js';
import { COMPLETE_REQUEST_EXAMPLE, PLATFORM_REQUEST_EXAMPLE } from './dto/channels-stores.examples.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

@ApiTags('Stores and channels')
@ErrorBodies(ErrorFamily.ChannelConfiguration)
@Controller('v3/channels-stores')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the whole store and sales-channel configuration',
    description:
      'The body is the complete configuration: stores and channels not sent are deleted with everything attached to them ' +
      '(services, schedules, store–channel links, related lists). Applied in one transaction, one call at a time; ' +
      'a request with any problem changes nothing and gets one 400 naming every problem. ' +
      'No bearer token: the client credentials go as HTTP Basic (`client_id:client_secret`), scope `admin`; ' +
      'the answer carries a fresh access token for that client. Integers and numbers may be sent as numeric text; ' +
      'properties not listed here are accepted and kept (GET returns them).',
  })
  @ApiBody({
    type: ChannelsStoresRequestDto,
    examples: {
      platform: { summary: 'As the platform sends it (numbers as text, extra properties)', value: PLATFORM_REQUEST_EXAMPLE },
      complete: { summary: 'Every field: schedules per channel, related lists, a SPECIAL date', value: COMPLETE_REQUEST_EXAMPLE },
    },
  })
  @ApiOkResponse({ type: ChannelsStoresReplacedDto, description: 'The configuration was replaced' })
  // Examples of this route's own messages (the descriptions come from @ApiErrors and @BasicAuth below).
  @ApiResponse({
    status: 400,
    type: ChannelErrorResponseDto,
    example: {
      statusCode: '400',
      message:
        'Invalid request: stores[0].storeChannels[1]: channel "BN-DELIVERY" is not in this request\'s channels; ' +
        'stores[0].schedulesByChannel[0].schedules[0].startTime: must be a time H:MM or HH:MM from 0:00 to 23:59 (got "24:00")',
    },
  })
  @ApiResponse({
    status: 401,
    type: ChannelErrorResponseDto,
    example: { statusCode: '401', message: 'Client credentials are required as HTTP Basic (client_id:client_secret)' },
  })
  @ApiErrors([400], {
    400: 'Invalid body: every problem is named in `message` (duplicate ids, unknown channel references, bad day, time, coordinate, number...)',
  })
  @BasicAuth('admin')
  replace(@BasicGrant() granted: GrantedToken, @Body() body: unknown, @Audited() audit: AuditContext): Promise<ChannelsStoresReplacedDto> {
    return this.channels.replace(granted, body, audit);
  }

  @Get()
  @Auth('admin', { role: 'admin' })
  @ApiOperation({
    summary: 'Read the store and sales-channel configuration',
    description:
      'The configuration in the shape of the last accepted request: every field of the spec (null when not sent), ' +
      'numbers as JSON numbers, extra properties as sent, and for each store `fiscalGroupId`: the fiscal group holding it, or null.',
  })
  @ApiOkResponse({ type: ChannelsStoresResponseDto, description: 'The current configuration' })
  read(): Promise<ChannelsStoresResponseDto> {
    return this.channels.read();
  }
}
