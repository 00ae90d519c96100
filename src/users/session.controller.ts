import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, CredentialRateLimit, Public } from '../auth/auth.decorators.js';
import type { Principal } from '../auth/principal.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ErrorFamily } from '../common/errors/error-families.js';
import { ErrorBodies } from '../common/http/error-bodies.decorator.js';
import { CredentialsBody } from '../common/http/route-config.js';
import { ApiDomainErrors, ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { PasswordRejectedErrorDto } from './dto/user-errors.dto.js';
import { SignInChallengeDto } from './dto/two-factor.dto.js';
import { ChangePasswordDto, PasswordLinkInfoDto, SessionDto, SetPasswordDto, SignInDto, SignInOptionsDto } from './dto/session.dto.js';
import { originOf } from './people-audit.js';
import { personOf } from './person-of.js';
import { SessionsService } from './sessions.service.js';
import { UsersService } from './users.service.js';

type Request = FastifyRequest & { user?: Principal };
const TOKEN_PARAM = { name: 'token', description: 'The token after `#` in the link' };
const CSRF_403 = 'CSRF_TOKEN_INVALID: no `x-csrf-token` header, or not the session’s; FORBIDDEN: a client’s bearer token';

@ApiTags('People')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('auth')
export class SessionController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly users: UsersService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('sign-in-options')
  @Public()
  @ApiOperation({
    summary: 'How people may sign in',
    description: 'Password sign-in, and the single sign-on provider when one is configured.',
  })
  @ApiOkResponse({ type: SignInOptionsDto })
  signInOptions(): SignInOptionsDto {
    // The configuration holds the provider's issuer, client id and secret together or none of them.
    const singleSignOn = this.config.oidcIssuer ? { name: this.config.oidcName, url: '/api/auth/oidc/start' } : null;
    return { password: true, singleSignOn };
  }

  @Post('session')
  @Public()
  @HttpCode(200)
  @CredentialRateLimit()
  @CredentialsBody()
  @ApiOperation({
    summary: 'Sign in',
    description:
      'Checks the email and password and starts a session: the answer sets the HttpOnly session cookie (always a new session id) and gives the CSRF token ' +
      'that state-changing requests made with the cookie send as `x-csrf-token`. Every kind of failure gets the same 401; too many recent failures ' +
      'for the email from the address, or from the address, get 429 with Retry-After (failures from other addresses never refuse it). ' +
      'A person with two-factor sign-in, or whose role requires it, gets 202 and no session: a short-lived challenge for the second step ' +
      '(`POST /api/auth/session/two-factor`, or enrolment first when `next` is `enrol`).',
  })
  @ApiOkResponse({ type: SessionDto })
  @ApiAcceptedResponse({ type: SignInChallengeDto, description: 'The password is right; the second step must follow' })
  @ApiErrors([400, 401, 429], {
    401: 'Wrong email or password (one message for an unknown email, a wrong password, an inactive person or no password set)',
  })
  signIn(
    @Body() dto: SignInDto,
    @Req() request: Request,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionDto | SignInChallengeDto> {
    return this.sessions.signIn(dto, request, reply);
  }

  @Get('session')
  @Auth([], { role: 'support' })
  @ApiOperation({
    summary: 'The current session',
    description: 'The signed-in person and the session’s CSRF token; moves the idle timeout.',
  })
  @ApiOkResponse({ type: SessionDto })
  @ApiErrors([403], { 403: 'Called with a bearer token: a client has no session' })
  current(@Req() request: Request): Promise<SessionDto> {
    return this.sessions.current(personOf(request));
  }

  @Delete('session')
  @Auth([], { role: 'support' })
  @HttpCode(204)
  @ApiOperation({
    summary: 'Sign out',
    description: 'Ends the session on the server (its cookie no longer works anywhere) and clears the cookie.',
  })
  @ApiNoContentResponse({ description: 'Signed out' })
  @ApiErrors([403], { 403: CSRF_403 })
  async signOut(@Req() request: Request, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    await this.sessions.signOut(personOf(request), request, reply);
  }

  @Put('session/password')
  @Auth([], { role: 'support' })
  @ApiOperation({
    summary: 'Change my password',
    description:
      'Every other session of the person ends; this one goes on with a new session id (a new cookie) and a new CSRF token. ' +
      'A wrong current password counts as a failed sign-in of the person from the address: past the sign-in limits, 429 with Retry-After.',
  })
  @ApiOkResponse({ type: SessionDto })
  @ApiErrors([400, 403, 429], {
    400: 'VALIDATION_FAILED: the current password is wrong; PASSWORD_REJECTED: the new password breaks a rule',
    403: CSRF_403,
    429: 'Too many failed password checks for the person from this address, or from this address: retry after Retry-After',
  })
  @ApiDomainErrors(400, { PASSWORD_REJECTED: PasswordRejectedErrorDto }, { alsoGeneric: true })
  changePassword(
    @Body() dto: ChangePasswordDto,
    @Req() request: Request,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SessionDto> {
    return this.sessions.changePassword(personOf(request), dto, request, reply);
  }

  @Get('password-links/:token')
  @Public()
  @ApiOperation({ summary: 'Describe a one-time password link', description: 'Whom the link is for, while it can be used.' })
  @ApiParam(TOKEN_PARAM)
  @ApiOkResponse({ type: PasswordLinkInfoDto })
  @ApiErrors([404], { 404: 'LINK_NOT_FOUND: unknown, used or expired' })
  describeLink(@Param('token') token: string): Promise<PasswordLinkInfoDto> {
    return this.users.describeLink(token);
  }

  @Post('password-links/:token')
  @Public()
  @HttpCode(204)
  @CredentialRateLimit()
  @CredentialsBody()
  @ApiOperation({
    summary: 'Set a password with a one-time link',
    description: 'At least 12 characters, not a common password. Uses the link up; the person’s open sessions end. Then sign in.',
  })
  @ApiParam(TOKEN_PARAM)
  @ApiNoContentResponse({ description: 'The password is set' })
  @ApiErrors([400, 404, 429], { 400: 'PASSWORD_REJECTED: the password breaks a rule', 404: 'LINK_NOT_FOUND: unknown, used or expired' })
  @ApiDomainErrors(400, { PASSWORD_REJECTED: PasswordRejectedErrorDto }, { alsoGeneric: true })
  async setPassword(@Param('token') token: string, @Body() dto: SetPasswordDto, @Req() request: Request): Promise<void> {
    await this.users.setPasswordWithLink(token, dto.password, originOf(request));
  }
}
