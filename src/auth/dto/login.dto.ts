import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Length } from 'class-validator';

export class LoginDto {
  @ApiProperty({ description: 'Client id (numeric string; a JSON integer is accepted too)', example: '1001' })
  @Transform(({ value }) => (typeof value === 'number' && Number.isInteger(value) ? String(value) : value))
  @IsString()
  @Length(1, 100)
  client_id: string;

  @ApiProperty({ description: 'Client secret', example: 'dev-secret-change-me' })
  @IsString()
  @Length(1, 500)
  client_secret: string;

  @ApiProperty({ description: 'Only `client_credentials` is accepted', enum: ['client_credentials'], example: 'client_credentials' })
  @IsIn(['client_credentials'], { message: 'grant_type must be client_credentials' })
  grant_type: string;
}

export class LoginResponseDto {
  @ApiProperty({ description: 'Bearer token for the `Authorization` header', example: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9...' })
  accessToken: string;

  @ApiProperty({ enum: ['Bearer'], example: 'Bearer' })
  tokenType: 'Bearer';

  @ApiProperty({ description: 'Lifetime of the token in seconds', example: 3600 })
  expiresIn: number;
}

export class TokenInfoDto {
  @ApiProperty({ example: '1001' })
  clientId: string;

  @ApiProperty({ enum: ['admin', 'orders', 'platform'], isArray: true, example: ['admin', 'orders'] })
  scopes: string[];
}
