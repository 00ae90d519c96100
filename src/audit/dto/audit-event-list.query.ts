import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateBy, type ValidationArguments } from 'class-validator';
import { parseIsoDateTime } from '../../common/iso-date-time.js';
import { IsIsoDateTime, MAX_INTEGER_PARAM, plainInteger, WithinFilterRange } from '../../common/http/query-params.js';
import { AUDIT_TARGET_TYPES, type AuditTargetType } from '../audit-event.types.js';

export const AUDIT_DEFAULT_PAGE_SIZE = 20;
export const AUDIT_MAX_PAGE_SIZE = 100;
const ACTOR_TYPES = ['client', 'user'] as const;

/** `from <= to` when both are valid date-times (compared at full precision). */
function NotAfterTo() {
  return ValidateBy({
    name: 'notAfterTo',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => {
        const from = parseIsoDateTime(value);
        const to = parseIsoDateTime((args?.object as AuditEventFilterQuery).to);
        return from === undefined || to === undefined || from <= to;
      },
      defaultMessage: () => 'must not be after to',
    },
  });
}

/** The filters of the audit log, every one optional and combinable (AND); unknown parameters are refused (400). */
export class AuditEventFilterQuery {
  /** Only changes made by a machine client or by a person */
  @ApiProperty({ enum: ACTOR_TYPES, example: 'user' })
  @IsOptional()
  @IsIn(ACTOR_TYPES, { message: `must be one of ${ACTOR_TYPES.join(', ')}` })
  actorType?: 'client' | 'user';

  /** Only changes made by this client id or user id (exact) */
  @ApiProperty({ example: '0b7c2a52-2f0e-4f59-9c52-9a4c6a0d3c11' })
  @IsOptional()
  @IsString()
  @Length(1, 100)
  actorId?: string;

  /** Only changes to this kind of thing */
  @ApiProperty({ enum: AUDIT_TARGET_TYPES, example: 'fiscal-group' })
  @IsOptional()
  @IsIn(AUDIT_TARGET_TYPES, { message: `must be one of ${AUDIT_TARGET_TYPES.join(', ')}` })
  targetType?: AuditTargetType;

  /** Only changes to the thing with this id (exact), e.g. a fiscal group's UUID or an order's orderId */
  @ApiProperty({ example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' })
  @IsOptional()
  @IsString()
  @Length(1, 200)
  targetId?: string;

  /** Only this action (exact), e.g. `update` or `change-status` */
  @ApiProperty({ example: 'update' })
  @IsOptional()
  @IsString()
  @Length(1, 60)
  action?: string;

  /** Only changes made at or after this instant (inclusive). ISO 8601 date-time; without a zone it is UTC; up to 9 fractional digits. */
  @ApiProperty({ format: 'date-time', example: '2026-11-01T00:00:00Z' })
  @IsOptional()
  @IsIsoDateTime()
  @WithinFilterRange()
  @NotAfterTo()
  from?: string;

  /** Only changes made at or before this instant (inclusive). Must not be before from. */
  @ApiProperty({ format: 'date-time', example: '2026-11-30T23:59:59.999999Z' })
  @IsOptional()
  @IsIsoDateTime()
  @WithinFilterRange()
  to?: string;
}

/** Query of `GET /api/admin/audit-events`: the filters and the page. */
export class AuditEventListQuery extends AuditEventFilterQuery {
  /** Page number, from 1 */
  @ApiProperty({ type: 'integer', maximum: MAX_INTEGER_PARAM, default: 1, example: 1 })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(1)
  @Max(MAX_INTEGER_PARAM)
  page?: number;

  /** Events per page */
  @ApiProperty({ type: 'integer', maximum: AUDIT_MAX_PAGE_SIZE, default: AUDIT_DEFAULT_PAGE_SIZE, example: AUDIT_DEFAULT_PAGE_SIZE })
  @IsOptional()
  @Transform(plainInteger)
  @IsInt()
  @Min(1)
  @Max(AUDIT_MAX_PAGE_SIZE)
  pageSize?: number;
}
