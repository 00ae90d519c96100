import { ApiProperty } from '@nestjs/swagger';

/** Documented shape only: the token route validates by hand to answer RFC 6749 error codes. */
export class TokenRequestDto {
  /** Client id (integer, or numeric string). Required unless the credentials come as HTTP Basic (then leave it out). */
  @ApiProperty({ example: 1001, oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^[0-9]+$' }] })
  client_id?: number | string;

  /** Client secret. Required unless the credentials come as HTTP Basic (then leave it out). */
  @ApiProperty({ example: 'dev-secret-change-me' })
  client_secret?: string;

  @ApiProperty({ example: 'client_credentials' })
  grant_type: 'client_credentials';

  /** Space-separated subset of the client scopes; default all of them */
  @ApiProperty({ example: 'admin orders' })
  scope?: string;
}

export class TokenResponseDto {
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...' })
  access_token: string;

  @ApiProperty({ example: 'Bearer' })
  token_type: 'Bearer';

  /** Seconds until the token expires */
  @ApiProperty({ type: 'integer', minimum: 1, example: 3600 })
  expires_in: number;

  /** Scopes granted */
  @ApiProperty({ example: 'admin orders platform' })
  scope: string;
}
