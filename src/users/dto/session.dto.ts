import { ApiProperty } from '@nestjs/swagger';
import { IsString, Length } from 'class-validator';
import { ROLES, type Role } from '../../auth/principal.js';

export class SignInDto {
  @ApiProperty({ example: 'admin@example.com' })
  @IsString()
  @Length(1, 254)
  email: string;

  @ApiProperty({ example: 'dev-admin-password' })
  @IsString()
  @Length(1, 500)
  password: string;
}

export class SessionUserDto {
  @ApiProperty({ format: 'uuid' })
  id: string;

  email: string;

  name: string;

  @ApiProperty({ enum: ROLES })
  role: Role;
}

export class SessionDto {
  user: SessionUserDto;

  /** Send it as `x-csrf-token` with every POST, PUT, PATCH and DELETE made with the session cookie */
  csrfToken: string;

  /** When the session ends unless a request comes before (each request moves it) */
  @ApiProperty({ format: 'date-time' })
  idleExpiresAt: string;

  /** When the session ends however busy (12 hours after sign-in by default) */
  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

export class ChangePasswordDto {
  @IsString()
  @Length(1, 500)
  currentPassword: string;

  /** At least 12 characters, not a common password */
  @IsString()
  @Length(1, 500)
  newPassword: string;
}

export class SingleSignOnOptionDto {
  /** The provider's name, for the sign-in button */
  name: string;

  /** Where the browser goes to sign in with the provider */
  @ApiProperty({ example: '/api/auth/oidc/start' })
  url: string;
}

export class SignInOptionsDto {
  /** Sign-in with email and password is always offered */
  @ApiProperty({ enum: [true] })
  password: true;

  /** The single sign-on provider, when one is configured */
  singleSignOn: SingleSignOnOptionDto | null;
}

export class PasswordLinkInfoDto {
  /** The person the link is for */
  email: string;

  name: string;

  @ApiProperty({ format: 'date-time' })
  expiresAt: string;
}

export class SetPasswordDto {
  /** At least 12 characters, not a common password */
  @IsString()
  @Length(1, 500)
  password: string;
}
