import type { FastifyReply, FastifyRequest } from 'fastify';

/** The person single sign-on may sign in. */
export interface SignInCandidate {
  id: string;
}

/**
 * What single sign-on needs from the people's module: find the active person holding a verified
 * email, and start that person's console session on the reply. Single sign-on never creates a person.
 */
export abstract class SingleSignOnPeople {
  /** The active person whose email equals `email` (case-insensitive), or undefined. */
  abstract findActivePersonByEmail(email: string): Promise<SignInCandidate | undefined>;

  /** Starts a new session for the person, its cookie set on `reply`, exactly as a password sign-in does. */
  abstract startSession(personId: string, request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** Until people have accounts, nobody can be signed in: every callback ends on the sign-in page's error. */
export class NoPeopleYet extends SingleSignOnPeople {
  findActivePersonByEmail(): Promise<SignInCandidate | undefined> {
    return Promise.resolve(undefined);
  }

  startSession(): Promise<void> {
    return Promise.reject(new Error('people have no accounts yet'));
  }
}
