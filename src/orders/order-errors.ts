import { ApiError, type ErrorDetail } from '../common/errors/api-error.js';
import { DomainErrorCode } from '../common/errors/error-codes.js';
import type { OrderStatus } from './order-status.js';

/** The order and the move the status machine refused. */
export interface IllegalStatusTransitionDetail extends ErrorDetail {
  orderId: string;
  currentStatus: OrderStatus;
  requestedStatus: OrderStatus;
}

/** 409 ILLEGAL_STATUS_TRANSITION: the status machine (`order-status.ts`) refuses the move; nothing changed. */
export function illegalStatusTransition(orderId: string, from: OrderStatus, to: OrderStatus, reason: string): ApiError {
  const detail: IllegalStatusTransitionDetail = {
    field: 'status',
    problem: reason,
    orderId,
    currentStatus: from,
    requestedStatus: to,
  };
  return ApiError.domain(DomainErrorCode.ILLEGAL_STATUS_TRANSITION, `Order ${orderId}: ${reason}`, [detail]);
}
