import { Body, Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { ApiError } from '../common/errors/api-error.js';
import { Consumes, CredentialsBody } from '../common/http/route-config.js';
import { FORM_URLENCODED } from './oauth-token.controller.js';
import type { FastifyRequest } from 'fastify';
import { Auth, CredentialRateLimit, Public } from './auth.decorators.js';
import type { Principal } from './principal.js';
import { AuthService } from './auth.service.js';
import { LoginDto, LoginResponseDto, TokenInfoDto } from './dto/login.dto.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

@ApiTags('Authentication')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('authentication')
export class AuthController {
  constructor(private readonly auth: AuthService) {}

  @Post('login')
  @Public()
  @HttpCode(200)
  @CredentialRateLimit()
  @Consumes([FORM_URLENCODED])
  @CredentialsBody()
  @ApiOperation({
    summary: 'Obtain an access token',
    description:
      'Exchanges client credentials for a bearer token. Only `grant_type=client_credentials` is accepted. ' +
      'JSON or `application/x-www-form-urlencoded` (the platform’s pickup tablet app logs in with a form).',
  })
  @ApiBody({
    type: LoginDto,
    examples: {
      development: {
        summary: 'The development client of the README (every scope)',
        value: { grant_type: 'client_credentials', client_id: '1001', client_secret: 'dev-secret-change-me' },
      },
    },
  })
  @ApiOkResponse({ type: LoginResponseDto })
  @ApiErrors([400, 401, 429], { 401: 'Unknown client id, wrong secret or inactive client (one message for all)' })
  async login(@Body() dto: LoginDto): Promise<LoginResponseDto> {
    const token = await this.auth.login(dto);
    return { accessToken: token.accessToken, tokenType: 'Bearer', expiresIn: token.expiresIn };
  }

  @Get('me')
  @Auth([])
  @ApiOperation({
    summary: 'Describe the caller',
    description: 'The client id and scopes of the bearer token: a quick way to check a token.',
  })
  @ApiOkResponse({ type: TokenInfoDto })
  me(@Req() request: FastifyRequest & { user: Principal }): TokenInfoDto {
    const { user } = request;
    if (user.kind !== 'client') throw ApiError.forbidden('This operation describes a bearer token');
    return { clientId: user.clientId, scopes: user.scopes };
  }
}
