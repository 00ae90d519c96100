import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Length } from 'class-validator';
import type { Scope } from '../scopes.js';

export class LoginDto {
  /** Client id (numeric string; a JSON integer is accepted too) */
  @ApiProperty({ example: '1001' })
  @Transform(({ value }) => (typeof value === 'number' && Number.isInteger(value) ? String(value) : value))
  @IsString()
  @Length(1, 100)
  client_id: string;

  /** Client secret */
  @ApiProperty({ example: 'dev-secret-change-me' })
  @IsString()
  @Length(1, 500)
  client_secret: string;

  /** Only `client_credentials` is accepted */
  @ApiProperty({ example: 'client_credentials' })
  @IsIn(['client_credentials'], { message: 'grant_type must be client_credentials' })
  grant_type: 'client_credentials';
}

export class LoginResponseDto {
  /** Bearer token for the `Authorization` header */
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...' })
  accessToken: string;

  @ApiProperty({ example: 'Bearer' })
  tokenType: 'Bearer';

  /** Lifetime of the token in seconds */
  @ApiProperty({ type: 'integer', minimum: 1, example: 3600 })
  expiresIn: number;
}

export class TokenInfoDto {
  @ApiProperty({ example: '1001' })
  clientId: string;

  @ApiProperty({ example: ['admin', 'orders'] })
  scopes: Scope[];
}
