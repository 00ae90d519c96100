import type { FastifyRequest } from 'fastify';
import type { AuditContext } from '../audit/audit-event.types.js';

/** The person a sign-in failure was not: see "Sign-in failures in the audit log" in docs/api-decisions.md. */
export const ANONYMOUS_ACTOR = { type: 'user', id: 'anonymous', name: 'Not signed in' } as const;

/** Where a request came from, for events whose actor is not the request's principal (public routes). */
export interface RequestOrigin {
  requestId: string | null;
  address: string | null;
}

export function originOf(request: FastifyRequest): RequestOrigin {
  return { requestId: String(request.id), address: request.ip ?? null };
}

/** The audit context of a person acting from `origin`. */
export function personContext(person: { id: string; name: string }, origin: RequestOrigin): AuditContext {
  return { actor: { type: 'user', id: person.id, name: person.name }, ...origin };
}

/** `{ field: { before: null, after } }` for each field: what an event adds without a before. */
export function added(values: Record<string, unknown>): Record<string, { before: null; after: unknown }> {
  return Object.fromEntries(Object.entries(values).map(([field, after]) => [field, { before: null, after }]));
}
