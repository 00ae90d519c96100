import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EntityManager, Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import type { UserPrincipal } from '../auth/principal.js';
import { type AuthenticatedSession, SessionAuthenticator } from '../auth/session-authenticator.js';
import { AppUserEntity } from './app-user.entity.js';
import type { ChangePasswordDto, SessionDto, SignInDto } from './dto/session.dto.js';
import { passwordRejected } from './dto/user-errors.dto.js';
import { PasswordHasher } from './password-hasher.js';
import { passwordProblem } from './password-rules.js';
import { clearSessionCookie, hasSessionCookie, randomToken, setSessionCookie, signedSessionToken, tokenHash } from './session-cookie.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { UserSessionEntity } from './user-session.entity.js';
import { UsersRepository } from './users.repository.js';
import { AuditLog } from '../audit/audit-log.js';
import { added, ANONYMOUS_ACTOR, originOf, personContext } from './people-audit.js';
import type { EnrolledSessionDto, SignInChallengeDto, TotpEnrolmentDto, TwoFactorSignInDto } from './dto/two-factor.dto.js';
import { type SecondFactorUsed, TwoFactorService } from './two-factor/two-factor.service.js';

/** The one answer to every failed sign-in: unknown email, wrong password, inactive person, no password set. */
export const SIGN_IN_FAILED = 'Wrong email or password';
export const SESSION_ENDED = 'The session has ended or is not valid; sign in again';
export const ACCESS_REMOVED = 'The access of this person was removed (deactivated by an admin); ask an admin';

/**
 * People's console sessions: sign-in, the cookie's check on every request (the access guard asks
 * through `SessionAuthenticator`), sign-out and password change. See "Sessions" in docs/access.md.
 */
@Injectable()
export class SessionsService extends SessionAuthenticator {
  private readonly hasher = new PasswordHasher();

  constructor(
    @InjectRepository(AppUserEntity) private readonly users: Repository<AppUserEntity>,
    @InjectRepository(UserSessionEntity) private readonly sessions: Repository<UserSessionEntity>,
    private readonly repository: UsersRepository,
    private readonly throttle: SignInThrottle,
    private readonly transactions: TransactionRunner,
    private readonly auditLog: AuditLog,
    private readonly twoFactor: TwoFactorService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  private get idleSeconds(): number {
    return this.config.sessionIdleMinutes * 60;
  }

  private get maxSeconds(): number {
    return this.config.sessionMaxHours * 3600;
  }

  async authenticate(request: FastifyRequest): Promise<AuthenticatedSession | undefined> {
    if (!hasSessionCookie(request, this.config.isProduction)) return undefined;
    const token = signedSessionToken(request, this.config.isProduction);
    const row = token ? await this.repository.touchLiveSession(tokenHash(token), this.idleSeconds, this.maxSeconds) : undefined;
    if (!row) {
      // Read only on this failure path: a deactivated person is told so, not that the session expired.
      if (token && (await this.repository.isSessionOfInactivePerson(tokenHash(token))))
        throw new ApiError(ErrorCode.ACCESS_REMOVED, ACCESS_REMOVED, { headers: { 'www-authenticate': 'Bearer' } });
      throw ApiError.unauthorized(SESSION_ENDED);
    }
    return {
      principal: { kind: 'user', userId: row.user_id, email: row.email, name: row.name, role: row.role, sessionId: row.session_id },
      csrfToken: row.csrf_token,
    };
  }

  /** A session, or (202) the second step a person with two-factor sign-in, or of a role that requires it, must take first. */
  async signIn(dto: SignInDto, request: FastifyRequest, reply: FastifyReply): Promise<SessionDto | SignInChallengeDto> {
    const email = dto.email.trim().toLowerCase();
    // Counted before the (slow) password check, so that attempts sent together cannot all pass the limit.
    const attempt = await this.throttle.reserve(email, request.ip);
    const user = await this.users.createQueryBuilder('user').where('lower(user.email) = :email', { email }).getOne();
    // The hash runs for an unknown email or a person without a password too (against a dummy).
    const matches = await this.hasher.verify(dto.password, user?.passwordHash);
    if (!user || !matches || !user.active) {
      const reason = !user ? 'unknown-email' : !user.passwordHash ? 'no-password' : !matches ? 'wrong-password' : 'inactive';
      // See "Sign-in failures in the audit log" in docs/api-decisions.md.
      await this.transactions.run((manager) =>
        this.auditLog.record(
          manager,
          { actor: ANONYMOUS_ACTOR, ...originOf(request) },
          {
            action: 'sign-in-failed',
            target: { type: 'session', id: user?.id ?? email.slice(0, 200) },
            changes: added({ email: dto.email.slice(0, 254), reason }),
          },
        ),
      );
      throw new ApiError(ErrorCode.UNAUTHORIZED, SIGN_IN_FAILED);
    }
    // Only failures count: a right password takes its attempt back.
    await attempt.release();
    const challenge = await this.twoFactor.challengeAfterPassword(user);
    if (challenge) {
      // Not a session: a signed statement that the password was right, good for the second step only.
      reply.status(202);
      return challenge;
    }
    return this.startSessionFor(user.id, request, reply);
  }

  /** The second step: a code of the authenticator app or a recovery code, then the session. */
  async signInWithSecondFactor(dto: TwoFactorSignInDto, request: FastifyRequest, reply: FastifyReply): Promise<SessionDto> {
    const user = await this.twoFactor.personOfChallenge(dto.challenge, 'totp');
    const used = await this.twoFactor.verifyForSignIn(user, dto, personContext(user, originOf(request)), request.ip);
    return this.startSessionFor(user.id, request, reply, 'password', used);
  }

  /** The enrolment a role's requirement asks for before the session: the new secret, shown once. */
  async startSignInEnrolment(challenge: string): Promise<TotpEnrolmentDto> {
    const user = await this.twoFactor.personOfChallenge(challenge, 'enrol');
    return this.twoFactor.startEnrolment(user);
  }

  /** The enrolment's first code turns the second factor on and starts the session; the recovery codes come with it, once. */
  async confirmSignInEnrolment(challenge: string, code: string, request: FastifyRequest, reply: FastifyReply): Promise<EnrolledSessionDto> {
    const user = await this.twoFactor.personOfChallenge(challenge, 'enrol');
    const context = personContext(user, originOf(request));
    const attempt = await this.throttle.reserveSecondFactor(user.id, user.email.toLowerCase(), request.ip);
    const recoveryCodes = await this.twoFactor.confirmEnrolment(user.id, code, context);
    await attempt.release();
    const session = await this.startSessionFor(user.id, request, reply, 'password', 'totp');
    return { ...session, recoveryCodes };
  }

  /**
   * Starts a session for a person already identified (by password here, by single sign-on
   * elsewhere): always a new random id, the cookie's earlier session ended (no fixation), the
   * cookie set on `reply`. The caller has checked that the person is active.
   */
  async startSessionFor(
    userId: string,
    request: FastifyRequest,
    reply: FastifyReply,
    method: 'password' | 'single-sign-on' = 'password',
    secondFactor?: SecondFactorUsed,
  ): Promise<SessionDto> {
    const previous = signedSessionToken(request, this.config.isProduction);
    const token = randomToken();
    const session = await this.transactions.run(async (manager) => {
      const ended = previous ? await this.repository.endSessionByToken(tokenHash(previous), manager) : undefined;
      const started = await this.insertSession(userId, token, manager);
      const person = await manager.findOneByOrFail(AppUserEntity, { id: userId });
      await this.auditLog.record(
        manager,
        personContext(person, originOf(request)),
        ...(ended
          ? [{ action: 'end', target: { type: 'session' as const, id: ended.id }, changes: added({ reason: 'new-sign-in' }) }]
          : []),
        {
          action: 'sign-in',
          target: { type: 'session', id: started.id },
          changes: added({ method, ...(secondFactor ? { secondFactor } : {}) }),
        },
      );
      return started;
    });
    setSessionCookie(reply, token, { isProduction: this.config.isProduction, maxAgeSeconds: this.maxSeconds });
    return this.describe(session);
  }

  /** The session the request was authenticated with (its idle timeout was just moved). */
  async current(principal: UserPrincipal): Promise<SessionDto> {
    const session = await this.sessions.findOneByOrFail({ id: principal.sessionId });
    return this.describe(session);
  }

  async signOut(principal: UserPrincipal, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    await this.transactions.run(async (manager) => {
      await manager.update(UserSessionEntity, { id: principal.sessionId }, { endedAt: () => 'statement_timestamp()' });
      await this.auditLog.record(manager, personContext({ id: principal.userId, name: principal.name }, originOf(request)), {
        action: 'sign-out',
        target: { type: 'session', id: principal.sessionId },
      });
    });
    clearSessionCookie(reply, this.config.isProduction);
  }

  /** Every session of the person ends; the caller's goes on under a new id and CSRF token. */
  async changePassword(
    principal: UserPrincipal,
    dto: ChangePasswordDto,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<SessionDto> {
    const user = await this.users.findOneByOrFail({ id: principal.userId });
    // A wrong current password is a failed password check, limited as a sign-in's: a taken session cannot guess the password.
    const attempt = await this.throttle.reserve(user.email.toLowerCase(), request.ip);
    if (!(await this.hasher.verify(dto.currentPassword, user.passwordHash))) {
      throw ApiError.badRequest('The current password is wrong', 'currentPassword');
    }
    await attempt.release();
    const problem = passwordProblem(dto.newPassword, user);
    if (problem) throw passwordRejected(problem, 'newPassword');
    const hash = await this.hasher.hash(dto.newPassword);
    const token = randomToken();
    const session = await this.transactions.run(async (manager) => {
      await manager.update(AppUserEntity, { id: user.id }, { passwordHash: hash, updatedAt: () => 'statement_timestamp()' });
      const ended = await this.repository.endPersonSessions(user.id, null, manager);
      const renewed = await this.insertSession(user.id, token, manager, false);
      await this.auditLog.record(
        manager,
        personContext(user, originOf(request)),
        { action: 'change-password', target: { type: 'user', id: user.id } },
        ...ended.map((id) => ({ action: 'end', target: { type: 'session' as const, id }, changes: added({ reason: 'password-changed' }) })),
        { action: 'renew', target: { type: 'session', id: renewed.id }, changes: added({ previous: principal.sessionId }) },
      );
      return renewed;
    });
    setSessionCookie(reply, token, { isProduction: this.config.isProduction, maxAgeSeconds: this.maxSeconds });
    return this.describe(session);
  }

  private async insertSession(userId: string, token: string, manager: EntityManager, signIn = true): Promise<UserSessionEntity> {
    const inserted = await manager.insert(UserSessionEntity, { tokenHash: tokenHash(token), userId, csrfToken: randomToken() });
    if (signIn) await manager.update(AppUserEntity, { id: userId }, { lastSignInAt: () => 'statement_timestamp()' });
    return manager.findOneByOrFail(UserSessionEntity, { id: (inserted.identifiers[0] as { id: string }).id });
  }

  private async describe(session: UserSessionEntity): Promise<SessionDto> {
    const user = await this.users.findOneByOrFail({ id: session.userId });
    return {
      user: { id: user.id, email: user.email, name: user.name, role: user.role },
      csrfToken: session.csrfToken,
      idleExpiresAt: new Date(session.lastSeenAt.getTime() + this.idleSeconds * 1000).toISOString(),
      expiresAt: new Date(session.createdAt.getTime() + this.maxSeconds * 1000).toISOString(),
    };
  }
}
