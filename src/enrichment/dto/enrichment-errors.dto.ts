import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';

/** The order a transfer moved while it was being stored. */
export class OrderStoreChangedDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** The store its taxes were computed for (null when the order has none) */
  storeId: string | null;
}

/** 409 ORDER_STORE_CHANGED: transfers kept moving the order to another store while it was being stored; send it again. */
export class OrderStoreChangedErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.ORDER_STORE_CHANGED] })
  error: typeof DomainErrorCode.ORDER_STORE_CHANGED;

  /** One item, about `orderId` */
  details: OrderStoreChangedDetailDto[];
}

/** `field` names the orderId where it was sent: at the root or in `payload`. */
export function orderStoreChanged(orderId: string, storeId: string | null, wrapped: boolean): ApiError {
  const detail: OrderStoreChangedDetailDto = {
    field: `${wrapped ? 'payload.' : ''}orderId`,
    problem: 'the order changed store while it was being stored',
    orderId,
    storeId,
  };
  return ApiError.domain(DomainErrorCode.ORDER_STORE_CHANGED, `Order ${orderId} changed store while it was being stored; send it again`, [
    detail,
  ]);
}

/** A closed order that was sent again. */
export class OrderClosedDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** Its stored status: DELIVERED, CANCELLED or REJECTED */
  @ApiProperty({ enum: ['DELIVERED', 'CANCELLED', 'REJECTED'] })
  status: string;
}

/** 409 ORDER_CLOSED: the order is stored with a final status (DELIVERED, CANCELLED or REJECTED); nothing was stored or sent. */
export class OrderClosedErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.ORDER_CLOSED] })
  error: typeof DomainErrorCode.ORDER_CLOSED;

  /** One item, about `orderId` */
  details: OrderClosedDetailDto[];
}

/** `field` names the orderId where it was sent: at the root or in `payload`. */
export function orderClosed(orderId: string, status: string, wrapped: boolean): ApiError {
  const detail: OrderClosedDetailDto = {
    field: `${wrapped ? 'payload.' : ''}orderId`,
    problem: `the order is closed (${status})`,
    orderId,
    status,
  };
  return ApiError.domain(DomainErrorCode.ORDER_CLOSED, `Order ${orderId} is closed (${status}); nothing was stored or sent`, [detail]);
}
