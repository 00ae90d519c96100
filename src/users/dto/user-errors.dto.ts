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
  /** `TOO_SHORT`: fewer than 12 characters; `COMMON`: in the list of common passwords */
  reason: 'TOO_SHORT' | 'COMMON';
}

/** 400 PASSWORD_REJECTED: the password breaks a rule; nothing was changed. */
export class PasswordRejectedErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.PASSWORD_REJECTED] })
  error: typeof DomainErrorCode.PASSWORD_REJECTED;

  /** One item, about the password field */
  details: PasswordRejectedDetailDto[];
}

export function emailInUse(email: string): ApiError {
  const problem = 'another person has this email';
  return ApiError.domain<EmailInUseDetailDto>(DomainErrorCode.EMAIL_IN_USE, `Another person has the email ${email}`, [
    { field: 'email', problem, email },
  ]);
}

export function passwordRejected(reason: PasswordProblem, field = 'password'): ApiError {
  const problem =
    reason === 'TOO_SHORT' ? 'must be at least 12 characters long' : 'is too common: it is in a list of passwords found in breaches';
  return ApiError.domain<PasswordRejectedDetailDto>(DomainErrorCode.PASSWORD_REJECTED, `The ${field} ${problem}`, [
    { field, problem, reason },
  ]);
}
