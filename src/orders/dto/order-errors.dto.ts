import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, PointOfSaleDomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';
import { ORDER_STATUSES, type OrderStatus } from '../order-status.js';

/** The order and the move the status machine refused. */
export class IllegalStatusTransitionDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** The order's status, unchanged */
  @ApiProperty({ enum: ORDER_STATUSES, example: 'DELIVERED' })
  currentStatus: OrderStatus;

  /** The status asked for (an alias already read as the status it stands for) */
  @ApiProperty({ enum: ORDER_STATUSES, example: 'READY' })
  requestedStatus: OrderStatus;
}

/** 409 ILLEGAL_STATUS_TRANSITION on the point-of-sale routes: the status machine refuses the move; nothing changed. */
export class IllegalStatusTransitionErrorDto extends PointOfSaleDomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.ILLEGAL_STATUS_TRANSITION] })
  code: typeof DomainErrorCode.ILLEGAL_STATUS_TRANSITION;

  /** One item, about the status */
  details: IllegalStatusTransitionDetailDto[];
}

/** 409 ILLEGAL_STATUS_TRANSITION: the status machine (`order-status.ts`) refuses the move; nothing changed. */
export function illegalStatusTransition(orderId: string, from: OrderStatus, to: OrderStatus, reason: string): ApiError {
  const detail: IllegalStatusTransitionDetailDto = {
    field: 'status',
    problem: reason,
    orderId,
    currentStatus: from,
    requestedStatus: to,
  };
  return ApiError.domain(DomainErrorCode.ILLEGAL_STATUS_TRANSITION, `Order ${orderId}: ${reason}`, [detail]);
}
