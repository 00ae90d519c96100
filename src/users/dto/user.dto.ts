import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsString, Length } from 'class-validator';
import { OptionalNotNull } from '../../common/http/optional-not-null.js';
import { ROLES, type Role } from '../../auth/principal.js';
import { EMAIL_PROBLEMS, type EmailProblem } from '../../mail/mailer.js';

export class UserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty({ example: 'ana@example.com' })
  email: string;

  @ApiProperty({ example: 'Ana Souza' })
  name: string;

  /** `support` < `fiscal` < `admin`: each role may do what the one before it may */
  @ApiProperty({ enum: ROLES })
  role: Role;

  /** An inactive person cannot sign in; deactivation ends the person's sessions at once */
  active: boolean;

  /** Whether the person has set a password (invited people have not, until they open their link) */
  passwordSet: boolean;

  /** Whether the person signs in with a second factor (TOTP); an admin resets it with `DELETE /api/admin/users/{id}/two-factor` */
  twoFactorEnabled: boolean;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  lastSignInAt: string | null;
}

export class UserPageDto {
  items: UserDto[];
  /** People in all pages */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  pageSize: number;

  /** ceil(total / pageSize); 0 when total is 0 */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  totalPages: number;
}

export class CreateUserDto {
  /** Unique whatever its case */
  @ApiProperty({ example: 'ana@example.com' })
  @IsString()
  @Length(3, 254)
  @IsEmail()
  email: string;

  @ApiProperty({ example: 'Ana Souza' })
  @IsString()
  @Length(1, 200)
  name: string;

  @ApiProperty({ enum: ROLES })
  @IsIn(ROLES)
  role: Role;
}

/** Only the properties sent change. */
export class UpdateUserDto {
  @ApiProperty({ example: 'Ana Souza' })
  @OptionalNotNull()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ApiProperty({ enum: ROLES })
  @OptionalNotNull()
  @IsIn(ROLES)
  role?: Role;

  /** false: the person can no longer sign in, and every open session ends at once */
  @OptionalNotNull()
  @IsBoolean()
  active?: boolean;
}

export class PasswordLinkDto {
  /**
   * Open it to set a password; valid 24 hours, once. Shown only in this answer, and only when it was not
   * e-mailed to the person (null when `emailSent`: the link then exists only in the person's mailbox)
   */
  @ApiProperty({ example: 'http://localhost:3000/console/set-password#Jq3w...' })
  link: string | null;

  @ApiProperty({ format: 'date-time' })
  linkExpiresAt: string;

  /** Whether the link went to the person's e-mail address (only when the service has a mail server, SMTP_URL) */
  emailSent: boolean;

  /**
   * Why it was not e-mailed, null when it was: `SMTP_NOT_CONFIGURED` (no mail server; pass the link on),
   * `SMTP_TIMEOUT` (the server did not answer in time), `SMTP_UNREACHABLE`, `SMTP_AUTH_FAILED` (the server
   * refused the service's credentials), `SMTP_REJECTED` (the server refused the message or the address)
   */
  @ApiProperty({ enum: EMAIL_PROBLEMS, nullable: true })
  emailProblem: EmailProblem | null;
}

export class CreatedUserDto extends PasswordLinkDto {
  user: UserDto;
}
