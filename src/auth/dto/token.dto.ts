import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** Documented shape only: the token route validates by hand to answer RFC 6749 error codes. */
export class TokenRequestDto {
  @ApiPropertyOptional({
    description: 'Client id (integer, or numeric string). Required unless the credentials come as HTTP Basic (then leave it out).',
    example: 1001,
    oneOf: [{ type: 'integer' }, { type: 'string', pattern: '^[0-9]+$' }],
  })
  client_id?: number | string;

  @ApiPropertyOptional({
    description: 'Client secret. Required unless the credentials come as HTTP Basic (then leave it out).',
    example: 'dev-secret-change-me',
  })
  client_secret?: string;

  @ApiProperty({ enum: ['client_credentials'], example: 'client_credentials' })
  grant_type: string;

  @ApiPropertyOptional({ description: 'Space-separated subset of the client scopes; default all of them', example: 'admin orders' })
  scope?: string;
}

export class TokenResponseDto {
  @ApiProperty({ example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...' })
  access_token: string;

  @ApiProperty({ enum: ['Bearer'], example: 'Bearer' })
  token_type: 'Bearer';

  @ApiProperty({ description: 'Seconds until the token expires', example: 3600 })
  expires_in: number;

  @ApiProperty({ description: 'Scopes granted', example: 'admin orders platform' })
  scope: string;
}
