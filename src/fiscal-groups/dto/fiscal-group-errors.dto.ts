import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';

/** A store of the request that another fiscal group holds. */
export class StoreInAnotherGroupDetailDto extends DomainErrorDetailDto {
  /** The store, as listed in `stores` */
  @ApiProperty({ example: 'store-123' })
  storeId: string;

  /** The fiscal group that holds it (null when it let the store go while this request ran: send it again) */
  @ApiProperty({ format: 'uuid', example: '0b7e7a36-5c1e-4f4e-9d43-8f0f6a3b2a10' })
  fiscalGroupId: string | null;

  /** That group's name */
  @ApiProperty({ example: 'São Paulo restaurants' })
  fiscalGroupName: string | null;
}

/** 409 STORE_IN_ANOTHER_GROUP: a store of `stores` belongs to another fiscal group; nothing was written. */
export class StoreInAnotherGroupErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.STORE_IN_ANOTHER_GROUP] })
  error: typeof DomainErrorCode.STORE_IN_ANOTHER_GROUP;

  /** One item per store held by another group */
  details: StoreInAnotherGroupDetailDto[];
}

/** The `externalId` another fiscal group uses. */
export class ExternalIdInUseDetailDto extends DomainErrorDetailDto {
  /** The externalId sent */
  externalId: string;

  /** The fiscal group that uses it (null when it was removed while this request ran) */
  @ApiProperty({ format: 'uuid' })
  fiscalGroupId: string | null;
}

/** 409 EXTERNAL_ID_IN_USE: another fiscal group has this `externalId`; nothing was written. */
export class ExternalIdInUseErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.EXTERNAL_ID_IN_USE] })
  error: typeof DomainErrorCode.EXTERNAL_ID_IN_USE;

  /** One item, about `externalId` */
  details: ExternalIdInUseDetailDto[];
}

export interface StoreHeld {
  storeId: string;
  /** Undefined when no group holds it any more (it was let go while the request ran). */
  holder?: { id: string; name: string };
}

export function storeInAnotherGroup(stores: StoreHeld[]): ApiError {
  const details: StoreInAnotherGroupDetailDto[] = stores.map(({ storeId, holder }) => ({
    field: 'stores',
    problem: holder
      ? `store "${storeId}" already belongs to fiscal group ${holder.id} ("${holder.name}")`
      : `store "${storeId}" is already held by another fiscal group`,
    storeId,
    fiscalGroupId: holder?.id ?? null,
    fiscalGroupName: holder?.name ?? null,
  }));
  const known = details.filter((detail) => detail.fiscalGroupId !== null);
  const message = known.map((detail) => detail.problem).join('; ') || 'A store is already held by another fiscal group';
  return ApiError.domain(DomainErrorCode.STORE_IN_ANOTHER_GROUP, message, details);
}

export function externalIdInUse(externalId: string, fiscalGroupId: string | undefined): ApiError {
  const detail: ExternalIdInUseDetailDto = {
    field: 'externalId',
    problem: 'is already used by another fiscal group',
    externalId,
    fiscalGroupId: fiscalGroupId ?? null,
  };
  return ApiError.domain(
    DomainErrorCode.EXTERNAL_ID_IN_USE,
    `externalId "${externalId}" is already used by fiscal group ${fiscalGroupId ?? '(another group)'}`,
    [detail],
  );
}
