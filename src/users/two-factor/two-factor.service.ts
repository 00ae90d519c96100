import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, Repository } from 'typeorm';
import { AuditLog } from '../../audit/audit-log.js';
import type { AuditContext } from '../../audit/audit-event.types.js';
import type { Role } from '../../auth/principal.js';
import { ApiError } from '../../common/errors/api-error.js';
import { ErrorCode } from '../../common/errors/error-codes.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { TransactionRunner } from '../../database/transaction-runner.js';
import { AppUserEntity } from '../app-user.entity.js';
import type {
  ReauthenticateDto,
  SignInChallengeDto,
  TotpEnrolmentDto,
  TwoFactorRequirementDto,
  TwoFactorRole,
  TwoFactorStatusDto,
} from '../dto/two-factor.dto.js';
import { PasswordHasher } from '../password-hasher.js';
import { added } from '../people-audit.js';
import { SignInThrottle } from '../sign-in-throttle.js';
import { matchingStep, newRecoveryCodes, newTotpSecret, otpauthUri, type SignInChallengeStep, TwoFactorKeys } from './totp.js';
import { TwoFactorRequirementEntity } from './two-factor-requirement.entity.js';
import { UserRecoveryCodeEntity } from './user-recovery-code.entity.js';
import { UserTotpEntity } from './user-totp.entity.js';

/** How long the second step of a sign-in may wait after the password. */
const CHALLENGE_SECONDS = 300;

/** The second factor that let a person in. */
export type SecondFactorUsed = 'totp' | 'recovery-code';

/**
 * Two-factor sign-in with TOTP (RFC 6238) and recovery codes: enrolment, the codes' checks (each TOTP step and each
 * recovery code taken once), the roles that require it, and the admin's reset. Every change is audited, with no secret
 * or code in it. See "Two-factor sign-in" in docs/access.md.
 */
@Injectable()
export class TwoFactorService {
  private readonly keys: TwoFactorKeys;
  private readonly hasher = new PasswordHasher();

  constructor(
    @InjectRepository(UserTotpEntity) private readonly totps: Repository<UserTotpEntity>,
    @InjectRepository(UserRecoveryCodeEntity) private readonly recoveryCodes: Repository<UserRecoveryCodeEntity>,
    @InjectRepository(TwoFactorRequirementEntity) private readonly requirements: Repository<TwoFactorRequirementEntity>,
    @InjectRepository(AppUserEntity) private readonly users: Repository<AppUserEntity>,
    private readonly throttle: SignInThrottle,
    private readonly transactions: TransactionRunner,
    private readonly auditLog: AuditLog,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.keys = new TwoFactorKeys(config.jwtSecret);
  }

  /** After the right password: the second step the person must take, or null when a session may start now. */
  async challengeAfterPassword(user: AppUserEntity): Promise<SignInChallengeDto | null> {
    const totp = await this.totps.findOneBy({ userId: user.id });
    if (totp?.enabledAt) return this.challenge(user.id, 'totp');
    if (await this.isRequiredFor(user.role)) return this.challenge(user.id, 'enrol');
    return null;
  }

  /** The active person a challenge of step `next` was made for; 401 when it is forged, expired, or no longer fits. */
  async personOfChallenge(token: string, next: SignInChallengeStep): Promise<AppUserEntity> {
    const challenge = this.keys.readChallenge(token);
    const user = challenge?.next === next ? await this.users.findOneBy({ id: challenge.userId }) : null;
    const enabled = user ? Boolean((await this.totps.findOneBy({ userId: user.id }))?.enabledAt) : false;
    // An admin's reset (totp) or an enrolment finished elsewhere (enrol) since the password: sign in again.
    if (!user || !user.active || enabled !== (next === 'totp')) {
      throw new ApiError(
        ErrorCode.TWO_FACTOR_CHALLENGE_INVALID,
        'The sign-in has expired or is not valid; sign in again with the password',
      );
    }
    return user;
  }

  /**
   * The second step of a sign-in: a TOTP code or a recovery code, each taken once. A wrong one is a failed sign-in
   * (limited per address and per person); a recovery code used is audited with the number left.
   */
  async verifyForSignIn(
    user: AppUserEntity,
    given: { code?: string; recoveryCode?: string },
    context: AuditContext,
    address: string,
  ): Promise<SecondFactorUsed> {
    if (Boolean(given.code) === Boolean(given.recoveryCode)) {
      throw ApiError.badRequest('Send either code or recoveryCode', given.code ? 'recoveryCode' : 'code');
    }
    const attempt = await this.throttle.reserveSecondFactor(user.id, user.email.toLowerCase(), address);
    const used = given.code
      ? (await this.acceptTotp(user.id, given.code)) && 'totp'
      : (await this.acceptRecoveryCode(user, given.recoveryCode!, context)) && 'recovery-code';
    if (!used) {
      await this.transactions.run((manager) =>
        this.auditLog.record(manager, context, {
          action: 'sign-in-failed',
          target: { type: 'session', id: user.id },
          changes: added({ email: user.email, reason: given.code ? 'wrong-totp-code' : 'wrong-recovery-code' }),
        }),
      );
      throw invalidCode();
    }
    await attempt.release();
    return used;
  }

  async status(userId: string, role: Role): Promise<TwoFactorStatusDto> {
    const totp = await this.totps.findOneBy({ userId });
    const enabledAt = totp?.enabledAt ?? null;
    return {
      enabled: enabledAt !== null,
      enabledAt: enabledAt?.toISOString() ?? null,
      recoveryCodesLeft: enabledAt ? await this.unusedCount(userId) : 0,
      requiredForRole: await this.isRequiredFor(role),
    };
  }

  /** A new secret, pending until a code confirms it (a pending one is replaced); answered once. */
  async startEnrolment(user: Pick<AppUserEntity, 'id' | 'email'>): Promise<TotpEnrolmentDto> {
    const current = await this.totps.findOneBy({ userId: user.id });
    if (current?.enabledAt) throw alreadyEnabled();
    const secret = newTotpSecret();
    await this.totps.upsert({ userId: user.id, secretCiphertext: this.keys.encrypt(secret), enabledAt: null, lastUsedStep: null }, [
      'userId',
    ]);
    return { secret, otpauthUri: otpauthUri(secret, user.email) };
  }

  /** The first code turns the pending secret on; the answer is the recovery codes, shown once. */
  async confirmEnrolment(userId: string, code: string, context: AuditContext): Promise<string[]> {
    const pending = await this.totps.findOneBy({ userId });
    if (!pending) throw new ApiError(ErrorCode.TWO_FACTOR_NOT_ENABLED, 'No enrolment is under way: start one first');
    if (pending.enabledAt) throw alreadyEnabled();
    const secret = this.keys.decrypt(pending.secretCiphertext);
    const step = secret ? matchingStep(secret, code, Date.now()) : null;
    if (step === null) throw invalidCode();
    return this.transactions.run(async (manager) => {
      const enabled = await manager
        .createQueryBuilder()
        .update(UserTotpEntity)
        .set({ enabledAt: () => 'statement_timestamp()', lastUsedStep: String(step) })
        .where('user_id = :userId AND enabled_at IS NULL', { userId })
        .execute();
      if (enabled.affected !== 1) throw alreadyEnabled();
      const codes = await this.replaceRecoveryCodes(userId, manager);
      await this.auditLog.record(manager, context, {
        action: 'enable-two-factor',
        target: { type: 'user', id: userId },
        changes: { twoFactor: { before: 'off', after: 'totp' }, recoveryCodesLeft: { before: null, after: codes.length } },
      });
      return codes;
    });
  }

  /** New recovery codes (the earlier ones stop working), after the password or a code. */
  async regenerateRecoveryCodes(userId: string, proof: ReauthenticateDto, context: AuditContext, address: string): Promise<string[]> {
    await this.enabledOrFail(userId);
    await this.reauthenticate(userId, proof, address);
    return this.transactions.run(async (manager) => {
      const left = await this.unusedCount(userId, manager);
      const codes = await this.replaceRecoveryCodes(userId, manager);
      await this.auditLog.record(manager, context, {
        action: 'regenerate-recovery-codes',
        target: { type: 'user', id: userId },
        changes: { recoveryCodesLeft: { before: left, after: codes.length } },
      });
      return codes;
    });
  }

  /** Turns the second factor off, after the password or a code; refused while the person's role requires it. */
  async disable(userId: string, role: Role, proof: ReauthenticateDto, context: AuditContext, address: string): Promise<void> {
    await this.enabledOrFail(userId);
    if (await this.isRequiredFor(role)) {
      throw new ApiError(ErrorCode.TWO_FACTOR_REQUIRED, `The role ${role} requires a second factor: it cannot be turned off`);
    }
    await this.reauthenticate(userId, proof, address);
    await this.remove(userId, 'disable-two-factor', context);
  }

  /** An admin's reset (a lost phone): the person signs in with the password alone, or enrols again when the role requires it. */
  async resetByAdmin(userId: string, context: AuditContext): Promise<void> {
    if (!(await this.users.existsBy({ id: userId }))) throw ApiError.notFound(`No person has the id ${userId}`);
    await this.enabledOrFail(userId);
    await this.remove(userId, 'reset-two-factor', context);
  }

  async requirement(): Promise<TwoFactorRequirementDto> {
    return { requiredRoles: await this.requiredRoles() };
  }

  /** Replaces the roles that require a second factor; audited only when they changed. */
  async setRequirement(dto: TwoFactorRequirementDto, context: AuditContext): Promise<TwoFactorRequirementDto> {
    const after = sortedRoles(dto.requiredRoles);
    await this.transactions.run(async (manager) => {
      const before = sortedRoles((await manager.find(TwoFactorRequirementEntity)).map((row) => row.role));
      if (before.join() === after.join()) return;
      await manager.createQueryBuilder().delete().from(TwoFactorRequirementEntity).execute();
      if (after.length > 0)
        await manager.insert(
          TwoFactorRequirementEntity,
          after.map((role) => ({ role })),
        );
      await this.auditLog.record(manager, context, {
        action: 'update',
        target: { type: 'sign-in-settings', id: 'two-factor' },
        changes: { requiredRoles: { before, after } },
      });
    });
    return { requiredRoles: after };
  }

  private async requiredRoles(): Promise<TwoFactorRole[]> {
    return sortedRoles((await this.requirements.find()).map((row) => row.role));
  }

  private async isRequiredFor(role: Role): Promise<boolean> {
    return (await this.requiredRoles()).includes(role as TwoFactorRole);
  }

  private challenge(userId: string, next: SignInChallengeStep): SignInChallengeDto {
    const expiresAt = Date.now() + CHALLENGE_SECONDS * 1000;
    return { challenge: this.keys.signChallenge({ userId, next, expiresAt }), next, expiresAt: new Date(expiresAt).toISOString() };
  }

  /** True when `code` is a code of the person's enabled secret of a step later than the last one taken; that step is then taken. */
  private async acceptTotp(userId: string, code: string): Promise<boolean> {
    const totp = await this.totps.findOneBy({ userId });
    const secret = totp?.enabledAt ? this.keys.decrypt(totp.secretCiphertext) : null;
    const step = secret ? matchingStep(secret, code, Date.now()) : null;
    if (step === null) return false;
    // One statement: two requests with the same code cannot both take its step.
    const taken = await this.totps
      .createQueryBuilder()
      .update()
      .set({ lastUsedStep: String(step) })
      .where('user_id = :userId AND enabled_at IS NOT NULL AND (last_used_step IS NULL OR last_used_step < :step)', { userId, step })
      .execute();
    return taken.affected === 1;
  }

  private async acceptRecoveryCode(user: AppUserEntity, code: string, context: AuditContext): Promise<boolean> {
    return this.transactions.run(async (manager) => {
      const used = await manager
        .createQueryBuilder()
        .update(UserRecoveryCodeEntity)
        .set({ usedAt: () => 'statement_timestamp()' })
        .where('user_id = :userId AND code_hash = :hash AND used_at IS NULL', { userId: user.id, hash: this.keys.recoveryCodeHash(code) })
        .execute();
      if (used.affected !== 1) return false;
      const left = await this.unusedCount(user.id, manager);
      await this.auditLog.record(manager, context, {
        action: 'use-recovery-code',
        target: { type: 'user', id: user.id },
        changes: { recoveryCodesLeft: { before: left + 1, after: left } },
      });
      return true;
    });
  }

  private async reauthenticate(userId: string, proof: ReauthenticateDto, address: string): Promise<void> {
    if (Boolean(proof.password) === Boolean(proof.code)) throw ApiError.badRequest('Send either password or code', 'password');
    const user = await this.users.findOneByOrFail({ id: userId });
    // Limited as a sign-in: a taken session cannot guess the password or the code.
    const attempt = await this.throttle.reserveSecondFactor(user.id, user.email.toLowerCase(), address);
    const right = proof.password ? await this.hasher.verify(proof.password, user.passwordHash) : await this.acceptTotp(userId, proof.code!);
    if (!right) {
      throw new ApiError(
        ErrorCode.REAUTHENTICATION_FAILED,
        proof.password ? 'The password is wrong' : 'The code is wrong or was already used',
        {
          details: [{ field: proof.password ? 'password' : 'code', problem: 'is wrong' }],
        },
      );
    }
    await attempt.release();
  }

  private async enabledOrFail(userId: string): Promise<void> {
    if (!(await this.totps.findOneBy({ userId }))?.enabledAt) {
      throw new ApiError(ErrorCode.TWO_FACTOR_NOT_ENABLED, 'This person has no second factor');
    }
  }

  private async remove(userId: string, action: 'disable-two-factor' | 'reset-two-factor', context: AuditContext): Promise<void> {
    await this.transactions.run(async (manager) => {
      const left = await this.unusedCount(userId, manager);
      await manager.delete(UserRecoveryCodeEntity, { userId });
      await manager.delete(UserTotpEntity, { userId });
      await this.auditLog.record(manager, context, {
        action,
        target: { type: 'user', id: userId },
        changes: { twoFactor: { before: 'totp', after: 'off' }, recoveryCodesLeft: { before: left, after: 0 } },
      });
    });
  }

  private async replaceRecoveryCodes(userId: string, manager: EntityManager): Promise<string[]> {
    const codes = newRecoveryCodes();
    await manager.delete(UserRecoveryCodeEntity, { userId });
    await manager.insert(
      UserRecoveryCodeEntity,
      codes.map((code) => ({ userId, codeHash: this.keys.recoveryCodeHash(code) })),
    );
    return codes;
  }

  private async unusedCount(userId: string, manager?: EntityManager): Promise<number> {
    const repository = manager ? manager.getRepository(UserRecoveryCodeEntity) : this.recoveryCodes;
    return repository.createQueryBuilder('code').where('code.user_id = :userId AND code.used_at IS NULL', { userId }).getCount();
  }
}

function sortedRoles(roles: readonly TwoFactorRole[]): TwoFactorRole[] {
  return [...new Set(roles)].sort();
}

function invalidCode(): ApiError {
  return new ApiError(ErrorCode.TWO_FACTOR_CODE_INVALID, 'The code is wrong, expired or was already used', {
    details: [{ field: 'code', problem: 'is wrong, expired or was already used' }],
  });
}

function alreadyEnabled(): ApiError {
  return new ApiError(ErrorCode.TWO_FACTOR_ALREADY_ENABLED, 'Two-factor sign-in is already on: turn it off first to enrol again');
}
