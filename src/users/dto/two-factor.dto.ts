import { ApiProperty } from '@nestjs/swagger';
import { ArrayUnique, IsArray, IsIn, IsOptional, IsString, Length } from 'class-validator';
import { SessionDto } from './session.dto.js';

/** The roles that may be made to sign in with a second factor. */
export const TWO_FACTOR_ROLES = ['fiscal', 'admin'] as const;
export type TwoFactorRole = (typeof TWO_FACTOR_ROLES)[number];

/** The right password was given; the sign-in goes on with a second step (202). No session yet. */
export class SignInChallengeDto {
  /** Send it back with the second step; valid for 5 minutes, signed by the service */
  challenge: string;

  /** `totp`: give a code of the authenticator app or a recovery code; `enrol`: the person's role requires a second factor they do not have yet, so they set it up now */
  @ApiProperty({ enum: ['totp', 'enrol'] })
  next: 'totp' | 'enrol';

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

export class TwoFactorSignInDto {
  /** The challenge of the sign-in's first answer */
  @IsString()
  @Length(1, 2000)
  challenge: string;

  /** The 6-digit code the authenticator app shows now (or `recoveryCode` instead) */
  @ApiProperty({ example: '123456' })
  @IsOptional()
  @IsString()
  @Length(1, 20)
  code?: string;

  /** One of the person's recovery codes, used up by this sign-in */
  @ApiProperty({ example: 'abcde-fghjk' })
  @IsOptional()
  @IsString()
  @Length(1, 40)
  recoveryCode?: string;
}

export class SignInChallengeOnlyDto {
  /** The challenge of the sign-in's first answer (`next: enrol`) */
  @IsString()
  @Length(1, 2000)
  challenge: string;
}

export class SignInEnrolmentConfirmDto {
  /** The challenge of the sign-in's first answer (`next: enrol`) */
  @IsString()
  @Length(1, 2000)
  challenge: string;

  /** The 6-digit code the authenticator app shows for the new secret */
  @ApiProperty({ example: '123456' })
  @IsString()
  @Length(1, 20)
  code: string;
}

export class TotpCodeDto {
  /** The 6-digit code the authenticator app shows for the new secret */
  @ApiProperty({ example: '123456' })
  @IsString()
  @Length(1, 20)
  code: string;
}

/** The new secret, answered once: the authenticator app reads `otpauthUri` (the QR code) or takes `secret` typed in. */
export class TotpEnrolmentDto {
  /** Base32, for typing into an authenticator app; never answered again */
  secret: string;

  /** `otpauth://totp/...` (RFC 6238, SHA-1, 6 digits, 30 s), the QR code's content */
  otpauthUri: string;
}

/** Shown once: only their keyed hashes are stored. Each works once in place of a code. */
export class RecoveryCodesDto {
  @ApiProperty({ example: ['abcde-fghjk', 'mnpqr-stuvw'] })
  recoveryCodes: string[];
}

/** The session of a sign-in that enrolled the second factor, with its recovery codes, shown once. */
export class EnrolledSessionDto extends SessionDto {
  @ApiProperty({ example: ['abcde-fghjk', 'mnpqr-stuvw'] })
  recoveryCodes: string[];
}

/** Proof that the person at the keyboard is the account's: the password, or a code of the authenticator app. */
export class ReauthenticateDto {
  @IsOptional()
  @IsString()
  @Length(1, 500)
  password?: string;

  /** A 6-digit code of the authenticator app */
  @ApiProperty({ example: '123456' })
  @IsOptional()
  @IsString()
  @Length(1, 20)
  code?: string;
}

export class TwoFactorStatusDto {
  /** Whether sign-in asks this person for a second factor */
  enabled: boolean;

  @ApiProperty({ format: 'date-time' })
  enabledAt: string | null;

  /** Recovery codes not used yet */
  @ApiProperty({ type: 'integer', minimum: 0 })
  recoveryCodesLeft: number;

  /** Whether the person's role requires a second factor (then it cannot be turned off) */
  requiredForRole: boolean;
}

export class TwoFactorRequirementDto {
  /** The roles whose people must sign in with a second factor; a person of such a role without one enrols at their next password sign-in */
  @ApiProperty({ enum: TWO_FACTOR_ROLES, isArray: true })
  @IsIn(TWO_FACTOR_ROLES, { each: true })
  @ArrayUnique()
  @IsArray()
  requiredRoles: TwoFactorRole[];
}
