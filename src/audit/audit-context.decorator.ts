import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '../auth/principal.js';
import type { AuditActor, AuditContext } from './audit-event.types.js';

/** The audit actor of a request's principal. */
export function auditActorOf(principal: Principal): AuditActor {
  return principal.kind === 'client'
    ? { type: 'client', id: principal.clientId, name: principal.name }
    : { type: 'user', id: principal.userId, name: principal.name };
}

/** What an HTTP Basic route's guard leaves on the request: the client whose credentials it checked. */
interface BasicClient {
  clientId: string;
  clientName: string;
}

type AuthenticatedRequest = FastifyRequest & { user?: Principal; basicGrant?: BasicClient };

/**
 * The audit context of an authenticated request: its principal as actor (or, on a route taking
 * client credentials as HTTP Basic, that client), its request id and client address.
 */
export function auditContextOf(request: AuthenticatedRequest): AuditContext {
  const actor: AuditActor | undefined = request.user
    ? auditActorOf(request.user)
    : request.basicGrant && { type: 'client', id: request.basicGrant.clientId, name: request.basicGrant.clientName };
  if (!actor) throw new Error('an audited change needs an authenticated request');
  return { actor, requestId: String(request.id), address: request.ip ?? null };
}

/** The handler's audit context (`@Audited() audit: AuditContext`), passed to the service that makes the change. */
export const Audited = createParamDecorator((_data: unknown, context: ExecutionContext): AuditContext =>
  auditContextOf(context.switchToHttp().getRequest<AuthenticatedRequest>()),
);
