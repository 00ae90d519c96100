import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error.js';
import { BASIC_SCOPES, IS_PUBLIC, REQUIRED_ROLE, REQUIRED_SCOPES } from './auth-metadata.js';
import type { Principal, Role } from './principal.js';
import { roleIncludes } from './principal.js';
import type { Scope } from './scopes.js';
import { BEARER_REQUIRED, scopeMissingMessage, TOKEN_EXPIRED, TOKEN_INVALID } from './token.service.js';

/**
 * Registered globally: every route needs a valid bearer token unless marked
 * `@Public()` or `@BasicAuth(...)`, and the scopes named by `@Auth(...)`.
 */
@Injectable()
export class AccessGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    // Client credentials instead of a token: BasicCredentialsGuard checks them, after the credential rate limit.
    if (this.reflector.getAllAndOverride<Scope[]>(BASIC_SCOPES, targets)) return true;

    await super.canActivate(context);
    const principal = context.switchToHttp().getRequest<FastifyRequest & { user: Principal }>().user;
    if (principal.kind === 'user') {
      const role = this.reflector.getAllAndOverride<Role | undefined>(REQUIRED_ROLE, targets);
      if (!role || !roleIncludes(principal.role, role)) throw ApiError.forbidden('Your role does not give access to this operation');
      return true;
    }
    const required = this.reflector.getAllAndOverride<Scope[]>(REQUIRED_SCOPES, targets) ?? [];
    const missing = required.filter((scope) => !principal.scopes.includes(scope));
    if (missing.length > 0) throw ApiError.forbidden(scopeMissingMessage(missing));
    return true;
  }

  override handleRequest<TUser>(error: unknown, user: TUser, info: unknown): TUser {
    // Token problems arrive as `info`; an error is a failure while checking a good token
    // (the database down: 503 through the filter), never a reason to call the token bad.
    if (error) throw error;
    if (!user) throw ApiError.unauthorized(describeTokenProblem(info));
    return user;
  }
}

function describeTokenProblem(info: unknown): string {
  const name = (info as { name?: string } | undefined)?.name;
  const message = (info as { message?: string } | undefined)?.message ?? '';
  if (name === 'TokenExpiredError') return TOKEN_EXPIRED;
  if (message === 'No auth token') return BEARER_REQUIRED;
  return TOKEN_INVALID;
}
