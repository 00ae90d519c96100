import { Controller, Get, Redirect, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CredentialRateLimit, Public } from '../auth/auth.decorators.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { SingleSignOnService } from './single-sign-on.service.js';

const LOCATION = { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } };
const NOT_CONFIGURED = { 404: 'Single sign-on is not configured (`OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET`)' };

@ApiTags('Single sign-on')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('auth')
export class SingleSignOnController {
  constructor(private readonly singleSignOn: SingleSignOnService) {}

  @Get('oidc/start')
  @Public()
  @Redirect()
  @ApiOperation({
    summary: 'Sign in through the OpenID Connect provider',
    description:
      'A browser navigation, not an API call: redirects to the provider (authorization code with PKCE S256, `state` and `nonce`) and sets a short-lived cookie holding the sign-in under way. When the provider cannot be reached, redirects to `/console/sign-in?error=sso`.',
  })
  @ApiResponse({ status: 302, description: 'To the provider’s authorization endpoint', headers: LOCATION })
  @ApiErrors([404], NOT_CONFIGURED)
  async start(@Res({ passthrough: true }) reply: FastifyReply): Promise<{ url: string; statusCode: number }> {
    return { url: await this.singleSignOn.start(reply), statusCode: 302 };
  }

  @Get('oidc/callback')
  @Public()
  // Each answer costs a call to the provider and, refused, an audit event.
  @CredentialRateLimit()
  @Redirect()
  @ApiOperation({
    summary: 'The provider’s answer',
    description:
      'Where the provider sends the browser back. Checks `state` against the cookie set by the start, exchanges the code, validates the ID token and signs in the active person whose email equals its verified email: redirects to `/console/` with the session cookie. Anything else (no or wrong sign-in under way, a refused or replayed answer, an unverified email, no active person with that email) redirects to `/console/sign-in?error=sso`; nobody is created.',
  })
  @ApiResponse({ status: 302, description: 'To the console, signed in, or to its sign-in page with `error=sso`', headers: LOCATION })
  @ApiErrors([404], NOT_CONFIGURED)
  async callback(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ url: string; statusCode: number }> {
    return { url: await this.singleSignOn.callback(request, reply), statusCode: 302 };
  }
}
