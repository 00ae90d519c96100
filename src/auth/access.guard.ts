import { type ExecutionContext, Injectable, Optional } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { BASIC_SCOPES, IS_PUBLIC, PEOPLE_ONLY_WITH_QUERY, REQUIRED_ROLE, REQUIRED_SCOPES } from './auth-metadata.js';
import type { Principal, Role, UserPrincipal } from './principal.js';
import { roleIncludes } from './principal.js';
import type { Scope } from './scopes.js';
import { SessionAuthenticator } from './session-authenticator.js';
import { BEARER_REQUIRED, scopeMissingMessage, TOKEN_EXPIRED, TOKEN_INVALID } from './token.service.js';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type GuardedRequest = FastifyRequest & { user: Principal };

/**
 * Registered globally: every route needs a valid bearer token unless marked
 * `@Public()` or `@BasicAuth(...)`, and the scopes named by `@Auth(...)`; or, without an
 * `Authorization` header, a person's session cookie with the route's least role (and, on a
 * state-changing request, the session's CSRF token in `x-csrf-token`).
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    @Optional() private readonly sessions?: SessionAuthenticator,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    // Client credentials instead of a token: BasicCredentialsGuard checks them, after the credential rate limit.
    if (this.reflector.getAllAndOverride<Scope[]>(BASIC_SCOPES, targets)) return true;

    const request = context.switchToHttp().getRequest<GuardedRequest>();
    // A bearer header makes the request a client's: its cookies are not looked at.
    if (request.headers.authorization === undefined && this.sessions) {
      const session = await this.sessions.authenticate(request);
      if (session) {
        request.user = session.principal;
        if (STATE_CHANGING.has(request.method) && !sameToken(request.headers['x-csrf-token'], session.csrfToken)) {
          throw new ApiError(ErrorCode.CSRF_TOKEN_INVALID, 'This request needs the session’s CSRF token in the x-csrf-token header');
        }
        this.checkPerson(session.principal, request, context);
        return true;
      }
    }

    await super.canActivate(context);
    const principal = request.user;
    if (principal.kind === 'user') {
      this.checkPerson(principal, request, context);
      return true;
    }
    const required = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    const missing = required.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length > 0) throw ApiError.forbidden(scopeMissingMessage(missing));
    return true;
  }

  private checkPerson(principal: UserPrincipal, request: FastifyRequest, context: ExecutionContext): void {
    const targets = [context.getHandler(), context.getClass()];
    const role = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, targets);
    if (!role || !roleIncludes(principal.role, role)) throw ApiError.forbidden('Your role does not give access to this operation');
    const onlyWith = this.reflector.getAllAndOverride<Record<string, string> | undefined>(PEOPLE_ONLY_WITH_QUERY, targets);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const unmet = Object.entries(onlyWith ?? {}).filter(([name, value]) => query[name] !== value);
    if (unmet.length > 0) {
      throw ApiError.forbidden(`People may call this operation only with ${unmet.map(([name, value]) => `${name}=${value}`).join('&')}`);
    }
  }

  override handleRequest<TUser>(error: unknown, user: TUser, info: unknown): TUser {
    // Token problems arrive as `info`; an error is a failure while checking a good token
    // (the database down: 503 through the filter), never a reason to call the token bad.
    if (error) throw error;
    if (!user) throw ApiError.unauthorized(describeTokenProblem(info));
    return user;
  }
}

function sameToken(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string') return false;
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function describeTokenProblem(info: unknown): string {
  const name = (info as { name?: string } | undefined)?.name;
  const message = (info as { message?: string } | undefined)?.message ?? '';
  if (name === 'TokenExpiredError') return TOKEN_EXPIRED;
  if (message === 'No auth token') return BEARER_REQUIRED;
  return TOKEN_INVALID;
}
