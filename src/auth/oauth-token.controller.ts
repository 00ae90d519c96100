import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { Consumes, CredentialsBody } from '../common/http/route-config.js';
import { ApiOptionalBasicAuth } from '../common/openapi/optional-basic-auth.decorator.js';
import { CredentialRateLimit, Public } from './auth.decorators.js';
import { AuthService } from './auth.service.js';
import { TokenRequestDto, TokenResponseDto } from './dto/token.dto.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ErrorFamily } from '../common/errors/error-families.js';

export const FORM_URLENCODED = 'application/x-www-form-urlencoded';

@ApiTags('Authentication')
@ErrorBodies(ErrorFamily.OAuth)
@Controller('domain-cliente')
export class OAuthTokenController {
  constructor(private readonly auth: AuthService) {}

  @Post('token')
  @Public()
  @HttpCode(200)
  @CredentialRateLimit()
  @Consumes([FORM_URLENCODED])
  @CredentialsBody()
  @ApiOperation({
    summary: 'OAuth 2.0 client credentials token endpoint',
    description:
      'RFC 6749 §4.4. Credentials in the body (JSON or form) or as HTTP Basic. Errors follow RFC 6749 §5.2. ' +
      'An `Authorization: Bearer` header on this call is ignored.',
  })
  @ApiBody({
    type: TokenRequestDto,
    examples: {
      body: {
        summary: 'Credentials in the body (the development client of the README; every scope it holds)',
        value: { grant_type: 'client_credentials', client_id: '1001', client_secret: 'dev-secret-change-me' },
      },
      basic: { summary: 'Credentials as HTTP Basic: the body carries only the grant type', value: { grant_type: 'client_credentials' } },
    },
  })
  @ApiOptionalBasicAuth()
  @ApiOkResponse({ type: TokenResponseDto, headers: { 'Cache-Control': { schema: { type: 'string', example: 'no-store' } } } })
  @ApiErrors(
    [400, 401, 429],
    {
      400: '`invalid_request`, `unsupported_grant_type` or `invalid_scope`',
      401: '`invalid_client`: unknown client, wrong secret or inactive client',
    },
    {
      400: { error: 'unsupported_grant_type', error_description: 'Only grant_type=client_credentials is supported' },
      401: { error: 'invalid_client', error_description: 'Client authentication failed' },
    },
  )
  async token(
    @Body() body: unknown,
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponseDto> {
    const granted = await this.auth.grantClientCredentials(body, authorization);
    reply.header('cache-control', 'no-store');
    reply.header('pragma', 'no-cache');
    return { access_token: granted.accessToken, token_type: 'Bearer', expires_in: granted.expiresIn, scope: granted.scopes.join(' ') };
  }
}
