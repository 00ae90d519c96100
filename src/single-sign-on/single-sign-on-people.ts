import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AuditLog } from '../audit/audit-log.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import { added, ANONYMOUS_ACTOR, originOf } from '../users/people-audit.js';
import { SessionsService } from '../users/sessions.service.js';
import { UsersService } from '../users/users.service.js';

/** The person single sign-on may sign in. */
export interface SignInCandidate {
  id: string;
}

/** A refused single sign-on, for the audit log: why, and the email the provider named, if any. */
export interface SignInRefusal {
  reason: string;
  email: string | undefined;
}

/**
 * What single sign-on needs from the people's module: find the active person holding a verified
 * email, start that person's console session, record a refusal. It never creates a person.
 */
export abstract class SingleSignOnPeople {
  /** The active person whose email equals `email` (case-insensitive), or undefined. */
  abstract findActivePersonByEmail(email: string): Promise<SignInCandidate | undefined>;

  /** Starts a new session for the person, its cookie set on `reply`, exactly as a password sign-in does. */
  abstract startSession(personId: string, request: FastifyRequest, reply: FastifyReply): Promise<void>;

  abstract recordRefusal(request: FastifyRequest, refusal: SignInRefusal): Promise<void>;
}

/** The people's module behind the interface: its people, its sessions and its audit events. */
@Injectable()
export class PeopleForSingleSignOn extends SingleSignOnPeople {
  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly auditLog: AuditLog,
    private readonly transactions: TransactionRunner,
  ) {
    super();
  }

  findActivePersonByEmail(email: string): Promise<SignInCandidate | undefined> {
    return this.users.findActiveByEmail(email);
  }

  async startSession(personId: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.sessions.startSessionFor(personId, request, reply, 'single-sign-on');
  }

  /** Recorded as a failed password sign-in is: see "Sign-in failures in the audit log" in docs/api-decisions.md. */
  async recordRefusal(request: FastifyRequest, { reason, email }: SignInRefusal): Promise<void> {
    const target = { type: 'session' as const, id: email?.slice(0, 200) ?? 'unknown' };
    const changes = added({ method: 'single-sign-on', reason, ...(email ? { email: email.slice(0, 254) } : {}) });
    await this.transactions.run((manager) =>
      this.auditLog.record(manager, { actor: ANONYMOUS_ACTOR, ...originOf(request) }, { action: 'sign-in-failed', target, changes }),
    );
  }
}
