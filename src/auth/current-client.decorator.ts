import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Actor } from '../common/actor.js';
import type { Principal } from './principal.js';

type AuthenticatedRequest = FastifyRequest & { user?: Principal };

/** The client of the bearer token and the route it called, recorded with the writes it makes, and the stores it may touch. */
export const CurrentActor = createParamDecorator((_data: unknown, context: ExecutionContext): Actor => {
  const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
  const client = request.user?.kind === 'client' ? request.user : undefined;
  return {
    clientId: client?.clientId ?? null,
    via: `${request.method} ${request.routeOptions.url ?? request.url}`,
    stores: client?.stores ?? null,
    origin: request.user && {
      ...(request.user.kind === 'client'
        ? { type: 'client' as const, id: request.user.clientId }
        : { type: 'user' as const, id: request.user.userId }),
      name: request.user.name,
      requestId: String(request.id),
      address: request.ip ?? null,
    },
  };
});

/** The principal the access guard set on the request (a machine client or a person), undefined on an open route. */
export const CurrentPrincipal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Principal | undefined => context.switchToHttp().getRequest<AuthenticatedRequest>().user,
);
