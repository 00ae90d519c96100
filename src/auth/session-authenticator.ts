import type { FastifyRequest } from 'fastify';
import type { UserPrincipal } from './principal.js';

/** A person's session found from the request's cookie. */
export interface AuthenticatedSession {
  principal: UserPrincipal;
  /** What `x-csrf-token` must equal on a state-changing request. */
  csrfToken: string;
}

/**
 * How the access guard recognises a person's session cookie. Provided by the people's module
 * (which needs this folder, so this folder cannot import it); without it only bearer tokens count.
 */
export abstract class SessionAuthenticator {
  /** The request's session, undefined without a session cookie; a 401 when the cookie's session is not live. */
  abstract authenticate(request: FastifyRequest): Promise<AuthenticatedSession | undefined>;
}
