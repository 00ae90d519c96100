import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Not, type EntityManager, type Repository } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { ApiError } from '../common/errors/api-error.js';
import { ErrorCode } from '../common/errors/error-codes.js';
import { pageOf, type Page } from '../common/http/pagination.js';
import { ROOT_LOGGER } from '../common/logging/logger.tokens.js';
import type { Logger } from '../common/logging/logger.js';
import { uniqueViolation } from '../database/postgres-errors.js';
import { TransactionRunner } from '../database/transaction-runner.js';
import type { Role } from '../auth/principal.js';
import { changedFields } from '../audit/audit-changes.js';
import type { AuditContext } from '../audit/audit-event.types.js';
import { AuditLog } from '../audit/audit-log.js';
import { Mailer, type EmailProblem } from '../mail/mailer.js';
import { added, personContext, type RequestOrigin } from './people-audit.js';
import { AppUserEntity } from './app-user.entity.js';
import type { PasswordLinkInfoDto } from './dto/session.dto.js';
import type { CreateUserDto, UpdateUserDto, UserDto } from './dto/user.dto.js';
import { emailInUse, lastAdmin, passwordRejected } from './dto/user-errors.dto.js';
import { PasswordHasher } from './password-hasher.js';
import { PasswordLinkEntity, type PasswordLinkPurpose } from './password-link.entity.js';
import { passwordLinkMail } from './password-link-mail.js';
import { passwordProblem } from './password-rules.js';
import { randomToken, tokenHash } from './session-cookie.js';
import { UsersRepository } from './users.repository.js';
import { UserTotpEntity } from './two-factor/user-totp.entity.js';

/** How long a one-time password link stays valid. */
export const LINK_VALIDITY_MS = 24 * 3600_000;
const LINK_NOT_FOUND_MESSAGE = 'This link is unknown, used or expired; ask an admin for a new one';
/** The name of the development admin a first start outside production creates. */
const BOOTSTRAP_ADMIN_NAME = 'Development admin';

/** A one-time link just issued, and whether it went to the person by e-mail. */
export interface IssuedLink {
  link: string;
  linkExpiresAt: string;
  emailSent: boolean;
  /** Why it was not e-mailed; null when it was, or when no e-mail was asked for (the CLI). */
  emailProblem: EmailProblem | null;
}

export interface LinkDelivery {
  /** E-mail the link to the person (the API does; the CLI prints it instead). */
  email?: boolean;
}

/** People, their roles and their one-time password links. */
@Injectable()
export class UsersService {
  private readonly hasher = new PasswordHasher();

  constructor(
    @InjectRepository(AppUserEntity) private readonly users: Repository<AppUserEntity>,
    @InjectRepository(UserTotpEntity) private readonly totps: Repository<UserTotpEntity>,
    private readonly repository: UsersRepository,
    private readonly transactions: TransactionRunner,
    private readonly auditLog: AuditLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ROOT_LOGGER) private readonly logger: Logger,
    private readonly mailer: Mailer,
  ) {}

  async list(page = 1, pageSize = 20): Promise<Page<UserDto>> {
    const [rows, total] = await this.users.findAndCount({
      order: { createdAt: 'ASC', id: 'ASC' },
      skip: (page - 1) * pageSize,
      take: pageSize,
    });
    const withTwoFactor = await this.twoFactorEnabledOf(rows.map((row) => row.id));
    return pageOf(
      rows.map((row) => toUserDto(row, withTwoFactor.has(row.id))),
      total,
      page,
      pageSize,
    );
  }

  /** Which of these people have a confirmed second factor (an enrolment still waiting for its first code is not one). */
  private async twoFactorEnabledOf(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const enabled = await this.totps.find({ where: { userId: In(ids), enabledAt: Not(IsNull()) }, select: { userId: true } });
    return new Set(enabled.map((row) => row.userId));
  }

  /** The active person holding `email` (compared without regard to case), for a sign-in that proved the email elsewhere. */
  async findActiveByEmail(email: string): Promise<{ id: string; name: string } | undefined> {
    const user = await this.users
      .createQueryBuilder('user')
      .where('lower(user.email) = lower(:email) AND user.active', { email: email.trim() })
      .getOne();
    return user ? { id: user.id, name: user.name } : undefined;
  }

  async get(id: string): Promise<UserDto> {
    const user = await this.found(id);
    return toUserDto(user, (await this.twoFactorEnabledOf([id])).has(id));
  }

  /**
   * A new person, without a password: the answer's invitation link is where they set one.
   * Recorded in the audit log when `audit` is given (the API and the CLI always give it).
   */
  async create(dto: CreateUserDto, audit?: AuditContext, delivery: LinkDelivery = {}): Promise<IssuedLink & { user: UserDto }> {
    const email = dto.email.trim();
    try {
      return await this.transactions.run(async (manager) => {
        const taken = await manager
          .createQueryBuilder(AppUserEntity, 'user')
          .where('lower(user.email) = lower(:email)', { email })
          .getExists();
        if (taken) throw emailInUse(email);
        const inserted = await manager.insert(AppUserEntity, { email, name: dto.name.trim(), role: dto.role });
        const user = await manager.findOneByOrFail(AppUserEntity, { id: (inserted.identifiers[0] as { id: string }).id });
        const link = await this.issueLink(user, 'invitation', manager, delivery);
        if (audit) {
          await this.auditLog.record(
            manager,
            audit,
            { action: 'create', target: { type: 'user', id: user.id }, changes: changedFields(undefined, user, AUDITED_FIELDS) },
            { action: 'issue-link', target: { type: 'user', id: user.id }, changes: issueLinkChanges('invitation', link, delivery) },
          );
        }
        return { user: toUserDto(user), ...link };
      });
    } catch (error) {
      // Two admins adding the same email at once: the unique index decides.
      if (uniqueViolation(error) === 'ux_app_user_email') throw emailInUse(email);
      throw error;
    }
  }

  /** Changes the properties sent; deactivation ends every session of the person in the same transaction. */
  async update(id: string, dto: UpdateUserDto, audit?: AuditContext): Promise<UserDto> {
    return this.transactions.run(async (manager) => {
      // A change that may remove an admin first locks every active admin, in one order, then the person.
      const activeAdmins = removesAdmin(dto) ? await this.lockActiveAdmins(manager) : undefined;
      const user = await manager.findOne(AppUserEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
      if (!user) throw ApiError.notFound(`No person has the id ${id}`);
      if (activeAdmins && activeAdmins.length === 1 && activeAdmins[0] === id) {
        throw lastAdmin(id, dto.role !== undefined && dto.role !== 'admin' ? 'role' : 'active');
      }
      const changes: Partial<Pick<AppUserEntity, 'name' | 'role' | 'active'>> = {};
      if (dto.name !== undefined) changes.name = dto.name.trim();
      if (dto.role !== undefined) changes.role = dto.role;
      if (dto.active !== undefined) changes.active = dto.active;
      if (Object.keys(changes).length > 0) {
        await manager.update(AppUserEntity, { id }, { ...changes, updatedAt: () => 'statement_timestamp()' });
      }
      const ended = dto.active === false ? await this.repository.endPersonSessions(id, null, manager) : [];
      const after = await manager.findOneByOrFail(AppUserEntity, { id });
      if (audit) {
        const changes = changedFields(user, after, AUDITED_FIELDS);
        await this.auditLog.record(
          manager,
          audit,
          ...(Object.keys(changes).length > 0 ? [{ action: 'update', target: { type: 'user' as const, id }, changes }] : []),
          ...ended.map((sessionId) => ({
            action: 'end',
            target: { type: 'session' as const, id: sessionId },
            changes: added({ reason: 'deactivated' }),
          })),
        );
      }
      const twoFactorEnabled = (await manager.countBy(UserTotpEntity, { userId: id, enabledAt: Not(IsNull()) })) > 0;
      return toUserDto(after, twoFactorEnabled);
    });
  }

  /** A new one-time link (an invitation until a password is set, then a reset); earlier unused links stop working. */
  async newLink(id: string, audit?: AuditContext, delivery: LinkDelivery = {}): Promise<IssuedLink> {
    const user = await this.found(id);
    const purpose = user.passwordHash ? 'reset' : 'invitation';
    return this.transactions.run(async (manager) => {
      const link = await this.issueLink(user, purpose, manager, delivery);
      if (audit)
        await this.auditLog.record(manager, audit, {
          action: 'issue-link',
          target: { type: 'user', id: user.id },
          changes: issueLinkChanges(purpose, link, delivery),
        });
      return link;
    });
  }

  async newLinkForEmail(email: string, audit?: AuditContext): Promise<IssuedLink & { user: UserDto }> {
    const user = await this.users.createQueryBuilder('user').where('lower(user.email) = lower(:email)', { email: email.trim() }).getOne();
    if (!user) throw ApiError.notFound(`No person has the email ${email}`);
    const twoFactorEnabled = (await this.twoFactorEnabledOf([user.id])).has(user.id);
    return { user: toUserDto(user, twoFactorEnabled), ...(await this.newLink(user.id, audit)) };
  }

  async describeLink(token: string): Promise<PasswordLinkInfoDto> {
    const link = await this.repository.findUsableLink(tokenHash(token));
    if (!link) throw new ApiError(ErrorCode.LINK_NOT_FOUND, LINK_NOT_FOUND_MESSAGE);
    return { email: link.email, name: link.name, expiresAt: link.expiresAt.toISOString() };
  }

  /** Sets the password of the link's person and uses the link up; the person's open sessions end (a reset). */
  async setPasswordWithLink(token: string, password: string, origin?: RequestOrigin): Promise<void> {
    // A link that cannot be used costs no hash; the statement that uses it checks again.
    const link = await this.repository.findUsableLink(tokenHash(token));
    if (!link) throw new ApiError(ErrorCode.LINK_NOT_FOUND, LINK_NOT_FOUND_MESSAGE);
    const problem = passwordProblem(password, link);
    if (problem) throw passwordRejected(problem);
    const hash = await this.hasher.hash(password);
    await this.transactions.run(async (manager) => {
      const userId = await this.repository.usePasswordLink(tokenHash(token), manager);
      if (!userId) throw new ApiError(ErrorCode.LINK_NOT_FOUND, LINK_NOT_FOUND_MESSAGE);
      await manager.update(AppUserEntity, { id: userId }, { passwordHash: hash, updatedAt: () => 'statement_timestamp()' });
      const ended = await this.repository.endPersonSessions(userId, null, manager);
      if (origin) {
        // The person acts through the link; the event names no secret, only that a password was set.
        const person = await manager.findOneByOrFail(AppUserEntity, { id: userId });
        await this.auditLog.record(
          manager,
          personContext(person, origin),
          { action: 'set-password', target: { type: 'user', id: userId } },
          ...ended.map((sessionId) => ({
            action: 'end',
            target: { type: 'session' as const, id: sessionId },
            changes: added({ reason: 'password-set' }),
          })),
        );
      }
    });
  }

  /**
   * Outside production, a first start with no person creates the development admin from
   * BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD; the password must pass the same rules as
   * any other (a refused one stops the start, rather than leave a weak well-known account).
   */
  async ensureBootstrapAdmin(): Promise<void> {
    if (this.config.isProduction) {
      if ((await this.users.count()) === 0) {
        this.logger.warn(
          { context: 'People' },
          'no person can sign in to the console yet: create the first admin with `order-tax-cli users:create --email E --name N --role admin` ' +
            'and open the link it prints (`npm run cli -- users:create ...` from a checkout)',
        );
      }
      return;
    }
    const problem = passwordProblem(this.config.bootstrapAdminPassword, {
      email: this.config.bootstrapAdminEmail,
      name: BOOTSTRAP_ADMIN_NAME,
    });
    if (problem) throw new Error(`BOOTSTRAP_ADMIN_PASSWORD is refused by the password rules (${problem}); choose another`);
    const hash = await this.hasher.hash(this.config.bootstrapAdminPassword);
    const created = await this.transactions.runLocked('bootstrapAdmin', async (manager) => {
      if ((await manager.count(AppUserEntity)) > 0) return false;
      await manager.insert(AppUserEntity, {
        email: this.config.bootstrapAdminEmail,
        name: BOOTSTRAP_ADMIN_NAME,
        role: 'admin',
        passwordHash: hash,
      });
      return true;
    });
    if (created) {
      this.logger.warn(
        { context: 'People', email: this.config.bootstrapAdminEmail, role: 'admin' },
        'created the development admin from BOOTSTRAP_ADMIN_EMAIL / BOOTSTRAP_ADMIN_PASSWORD (not done in production)',
      );
    }
  }

  linkUrl(token: string): string {
    const host = this.config.host === '0.0.0.0' ? 'localhost' : this.config.host;
    const base = this.config.publicBaseUrl ?? `http://${host}:${this.config.port}`;
    return `${base}/console/set-password#${token}`;
  }

  /**
   * The ids of the active admins, their rows locked until the transaction ends. Two admins demoting
   * each other at once then run one after the other, and the second sees the first's change: a
   * row that stopped matching while it waited is left out (PostgreSQL re-checks it).
   */
  private async lockActiveAdmins(manager: EntityManager): Promise<string[]> {
    const rows = await manager
      .createQueryBuilder(AppUserEntity, 'user')
      .select('user.id', 'id')
      .where("user.role = 'admin' AND user.active")
      .orderBy('user.id')
      .setLock('pessimistic_write')
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /**
   * Stores a new link and, when asked, e-mails it. The e-mail goes inside the transaction (bounded by
   * SMTP_TIMEOUT_MS) so that the issue-link event, which records whether it was sent, commits with the
   * link; a failed e-mail never fails the request: the link stays, and the answer says why it was not sent.
   */
  private async issueLink(
    user: AppUserEntity,
    purpose: PasswordLinkPurpose,
    manager: EntityManager,
    delivery: LinkDelivery,
  ): Promise<IssuedLink> {
    const token = randomToken();
    const expiresAt = new Date(Date.now() + LINK_VALIDITY_MS);
    await manager.delete(PasswordLinkEntity, { userId: user.id, usedAt: IsNull() });
    await manager.insert(PasswordLinkEntity, { tokenHash: tokenHash(token), userId: user.id, purpose, expiresAt });
    const link = this.linkUrl(token);
    const issued = { link, linkExpiresAt: expiresAt.toISOString() };
    if (!delivery.email) return { ...issued, emailSent: false, emailProblem: null };
    const outcome = await this.mailer.send(passwordLinkMail(user, purpose, link, expiresAt));
    return { ...issued, emailSent: outcome.sent, emailProblem: outcome.sent ? null : outcome.problem };
  }

  private async found(id: string): Promise<AppUserEntity> {
    const user = await this.users.findOneBy({ id });
    if (!user) throw ApiError.notFound(`No person has the id ${id}`);
    return user;
  }
}

/** Whether `dto` takes the role admin away or deactivates: what could leave no active admin. */
function removesAdmin(dto: UpdateUserDto): boolean {
  return (dto.role !== undefined && dto.role !== 'admin') || dto.active === false;
}

/** What an issue-link event records: the purpose and, when an e-mail was asked for, whether it went (never the link). */
function issueLinkChanges(purpose: PasswordLinkPurpose, link: IssuedLink, delivery: LinkDelivery) {
  if (!delivery.email) return added({ purpose });
  return added({ purpose, emailSent: link.emailSent, ...(link.emailProblem ? { emailProblem: link.emailProblem } : {}) });
}

/** The fields of a person the audit log compares (never the password hash). */
const AUDITED_FIELDS = ['email', 'name', 'role', 'active'] as const satisfies ReadonlyArray<keyof AppUserEntity>;

export function toUserDto(user: AppUserEntity, twoFactorEnabled = false): UserDto {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role: user.role as Role,
    active: user.active,
    passwordSet: user.passwordHash !== null,
    twoFactorEnabled,
    createdAt: user.createdAt.toISOString(),
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
  };
}
