import type { FastifyRequest } from 'fastify';
import { ApiError } from '../common/errors/api-error.js';
import type { Principal, UserPrincipal } from '../auth/principal.js';

/** The signed-in person of a session route; a client's bearer token gets 403 there. */
export function personOf(request: FastifyRequest & { user?: Principal }): UserPrincipal {
  if (request.user?.kind !== 'user') throw ApiError.forbidden('This operation is for a person signed in with a session cookie');
  return request.user;
}
