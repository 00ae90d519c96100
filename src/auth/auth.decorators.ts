import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBasicAuth, ApiBearerAuth, ApiExtension, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import { mergeRouteConfig, mergeRouteConfigEverywhere } from '../common/http/route-config.js';
import type { GrantedToken } from './auth.service.js';
import { BasicCredentialsGuard } from './basic-credentials.guard.js';
import { CredentialThrottlerGuard } from './credential-throttler.guard.js';
import type { Scope } from './scopes.js';

import { BASIC_SCOPES, IS_PUBLIC, PEOPLE_ONLY_WITH_QUERY, REQUIRED_ROLE, REQUIRED_SCOPES } from './auth-metadata.js';
import type { Role } from './principal.js';

/**
 * The route takes no bearer token (auth denies by default). Also marked in the Fastify route
 * config: bodies of other routes are read only once their token's signature checks out.
 */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), mergeRouteConfig({ public: true }));

export interface AuthOptions {
  /**
   * The least role a person signed in to the console needs here. Without it, people cannot
   * call the route at all (machine routes: enrichment, fulfillment, the platform's webhook).
   */
  role?: Role;
  /** People (not clients) may call the route only with these query parameters (the tax calculator: `{ dryRun: 'true' }`). */
  peopleOnlyWithQuery?: Record<string, string>;
}

/**
 * A bearer token with every scope listed is required, or, where `role` is given, a person's
 * session with at least that role; also documents the security requirement and the 401/403 bodies.
 */
export function Auth(scopes: Scope | Scope[], options: AuthOptions = {}) {
  const list = Array.isArray(scopes) ? scopes : [scopes];
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPES, list),
    ...(options.role ? [PeopleMay(options.role, options.peopleOnlyWithQuery)] : []),
    mergeRouteConfigEverywhere({ scopes: list }),
    ApiBearerAuth('bearer'),
    ApiExtension('x-required-scopes', list),
    ApiErrors(list.length > 0 ? [401, 403] : [401]),
  );
}

/**
 * People with at least `role` may call the route with their session (what `Auth(scopes, { role })`
 * says), for a route whose class-level `@Auth` lets only clients in; with `onlyWithQuery`, only
 * with those query parameters. The role also goes into the route config, for the check made
 * before the body is read (a session cookie passes it only where people may go).
 */
export function PeopleMay(role: Role, onlyWithQuery?: Record<string, string>) {
  return applyDecorators(
    SetMetadata(REQUIRED_ROLE, role),
    ApiExtension('x-required-role', role),
    ...(onlyWithQuery ? [SetMetadata(PEOPLE_ONLY_WITH_QUERY, onlyWithQuery)] : []),
    mergeRouteConfigEverywhere({ role }),
  );
}

/** Per-IP, per-route limit of the credential routes (AUTH_RATE_LIMIT_PER_MINUTE), counted for all instances together. */
export function CredentialRateLimit() {
  return applyDecorators(
    UseGuards(CredentialThrottlerGuard),
    ApiTooManyRequestsResponse({ description: 'Too many attempts; see Retry-After' }),
  );
}

/**
 * HTTP Basic client credentials holding every scope listed, instead of a bearer token: checked by
 * BasicCredentialsGuard once the credential rate limit let the request through (a 401 or 403 in
 * the controller's error family). The handler gets the token issued for the client with `@BasicGrant()`.
 */
export function BasicAuth(scopes: Scope | Scope[]) {
  const list = Array.isArray(scopes) ? scopes : [scopes];
  return applyDecorators(
    SetMetadata(BASIC_SCOPES, list),
    // No bearer token to check before the body is read.
    mergeRouteConfig({ public: true }),
    ApiErrors([401, 403, 429], {
      401: 'No HTTP Basic credentials, or a wrong client id or secret (a bearer token is not accepted here)',
      403: `The client lacks the scope ${list.map((scope) => `\`${scope}\``).join(', ')}`,
    }),
    CredentialRateLimit(),
    UseGuards(BasicCredentialsGuard),
    ApiBasicAuth('basic'),
  );
}

/** The token BasicCredentialsGuard issued for the route's client. */
export const BasicGrant = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ basicGrant?: GrantedToken }>().basicGrant,
);
