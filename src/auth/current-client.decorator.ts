import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../common/actor.js';
import type { AuthenticatedClient } from './scopes.js';

type AuthenticatedRequest = FastifyRequest & { user?: AuthenticatedClient };

/** The client of the bearer token and the route it called, recorded with the writes it makes. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  return { clientId: request.user?.clientId ?? null, via: `${request.method} ${request.routeOptions.url ?? request.url}` };
});
