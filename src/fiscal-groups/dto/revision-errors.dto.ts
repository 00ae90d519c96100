import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';

/** The revision a cancellation named. */
export class RevisionDetailDto extends DomainErrorDetailDto {
  /** The fiscal group */
  @ApiProperty({ format: 'uuid', example: '0b7e7a36-5c1e-4f4e-9d43-8f0f6a3b2a10' })
  fiscalGroupId: string;

  /** The revision's number */
  @ApiProperty({ example: 4 })
  revision: number;

  /** When it takes (or took) effect */
  @ApiProperty({ format: 'date-time', example: '2027-04-01T03:00:00.000Z' })
  effectiveFrom: string;
}

/** 409 REVISION_IN_USE: a stored order (dated ahead of its receipt) was taxed by the scheduled revision; nothing changed. */
export class RevisionInUseErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.REVISION_IN_USE] })
  error: typeof DomainErrorCode.REVISION_IN_USE;

  /** One item, about `revision` */
  details: RevisionDetailDto[];
}

/** 409 REVISION_IN_FORCE: the revision has taken effect (it is in force, or was replaced since); nothing changed. */
export class RevisionInForceErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.REVISION_IN_FORCE] })
  error: typeof DomainErrorCode.REVISION_IN_FORCE;

  /** One item, about `revision` */
  details: RevisionDetailDto[];
}

export interface RevisionRef {
  fiscalGroupId: string;
  revision: number;
  effectiveFrom: Date;
}

function detailOf(ref: RevisionRef, problem: string): RevisionDetailDto {
  return {
    field: 'revision',
    problem,
    fiscalGroupId: ref.fiscalGroupId,
    revision: ref.revision,
    effectiveFrom: ref.effectiveFrom.toISOString(),
  };
}

export function revisionInUse(ref: RevisionRef): ApiError {
  return ApiError.domain(
    DomainErrorCode.REVISION_IN_USE,
    `Revision ${ref.revision} of fiscal group ${ref.fiscalGroupId} already taxed a stored order (dated from ${ref.effectiveFrom.toISOString()} on); a revision that taxed an order stays`,
    [detailOf(ref, 'already taxed a stored order')],
  );
}

export function revisionInForce(ref: RevisionRef): ApiError {
  return ApiError.domain(
    DomainErrorCode.REVISION_IN_FORCE,
    `Revision ${ref.revision} of fiscal group ${ref.fiscalGroupId} took effect at ${ref.effectiveFrom.toISOString()}; only a revision not yet in force can be cancelled`,
    [detailOf(ref, 'has taken effect')],
  );
}
