import { applyDecorators, SetMetadata, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiTooManyRequestsResponse } from '@nestjs/swagger';
import { ApiErrors } from '../common/openapi/api-errors.decorator.js';
import type { ErrorFamily } from '../common/errors/error-families.js';
import { mergeRouteConfig, mergeRouteConfigEverywhere } from '../common/http/route-config.js';
import { CredentialRateLimitGuard } from './credential-rate-limit.guard.js';
import type { Scope } from './scopes.js';

export const IS_PUBLIC = 'auth:isPublic';
export const REQUIRED_SCOPES = 'auth:requiredScopes';

/**
 * The route takes no bearer token (auth denies by default). Also marked in the Fastify route
 * config: bodies of other routes are read only once their token's signature checks out.
 */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), mergeRouteConfig({ public: true }));

/** A bearer token with every scope listed is required; also documents the security requirement and the 401/403 bodies. */
export function Auth(scopes: Scope | Scope[], options: { family?: ErrorFamily } = {}) {
  const list = Array.isArray(scopes) ? scopes : [scopes];
  return applyDecorators(
    SetMetadata(REQUIRED_SCOPES, list),
    mergeRouteConfigEverywhere({ scopes: list }),
    ApiBearerAuth('bearer'),
    ApiExtension('x-required-scopes', list),
    ApiErrors(options.family ?? 'A', list.length > 0 ? [401, 403] : [401]),
  );
}

/** Per-IP, per-route limit of the credential routes (AUTH_RATE_LIMIT_PER_MINUTE). */
export function CredentialRateLimit() {
  return applyDecorators(
    UseGuards(CredentialRateLimitGuard),
    ApiTooManyRequestsResponse({ description: 'Too many attempts; see Retry-After' }),
  );
}
