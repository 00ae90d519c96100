import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, DomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/order-status.js';

/** The order that has nothing to send. */
export class OrderNotEnrichedDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** Its current status (ENRICHMENT_FAILED when no fiscal group held its store) */
  @ApiProperty({ enum: ORDER_STATUSES, example: 'ENRICHMENT_FAILED' })
  status: OrderStatus;
}

/** 409 ORDER_NOT_ENRICHED: the order has no enriched payload to send: enrich it first. */
export class OrderNotEnrichedErrorDto extends DomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.ORDER_NOT_ENRICHED] })
  error: typeof DomainErrorCode.ORDER_NOT_ENRICHED;

  /** One item, about the path's `id` */
  details: OrderNotEnrichedDetailDto[];
}

export function orderNotEnriched(orderId: string, status: OrderStatus): ApiError {
  const detail: OrderNotEnrichedDetailDto = { field: 'id', problem: 'the order has no enriched payload', orderId, status };
  return ApiError.domain(
    DomainErrorCode.ORDER_NOT_ENRICHED,
    `Order ${orderId} has no enriched payload to send (status ${status}): enrich it first (POST /api/enrich-order or /api/enrich-order-forward)`,
    [detail],
  );
}
