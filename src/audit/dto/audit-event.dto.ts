import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import { AUDIT_TARGET_TYPES, type AuditTargetType } from '../audit-event.types.js';

const USER_ID = '0b7c2a52-2f0e-4f59-9c52-9a4c6a0d3c11';
const GROUP_ID = '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e';

export class AuditActorDto {
  /** A machine client (its client id) or a person (their user id) */
  @ApiProperty({ enum: ['client', 'user'], example: 'user' })
  type: 'client' | 'user';

  @ApiProperty({ example: USER_ID })
  id: string;

  /** The client's or the person's name when the change was made */
  @ApiProperty({ example: 'Ana Fiscal' })
  name: string;
}

export class AuditTargetDto {
  @ApiProperty({ enum: AUDIT_TARGET_TYPES, example: 'fiscal-group' })
  type: AuditTargetType;

  /** The changed thing's id: a fiscal group's UUID, a product id, an order's orderId, `all` for the status aliases and the channel configuration */
  @ApiProperty({ example: GROUP_ID })
  id: string;
}

/**
 * Any JSON value or null: a changed field holds text, a number, a flag, a list or an object (a tax rule, a
 * store's configuration). Null is the object alternative's, so that exactly one alternative matches it.
 */
const ANY_JSON = [
  { type: 'string' },
  { type: 'number' },
  { type: 'boolean' },
  { type: 'array', items: {} },
  { type: 'object', additionalProperties: true, nullable: true },
];

export class AuditChangeDto {
  /** The value before the change; null when the thing did not exist */
  @ApiProperty({ oneOf: ANY_JSON, example: 'Restaurants SP' })
  before: unknown;

  /** The value after the change; null when the thing was deleted */
  @ApiProperty({ oneOf: ANY_JSON, example: 'Restaurants SP - Lucro Real' })
  after: unknown;
}

@ApiExtraModels(AuditChangeDto)
export class AuditEventDto {
  /** Increasing with the order in which events were written */
  @ApiProperty({ example: '1042' })
  id: string;

  /** When the change was made (RFC 3339, UTC, to the microsecond) */
  @ApiProperty({ format: 'date-time', example: '2026-11-26T14:03:27.518204Z' })
  at: string;

  actor: AuditActorDto;

  /** A short kebab-case verb: `create`, `update`, `delete`, `import-matrix`, `replace`, `change-status`, `transfer`… */
  @ApiProperty({ example: 'update' })
  action: string;

  target: AuditTargetDto;

  @ApiProperty({
    description:
      'The changed fields, each with its value before and after; never a secret or a password. What each target records: docs/audit-log.md.',
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(AuditChangeDto) },
    example: {
      name: { before: 'Restaurants SP', after: 'Restaurants SP - Lucro Real' },
      taxRegime: { before: 'LUCRO_PRESUMIDO', after: 'LUCRO_REAL' },
    },
  })
  changes: Record<string, AuditChangeDto>;

  /** The `x-request-id` of the request that made the change */
  @ApiProperty({ example: '7f3c1e9a-5b2d-4c8e-a1f0-9d8e7c6b5a43' })
  requestId: string | null;

  /** The client address of that request */
  @ApiProperty({ example: '203.0.113.7' })
  address: string | null;
}

export class AuditEventPageDto {
  /** Newest first (`at` desc, then `id` desc); empty past the last page */
  items: AuditEventDto[];

  /** Events matching the filters (exact, not paginated) */
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
