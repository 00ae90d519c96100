import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';
import type { PasswordProblem } from '../password-rules.js';

/** The email another person has. */
export class EmailInUseDetailDto extends DomainErrorDetailDto {
  /** The email sent */
  email: string;
}

/** 409 EMAIL_IN_USE: another person has this email (whatever its case); nothing was written. */
export class EmailInUseErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.EMAIL_IN_USE] })
  error: typeof DomainErrorCode.EMAIL_IN_USE;

  /** One item, about `email` */
  details: EmailInUseDetailDto[];
}

/** The rule the password breaks. */
export class PasswordRejectedDetailDto extends DomainErrorDetailDto {
  /**
   * `TOO_SHORT`: fewer than 12 characters; `COMMON`: in the list of common passwords; `PERSONAL`: made
   * guessable by the person's own email or name; `GUESSABLE`: too easy to guess otherwise (a repeated
   * character, a sequence, a keyboard row, common words or phrases)
   */
  reason: 'TOO_SHORT' | 'COMMON' | 'PERSONAL' | 'GUESSABLE';
}

/** 400 PASSWORD_REJECTED: the password breaks a rule; nothing was changed. */
export class PasswordRejectedErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.PASSWORD_REJECTED] })
  error: typeof DomainErrorCode.PASSWORD_REJECTED;

  /** One item, about the password field */
  details: PasswordRejectedDetailDto[];
}

/** The person who would have been the last active admin. */
export class LastAdminDetailDto extends DomainErrorDetailDto {
  /** The person the change was about */
  @ApiProperty({ format: 'uuid', example: '5f0c1a52-3f7e-4b8e-9c1d-2a6b7e9d4c10' })
  userId: string;
}

/** 409 LAST_ADMIN: the change would leave no active person with the role admin; nothing was changed. */
export class LastAdminErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.LAST_ADMIN] })
  error: typeof DomainErrorCode.LAST_ADMIN;

  /** One item, about `role` or `active` */
  details: LastAdminDetailDto[];
}

export function emailInUse(email: string): ApiError {
  const problem = 'another person has this email';
  return ApiError.domain<EmailInUseDetailDto>(DomainErrorCode.EMAIL_IN_USE, `Another person has the email ${email}`, [
    { field: 'email', problem, email },
  ]);
}

const PASSWORD_PROBLEMS: Record<PasswordProblem, string> = {
  TOO_SHORT: 'must be at least 12 characters long',
  COMMON: 'is too common: it is in a list of passwords found in breaches',
  PERSONAL: 'is too easy to guess from your email or name: choose one without them',
  GUESSABLE: 'is too easy to guess (a repeated character, a sequence, a keyboard row or common words): add more unrelated words',
};

export function passwordRejected(reason: PasswordProblem, field = 'password'): ApiError {
  const problem = PASSWORD_PROBLEMS[reason];
  return ApiError.domain<PasswordRejectedDetailDto>(DomainErrorCode.PASSWORD_REJECTED, `The ${field} ${problem}`, [
    { field, problem, reason },
  ]);
}

/** `field` is the property whose change would remove the last active admin (`role` or `active`). */
export function lastAdmin(userId: string, field: 'role' | 'active'): ApiError {
  const problem = 'would leave no active admin: make another person admin first';
  return ApiError.domain<LastAdminDetailDto>(DomainErrorCode.LAST_ADMIN, `This person is the last active admin; the change ${problem}`, [
    { field, problem, userId },
  ]);
}
