import { ApiHideProperty, ApiProperty } from '@nestjs/swagger';
import { Equals, IsOptional, Matches } from 'class-validator';
import { IsIsoDateTime } from '../../common/http/query-params.js';
import { FiscalGroupSettingsDto, StoreRefDto, TAX_MATRIX_SCHEMA, TaxRuleDto } from './fiscal-group.dto.js';
import { RevisionActorDto } from './scheduled-revision.dto.js';

export const REVISION_STATUSES = ['scheduled', 'in-force', 'past', 'cancelled'] as const;

/** The `effectiveFrom` query parameter of the group writes that can be scheduled. */
export class ScheduleQuery {
  /**
   * When the change takes effect: an ISO 8601 date-time with its offset (`Z` or `±hh:mm`), from now to 400 days
   * ahead, kept to the millisecond. Absent: at once. The revision in force stays in force until then.
   */
  @ApiProperty({ format: 'date-time', example: '2027-01-01T00:00:00-03:00' })
  @IsOptional()
  @IsIsoDateTime()
  @Matches(/(?:[zZ]|[+-]\d{2}:?\d{2})$/, { message: 'must carry its offset (Z or ±hh:mm)' })
  effectiveFrom?: string;
}

/**
 * The query of the group writes that take effect at once, creating and deleting a group: no parameter, so an unknown
 * one is refused as on every route with a query; `effectiveFrom` with its reason. See "Changes scheduled for a date" in
 * docs/fiscal-configuration-over-time.md.
 */
export class ImmediateWriteQuery {
  @ApiHideProperty()
  @Equals(undefined, { message: 'creating or deleting a fiscal group takes effect at once: only PUT can be scheduled' })
  effectiveFrom?: never;
}

/** One revision of a fiscal group: what made it, who, when, and from when it applies. */
export class FiscalGroupRevisionDto {
  @ApiProperty({ format: 'uuid', example: '9f1c2a4e-3b7d-4c1a-9d2e-5f6a7b8c9d0e' })
  fiscalGroupId: string;

  /** 1, 2, 3... per group, in the order the revisions were written */
  @ApiProperty({ type: 'integer', minimum: 1, example: 3 })
  revision: number;

  /** The write that made it (`initial`: the group as it was when revisions began to be kept) */
  kind: 'initial' | 'create' | 'update' | 'import-matrix' | 'delete';

  /** Who wrote it; null for a write that names no actor (demo seeding, SQL by hand, the initial revision) */
  actor: RevisionActorDto | null;

  /** When it was written */
  @ApiProperty({ format: 'date-time', example: '2026-11-21T12:00:00.000Z' })
  createdAt: string;

  /** From when it applies to orders (by their tax instant) */
  @ApiProperty({ format: 'date-time', example: '2026-12-01T03:00:00.000Z' })
  effectiveFrom: string;

  /** `scheduled`: not yet in force; `in-force`: the one in force now; `past`: replaced by a later one; `cancelled`: will never apply */
  status: 'scheduled' | 'in-force' | 'past' | 'cancelled';

  /** When it was cancelled (null unless `cancelled`) */
  @ApiProperty({ format: 'date-time', example: null })
  cancelledAt: string | null;

  /** Who cancelled it (null unless cancelled through the API) */
  cancelledBy: RevisionActorDto | null;
}

/** The whole group as a revision keeps it. */
export class FiscalGroupRevisionContentDto {
  @ApiProperty({ example: 'ERP-SP-001' })
  externalId: string | null;

  @ApiProperty({ example: 'Restaurants SP - Lucro Presumido' })
  name: string;

  @ApiProperty({ example: 'SP' })
  uf: string;

  @ApiProperty({ example: 'LUCRO_PRESUMIDO' })
  taxRegime: string | null;

  /** The stores the group held when the revision was written (store moves take effect at once, never on a date) */
  stores: StoreRefDto[];

  @ApiProperty(TAX_MATRIX_SCHEMA as never)
  taxMatrix: Record<string, TaxRuleDto>;

  settings: FiscalGroupSettingsDto;
}

export class FiscalGroupRevisionDetailDto extends FiscalGroupRevisionDto {
  group: FiscalGroupRevisionContentDto;
}

export class FiscalGroupRevisionPageDto {
  /** Newest first */
  items: FiscalGroupRevisionDto[];

  @ApiProperty({ type: 'integer', minimum: 0, example: 3 })
  total: number;

  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  page: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 100, example: 20 })
  pageSize: number;

  /** ceil(total / pageSize); 0 when total is 0 */
  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  totalPages: number;
}
