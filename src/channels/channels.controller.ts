import { Body, Controller, Get, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Auth, CredentialRateLimit, Public } from '../auth/auth.decorators.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ChannelErrorResponseDto } from '../common/openapi/error-response.dto.js';
import { ChannelsService } from './channels.service.js';
import { ChannelsStoresReplacedDto, ChannelsStoresRequestDto } from './dto/channels-stores-request.dto.js';
import { ChannelsStoresResponseDto } from './dto/channels-stores-response.dto.js';
import { COMPLETE_REQUEST_EXAMPLE, PLATFORM_REQUEST_EXAMPLE } from './dto/channels-stores.examples.js';

@ApiTags('Stores and channels')
@Controller('v3/channels-stores')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Post()
  @Public()
  @HttpCode(200)
  @CredentialRateLimit()
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
  @ApiBasicAuth('basic')
  @ApiBody({
    type: ChannelsStoresRequestDto,
    examples: {
      platform: { summary: 'As the platform sends it (numbers as text, extra properties)', value: PLATFORM_REQUEST_EXAMPLE },
      complete: { summary: 'Every field: schedules per channel, related lists, a SPECIAL date', value: COMPLETE_REQUEST_EXAMPLE },
    },
  })
  @ApiOkResponse({ type: ChannelsStoresReplacedDto, description: 'The configuration was replaced' })
  // Examples of this route's own messages (the descriptions come from @ApiErrors below).
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
  @ApiErrors('B', [400, 401, 403, 429], {
    400: 'Invalid body: every problem is named in `message` (duplicate ids, unknown channel references, bad day, time, coordinate, number...)',
    401: 'No HTTP Basic credentials, or a wrong client id or secret (a bearer token is not accepted here)',
    403: 'The client lacks the scope `admin`',
  })
  replace(@Headers('authorization') authorization: string | undefined, @Body() body: unknown): Promise<ChannelsStoresReplacedDto> {
    return this.channels.replace(authorization, body);
  }

  @Get()
  @Auth('admin', { family: 'B' })
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
