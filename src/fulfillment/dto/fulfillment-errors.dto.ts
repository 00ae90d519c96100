import { ApiProperty } from '@nestjs/swagger';
import { ApiError } from '../../common/errors/api-error.js';
import { DomainErrorCode } from '../../common/errors/error-codes.js';
import { DomainErrorDetailDto, PointOfSaleDomainErrorResponseDto } from '../../common/openapi/error-response.dto.js';
import { ORDER_STATUSES, type OrderStatus } from '../../orders/order-status.js';

// The point-of-sale body of these failures keeps the sentence in `error` and `message` and adds
// `code` and `details` (docs/errors.md).

/** The order a dispatch was sent for. */
export class NotAPickupOrderDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` (`codigo_app`) */
  orderId: string;
}

/** 409 NOT_A_PICKUP_ORDER: only pickup orders are dispatched. */
export class NotAPickupOrderErrorDto extends PointOfSaleDomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.NOT_A_PICKUP_ORDER] })
  code: typeof DomainErrorCode.NOT_A_PICKUP_ORDER;

  /** One item, about `codigo_app` */
  details: NotAPickupOrderDetailDto[];
}

/** The order that cannot move, and its status. */
export class OrderInFinalStatusDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** Its status: DELIVERED, CANCELLED or REJECTED */
  @ApiProperty({ enum: ORDER_STATUSES, example: 'DELIVERED' })
  status: OrderStatus;
}

/** 409 ORDER_IN_FINAL_STATUS: an order in a final status is not transferred. */
export class OrderInFinalStatusErrorDto extends PointOfSaleDomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.ORDER_IN_FINAL_STATUS] })
  code: typeof DomainErrorCode.ORDER_IN_FINAL_STATUS;

  /** One item, about `order` */
  details: OrderInFinalStatusDetailDto[];
}

/** The order and the store `from_store` named instead of its own. */
export class NotTheOrderStoreDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** `from_store` as sent */
  fromStore: string;

  /** The order's store; null when it has none */
  storeId: string | null;
}

/** 409 NOT_THE_ORDER_STORE: `from_store` is not the order's store (by id or code). */
export class NotTheOrderStoreErrorDto extends PointOfSaleDomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.NOT_THE_ORDER_STORE] })
  code: typeof DomainErrorCode.NOT_THE_ORDER_STORE;

  /** One item, about `from_store` */
  details: NotTheOrderStoreDetailDto[];
}

/** The taxed order and the target store no fiscal group holds. */
export class StoreWithoutFiscalGroupDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** The target store's id */
  storeId: string;

  /** The group whose taxes the order carries */
  fiscalGroupId: string;
}

/** 409 STORE_WITHOUT_FISCAL_GROUP: a taxed order cannot move to a store no fiscal group holds. */
export class StoreWithoutFiscalGroupErrorDto extends PointOfSaleDomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.STORE_WITHOUT_FISCAL_GROUP] })
  code: typeof DomainErrorCode.STORE_WITHOUT_FISCAL_GROUP;

  /** One item, about `to_store` */
  details: StoreWithoutFiscalGroupDetailDto[];
}

/** The store code and the stores that share it. */
export class AmbiguousStoreCodeDetailDto extends DomainErrorDetailDto {
  /** `to_store` as sent */
  storeCode: string;

  /** The ids of the stores configured with this code */
  storeIds: string[];
}

/** 409 AMBIGUOUS_STORE_CODE: `to_store` is a store code several stores share; send the store id. */
export class AmbiguousStoreCodeErrorDto extends PointOfSaleDomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.AMBIGUOUS_STORE_CODE] })
  code: typeof DomainErrorCode.AMBIGUOUS_STORE_CODE;

  /** One item, about `to_store` */
  details: AmbiguousStoreCodeDetailDto[];
}

/** The order and the target store that nothing configures. */
export class UnknownStoreDetailDto extends DomainErrorDetailDto {
  /** The order's `orderId` */
  orderId: string;

  /** `to_store` as sent */
  toStore: string;
}

/** 409 UNKNOWN_STORE: `to_store` is neither a store of the channel configuration nor one a fiscal group holds. */
export class UnknownStoreErrorDto extends PointOfSaleDomainErrorResponseDto {
  @ApiProperty({ enum: [DomainErrorCode.UNKNOWN_STORE] })
  code: typeof DomainErrorCode.UNKNOWN_STORE;

  /** One item, about `to_store` */
  details: UnknownStoreDetailDto[];
}

export function notAPickupOrder(orderId: string): ApiError {
  const detail: NotAPickupOrderDetailDto = { field: 'codigo_app', problem: 'is not a pickup order', orderId };
  return ApiError.domain(
    DomainErrorCode.NOT_A_PICKUP_ORDER,
    `Order ${orderId} is not a pickup order (order.type, order.deliveryType or deliveryType PICKUP, TAKEOUT or TAKE_AWAY, or order.pickup true): only pickup orders are dispatched here`,
    [detail],
  );
}

export function orderInFinalStatus(orderId: string, status: OrderStatus): ApiError {
  const detail: OrderInFinalStatusDetailDto = { field: 'order', problem: `is ${status}, a final status`, orderId, status };
  return ApiError.domain(DomainErrorCode.ORDER_IN_FINAL_STATUS, `Order ${orderId} is ${status}, a final status: it cannot be transferred`, [
    detail,
  ]);
}

export function notTheOrderStore(orderId: string, fromStore: string, storeId: string | null): ApiError {
  const detail: NotTheOrderStoreDetailDto = {
    field: 'from_store',
    problem: 'is not the current store of the order',
    orderId,
    fromStore,
    storeId,
  };
  return ApiError.domain(
    DomainErrorCode.NOT_THE_ORDER_STORE,
    `from_store "${fromStore}" is not the current store of order ${orderId}` + (storeId ? ` (store "${storeId}")` : ' (it has no store)'),
    [detail],
  );
}

export function storeWithoutFiscalGroup(orderId: string, storeId: string, fiscalGroupId: string): ApiError {
  const detail: StoreWithoutFiscalGroupDetailDto = {
    field: 'to_store',
    problem: 'no fiscal group holds this store',
    orderId,
    storeId,
    fiscalGroupId,
  };
  return ApiError.domain(
    DomainErrorCode.STORE_WITHOUT_FISCAL_GROUP,
    `Store "${storeId}" has no fiscal group: order ${orderId} carries taxes of fiscal group ${fiscalGroupId} and cannot move there until a fiscal group holds the store`,
    [detail],
  );
}

export function ambiguousStoreCode(storeCode: string, storeIds: string[]): ApiError {
  const detail: AmbiguousStoreCodeDetailDto = { field: 'to_store', problem: 'belongs to several stores', storeCode, storeIds };
  return ApiError.domain(
    DomainErrorCode.AMBIGUOUS_STORE_CODE,
    `Store code "${storeCode}" belongs to several stores (${storeIds.join(', ')}); send the store id`,
    [detail],
  );
}

export function unknownStore(orderId: string, toStore: string): ApiError {
  const detail: UnknownStoreDetailDto = { field: 'to_store', problem: 'is not a known store', orderId, toStore };
  return ApiError.domain(
    DomainErrorCode.UNKNOWN_STORE,
    `Store "${toStore}" is unknown: it is neither a store of the channel configuration nor one a fiscal group holds; order ${orderId} was not transferred`,
    [detail],
  );
}
