import { Controller, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Audited } from '../audit/audit-context.decorator.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { Auth } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ValidatedBody } from '../common/http/dto-validation.pipe.js';
import { PageQueryDto } from '../common/http/pagination.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ApiClientsAdminService } from './api-clients-admin.service.js';
import {
  ClientDto,
  ClientPageDto,
  CreateClientDto,
  CreatedClientDto,
  RotatedSecretDto,
  RotateSecretDto,
  UpdateClientDto,
} from './dto/client.dto.js';

const CLIENT_ID = { name: 'clientId', description: 'The numeric client id', example: '1002' };
const ADMIN_WITH_STORES = 'a client limited to stores (`stores` not empty) cannot hold the scope `admin`';
const NOT_FOUND = { 404: 'No client has this id' };

@ApiTags('Clients (admin)')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('admin/clients')
@Auth('admin', { role: 'admin' })
export class ClientsController {
  constructor(private readonly clients: ApiClientsAdminService) {}

  @Get()
  @ApiOperation({ summary: 'List the API clients', description: 'Oldest first, paged. Never a secret.' })
  @ApiOkResponse({ type: ClientPageDto })
  @ApiErrors([400])
  list(@Query() query: PageQueryDto): Promise<ClientPageDto> {
    return this.clients.page(query.page ?? 1, query.pageSize ?? 20);
  }

  @Post()
  @ApiOperation({
    summary: 'Create an API client',
    description:
      'Creates a client with the next free numeric id. The answer carries its secret, shown only this once (stored only as a hash). ' +
      '`stores` limits it to the orders of those stores (a store point-of-sale); leave it out for every store. ' +
      `400 when ${ADMIN_WITH_STORES}.`,
  })
  @ApiBody({
    type: CreateClientDto,
    examples: {
      pos: { summary: "A store's point of sale", value: { name: 'POS store 162', scopes: ['orders'], stores: ['162'] } },
      platform: { summary: 'A platform client, every store', value: { name: 'Ordering platform', scopes: ['orders', 'platform'] } },
    },
  })
  @ApiCreatedResponse({ type: CreatedClientDto })
  @ApiErrors([400], { 400: `Failed validation, or ${ADMIN_WITH_STORES}` })
  create(@ValidatedBody(CreateClientDto) body: CreateClientDto, @Audited() audit: AuditContext): Promise<CreatedClientDto> {
    return this.clients.create(body, audit);
  }

  @Get(':clientId')
  @ApiOperation({ summary: 'One API client', description: 'Never its secret.' })
  @ApiParam(CLIENT_ID)
  @ApiOkResponse({ type: ClientDto })
  @ApiErrors([404], NOT_FOUND)
  get(@Param('clientId') clientId: string): Promise<ClientDto> {
    return this.clients.get(clientId);
  }

  @Patch(':clientId')
  @ApiOperation({
    summary: 'Change an API client',
    description:
      'Any of `name`, `scopes`, `stores` (empty: every store) and `active`; the others stay. Every instance applies the change within AUTH_CACHE_SECONDS, ' +
      `to tokens issued before it too. 400 when ${ADMIN_WITH_STORES}.`,
  })
  @ApiParam(CLIENT_ID)
  @ApiBody({
    type: UpdateClientDto,
    examples: {
      stores: { summary: 'Limit it to two stores', value: { stores: ['162', '163'] } },
      deactivate: { summary: 'Deactivate it', value: { active: false } },
    },
  })
  @ApiOkResponse({ type: ClientDto })
  @ApiErrors([400, 404], { 400: `Failed validation, or ${ADMIN_WITH_STORES}`, ...NOT_FOUND })
  update(
    @Param('clientId') clientId: string,
    @ValidatedBody(UpdateClientDto) body: UpdateClientDto,
    @Audited() audit: AuditContext,
  ): Promise<ClientDto> {
    return this.clients.update(clientId, body, audit);
  }

  @Post(':clientId/secret')
  @HttpCode(200)
  @ApiOperation({
    summary: "Rotate a client's secret",
    description:
      'Gives the client a new secret, shown only in this answer. With `graceSeconds` (at most 604800, a week) the replaced secret keeps working that long ' +
      'for login, the token endpoint and HTTP Basic, so that the new one can be rolled out; without it, it stops at once. Tokens already issued keep ' +
      'working until they expire (deactivate the client to stop them).',
  })
  @ApiParam(CLIENT_ID)
  @ApiBody({
    type: RotateSecretDto,
    examples: {
      grace: { summary: 'The old secret works one more hour', value: { graceSeconds: 3600 } },
      now: { summary: 'The old secret stops at once', value: { graceSeconds: 0 } },
    },
  })
  @ApiOkResponse({ type: RotatedSecretDto })
  @ApiErrors([400, 404], NOT_FOUND)
  rotateSecret(
    @Param('clientId') clientId: string,
    @ValidatedBody(RotateSecretDto) body: RotateSecretDto,
    @Audited() audit: AuditContext,
  ): Promise<RotatedSecretDto> {
    return this.clients.rotateSecret(clientId, body.graceSeconds ?? 0, audit);
  }
}
