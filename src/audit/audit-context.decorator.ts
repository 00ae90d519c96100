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

/** The audit context of an authenticated request: its principal as actor, its request id and client address. */
export function auditContextOf(request: FastifyRequest & { user?: Principal }): AuditContext {
  if (!request.user) throw new Error('an audited change needs an authenticated request');
  return { actor: auditActorOf(request.user), requestId: String(request.id), address: request.ip ?? null };
}

/** The handler's audit context (`@Audited() audit: AuditContext`), passed to the service that makes the change. */
export const Audited = createParamDecorator((_data: unknown, context: ExecutionContext): AuditContext =>
  auditContextOf(context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>()),
);
