import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';

/** The order a store-limited client may not write. */
export class StoreNotAllowedDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** The `store.id` the request names, outside the client's stores; null when the order is refused because it is stored under such a store, or names none */
  @ApiProperty({ type: 'string', nullable: true, example: '164' })
  storeId: string | null;
}

/** 403 STORE_NOT_ALLOWED: the client is limited to stores, and the order is not of one of them; nothing was stored. */
export class StoreNotAllowedErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.STORE_NOT_ALLOWED] })
  error: typeof DomainErrorCode.STORE_NOT_ALLOWED;

  /** One item, about `store.id` (or `orderId` for an order already stored under another store) */
  details: StoreNotAllowedDetailDto[];
}

/** The order names a store outside the client's stores. `prefix` is where the order is in the body (`payload.` when wrapped). */
export function storeNotAllowed(orderId: string, storeId: string | null, prefix = ''): ApiError {
  const detail: StoreNotAllowedDetailDto = {
    field: `${prefix}store.id`,
    problem: storeId === null ? 'the order names no store, and this client is limited to stores' : 'this client may not touch this store',
    orderId,
    storeId,
  };
  return ApiError.domain(
    DomainErrorCode.STORE_NOT_ALLOWED,
    storeId === null
      ? `Order ${orderId} names no store, and this client may only touch its own stores; nothing was stored`
      : `This client may not touch store "${storeId}"; nothing was stored`,
    [detail],
  );
}

/** The `orderId` is already stored under a store outside the client's stores (which one is not said). */
export function storedUnderAnotherStore(orderId: string, prefix = ''): ApiError {
  const detail: StoreNotAllowedDetailDto = {
    field: `${prefix}orderId`,
    problem: 'the order is stored under a store this client may not touch',
    orderId,
    storeId: null,
  };
  return ApiError.domain(
    DomainErrorCode.STORE_NOT_ALLOWED,
    `Order ${orderId} is stored under a store this client may not touch; nothing was stored`,
    [detail],
  );
}
