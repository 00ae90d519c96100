import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, IsBoolean, IsIn, IsInt, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';
import { SCOPES, type Scope } from '../../auth/scopes.js';
import { OptionalNotNull } from '../../common/http/optional-not-null.js';
import { STORE_ID_PROBLEM, type ClientRecord } from '../../auth/api-clients.service.js';

/** The longest grace period of a replaced secret: one week. */
export const MAX_GRACE_SECONDS = 604_800;

const STORES_DOC =
  "The orders' `store.id` (as text) the client may touch; empty: every store. A client limited to stores cannot hold `admin`.";
/** The request's list: an entry is a store id as sent, so a blank one is refused rather than dropped (which could leave `[]`, every store). */
const STORES_REQUEST_DOC = `${STORES_DOC} Each entry is a store id: not blank, without spaces at either end; \`[]\` is the only way to say every store.`;

/** An API client, never with its secret. */
export class ClientDto {
  /** The numeric id integrators send as `client_id` */
  @ApiProperty({ example: '1002' })
  clientId: string;

  /** Who uses it */
  @ApiProperty({ example: 'POS store 162' })
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['orders'] })
  scopes: Scope[];

  @ApiProperty({ description: STORES_DOC, example: ['162'] })
  stores: string[];

  /** An inactive client's tokens and credentials stop working within AUTH_CACHE_SECONDS */
  active: boolean;

  @ApiProperty({ format: 'date-time', example: '2026-03-01T12:00:00.000Z' })
  createdAt: string;

  @ApiProperty({ format: 'date-time', example: '2026-03-01T12:00:00.000Z' })
  updatedAt: string;
}

/** The created client and its secret, shown this once. */
export class CreatedClientDto extends ClientDto {
  /** The client secret: shown only in this answer, stored only as a hash */
  @ApiProperty({ example: 'example-secret-shown-only-once' })
  secret: string;
}

export class ClientPageDto {
  /** Oldest first */
  items: ClientDto[];

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

export class CreateClientDto {
  /** Who uses it */
  @ApiProperty({ example: 'POS store 162' })
  @Length(1, 200)
  @IsString()
  name: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['orders'] })
  @IsIn(SCOPES, { each: true })
  @ArrayNotEmpty()
  scopes: Scope[];

  @ApiProperty({ description: STORES_REQUEST_DOC, example: ['162', '163'], required: false })
  @IsOptional()
  @Matches(/^\S(?:[\s\S]*\S)?$/, { each: true, message: STORE_ID_PROBLEM })
  @Length(1, 100, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(1000)
  stores?: string[];
}

/** Any of the fields; the others stay as they are. */
export class UpdateClientDto {
  @ApiProperty({ example: 'POS store 162 (front counter)', required: false })
  @OptionalNotNull()
  @Length(1, 200)
  @IsString()
  name?: string;

  @ApiProperty({ enum: SCOPES, isArray: true, example: ['orders'], required: false })
  @OptionalNotNull()
  @IsIn(SCOPES, { each: true })
  @ArrayNotEmpty()
  scopes?: Scope[];

  @ApiProperty({ description: STORES_REQUEST_DOC, example: ['162', '164'], required: false })
  @OptionalNotNull()
  @Matches(/^\S(?:[\s\S]*\S)?$/, { each: true, message: STORE_ID_PROBLEM })
  @Length(1, 100, { each: true })
  @IsString({ each: true })
  @ArrayMaxSize(1000)
  stores?: string[];

  /** false: its tokens and credentials stop working within AUTH_CACHE_SECONDS */
  @OptionalNotNull()
  @IsBoolean()
  active?: boolean;
}

export class RotateSecretDto {
  /** How long the replaced secret keeps working for login, the token endpoint and HTTP Basic (0, the default: it stops at once) */
  @ApiProperty({ type: 'integer', minimum: 0, maximum: MAX_GRACE_SECONDS, example: 3600, required: false })
  @IsOptional()
  @Max(MAX_GRACE_SECONDS)
  @Min(0)
  @IsInt()
  graceSeconds?: number;
}

export class RotatedSecretDto {
  @ApiProperty({ example: '1002' })
  clientId: string;

  /** The new secret: shown only in this answer */
  @ApiProperty({ example: 'example-new-secret-shown-only-once' })
  secret: string;

  /** Until when the replaced secret still works; null when it stopped at once */
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, example: '2026-03-01T13:00:00.000Z' })
  previousSecretValidUntil: string | null;
}

export function toClientDto(client: ClientRecord): ClientDto {
  return {
    clientId: client.clientId,
    name: client.name,
    scopes: client.scopes,
    stores: client.stores,
    active: client.active,
    createdAt: client.createdAt.toISOString(),
    updatedAt: client.updatedAt.toISOString(),
  };
}
