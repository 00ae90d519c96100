import { Body, Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Auth, CredentialRateLimit, Public } from '../../auth/auth.decorators.js';
import type { Principal } from '../../auth/principal.js';
import { ErrorFamily } from '../../common/errors/error-families.js';
import { ErrorBodies } from '../../common/http/error-bodies.decorator.js';
import { CredentialsBody } from '../../common/http/route-config.js';
import { ApiErrors } from '../../common/openapi/api-errors.decorator.js';
import { SessionDto } from '../dto/session.dto.js';
import {
  EnrolledSessionDto,
  ReauthenticateDto,
  RecoveryCodesDto,
  SignInChallengeOnlyDto,
  SignInEnrolmentConfirmDto,
  TotpCodeDto,
  TotpEnrolmentDto,
  TwoFactorSignInDto,
  TwoFactorStatusDto,
} from '../dto/two-factor.dto.js';
import { originOf, personContext } from '../people-audit.js';
import { personOf } from '../person-of.js';
import { SessionsService } from '../sessions.service.js';
import { TwoFactorService } from './two-factor.service.js';

type Request = FastifyRequest & { user?: Principal };
const CHALLENGE_401 =
  'TWO_FACTOR_CHALLENGE_INVALID: the challenge is forged, expired (5 minutes) or no longer fits the person; sign in again';
const CODE_400 =
  'TWO_FACTOR_CODE_INVALID: the code is wrong, outside its 30-second window (±1) or already used; VALIDATION_FAILED: a malformed body';
const CSRF_403 = 'CSRF_TOKEN_INVALID: no `x-csrf-token` header, or not the session’s; FORBIDDEN: a client’s bearer token';
const REAUTH_400 = 'REAUTHENTICATION_FAILED: the password or code is wrong; VALIDATION_FAILED: neither or both sent';

/** Two-factor sign-in: the sign-in's second step, and a person's own second factor. See "Two-factor sign-in" in docs/access.md. */
@ApiTags('People')
@ErrorBodies(ErrorFamily.AdminApi)
@Controller('auth')
export class TwoFactorController {
  constructor(
    private readonly sessions: SessionsService,
    private readonly twoFactor: TwoFactorService,
  ) {}

  @Post('session/two-factor')
  @Public()
  @HttpCode(200)
  @CredentialRateLimit()
  @CredentialsBody()
  @ApiOperation({
    summary: 'Sign in: the second step',
    description:
      'After a sign-in answered 202 with `next: totp`: the challenge and a 6-digit code of the authenticator app, or one recovery code ' +
      '(used up). Starts the session as a password sign-in does. A code is taken once: the same code again, even within its 30 s, is refused. ' +
      'Wrong codes count as failed sign-ins (per address and email, and 10 per person in 15 minutes from any address): past them, 429.',
  })
  @ApiOkResponse({ type: SessionDto })
  @ApiErrors([400, 401, 429], { 400: CODE_400, 401: CHALLENGE_401 })
  signIn(@Body() dto: TwoFactorSignInDto, @Req() request: Request, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionDto> {
    return this.sessions.signInWithSecondFactor(dto, request, reply);
  }

  @Post('session/two-factor/enrolment')
  @Public()
  @HttpCode(200)
  @CredentialRateLimit()
  @CredentialsBody()
  @ApiOperation({
    summary: 'Sign in: set up the required second factor',
    description:
      'After a sign-in answered 202 with `next: enrol` (the person’s role requires a second factor they do not have): a new TOTP secret and its ' +
      '`otpauth://` URI, shown only in this answer. Asking again replaces the pending secret.',
  })
  @ApiOkResponse({ type: TotpEnrolmentDto })
  @ApiErrors([400, 401, 409, 429], { 401: CHALLENGE_401, 409: 'TWO_FACTOR_ALREADY_ENABLED' })
  startEnrolment(@Body() dto: SignInChallengeOnlyDto): Promise<TotpEnrolmentDto> {
    return this.sessions.startSignInEnrolment(dto.challenge);
  }

  @Post('session/two-factor/enrolment/confirm')
  @Public()
  @HttpCode(200)
  @CredentialRateLimit()
  @CredentialsBody()
  @ApiOperation({
    summary: 'Sign in: confirm the required second factor',
    description:
      'A code of the new secret turns two-factor sign-in on and starts the session; the answer carries the recovery codes, shown only here.',
  })
  @ApiOkResponse({ type: EnrolledSessionDto })
  @ApiErrors([400, 401, 409, 429], {
    400: CODE_400,
    401: CHALLENGE_401,
    409: 'TWO_FACTOR_NOT_ENABLED: no enrolment started; TWO_FACTOR_ALREADY_ENABLED',
  })
  confirmEnrolment(
    @Body() dto: SignInEnrolmentConfirmDto,
    @Req() request: Request,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<EnrolledSessionDto> {
    return this.sessions.confirmSignInEnrolment(dto.challenge, dto.code, request, reply);
  }

  @Get('two-factor')
  @Auth([], { role: 'support' })
  @ApiOperation({
    summary: 'My second factor',
    description: 'Whether two-factor sign-in is on, the recovery codes left, and whether the role requires it.',
  })
  @ApiOkResponse({ type: TwoFactorStatusDto })
  @ApiErrors([403], { 403: 'Called with a bearer token: a client has no second factor' })
  status(@Req() request: Request): Promise<TwoFactorStatusDto> {
    const person = personOf(request);
    return this.twoFactor.status(person.userId, person.role);
  }

  @Post('two-factor/enrolment')
  @Auth([], { role: 'support' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Start setting up two-factor sign-in',
    description: 'A new TOTP secret and its `otpauth://` URI (the QR code), shown only in this answer; it is on once a code confirms it.',
  })
  @ApiOkResponse({ type: TotpEnrolmentDto })
  @ApiErrors([403, 409], { 403: CSRF_403, 409: 'TWO_FACTOR_ALREADY_ENABLED: turn it off first' })
  startMyEnrolment(@Req() request: Request): Promise<TotpEnrolmentDto> {
    const person = personOf(request);
    return this.twoFactor.startEnrolment({ id: person.userId, email: person.email });
  }

  @Post('two-factor/enrolment/confirm')
  @Auth([], { role: 'support' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm two-factor sign-in',
    description: 'A code of the new secret turns two-factor sign-in on; the answer is the recovery codes, shown only here.',
  })
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiErrors([400, 403, 409], {
    400: CODE_400,
    403: CSRF_403,
    409: 'TWO_FACTOR_NOT_ENABLED: no enrolment started; TWO_FACTOR_ALREADY_ENABLED',
  })
  async confirmMyEnrolment(@Body() dto: TotpCodeDto, @Req() request: Request): Promise<RecoveryCodesDto> {
    const person = personOf(request);
    const context = personContext({ id: person.userId, name: person.name }, originOf(request));
    return { recoveryCodes: await this.twoFactor.confirmEnrolment(person.userId, dto.code, context) };
  }

  @Post('two-factor/recovery-codes')
  @Auth([], { role: 'support' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'New recovery codes',
    description: 'After the password or a code: ten new recovery codes, shown only here; the earlier ones stop working.',
  })
  @ApiOkResponse({ type: RecoveryCodesDto })
  @ApiErrors([400, 403, 409, 429], { 400: REAUTH_400, 403: CSRF_403, 409: 'TWO_FACTOR_NOT_ENABLED' })
  async regenerate(@Body() dto: ReauthenticateDto, @Req() request: Request): Promise<RecoveryCodesDto> {
    const person = personOf(request);
    const context = personContext({ id: person.userId, name: person.name }, originOf(request));
    return { recoveryCodes: await this.twoFactor.regenerateRecoveryCodes(person.userId, dto, context, request.ip) };
  }

  @Post('two-factor/disable')
  @Auth([], { role: 'support' })
  @HttpCode(204)
  @ApiOperation({
    summary: 'Turn two-factor sign-in off',
    description: 'After the password or a code. Refused while the person’s role requires a second factor.',
  })
  @ApiNoContentResponse({ description: 'Two-factor sign-in is off; the secret and recovery codes are deleted' })
  @ApiErrors([400, 403, 409, 429], {
    400: REAUTH_400,
    403: CSRF_403,
    409: 'TWO_FACTOR_NOT_ENABLED; TWO_FACTOR_REQUIRED: the role requires it',
  })
  async disable(@Body() dto: ReauthenticateDto, @Req() request: Request): Promise<void> {
    const person = personOf(request);
    const context = personContext({ id: person.userId, name: person.name }, originOf(request));
    await this.twoFactor.disable(person.userId, person.role, dto, context, request.ip);
  }
}
