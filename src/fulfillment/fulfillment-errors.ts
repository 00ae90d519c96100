import { ApiError, type ErrorDetail } from '../common/errors/api-error.js';
import { DomainErrorCode } from '../common/errors/error-codes.js';
import type { OrderStatus } from '../orders/order-status.js';

// The point-of-sale routes answer `{ error, message }` with the sentence only (that shape is
// fixed for the platform's clients): these codes and details reach the service log, not the client (docs/errors.md).

export interface NotAPickupOrderDetail extends ErrorDetail {
  orderId: string;
}

export interface OrderInFinalStatusDetail extends ErrorDetail {
  orderId: string;
  status: OrderStatus;
}

export interface NotTheOrderStoreDetail extends ErrorDetail {
  orderId: string;
  /** `from_store` as sent */
  fromStore: string;
  /** The order's store; null when it has none */
  storeId: string | null;
}

export interface StoreWithoutFiscalGroupDetail extends ErrorDetail {
  orderId: string;
  storeId: string;
  /** The group whose taxes the order carries */
  fiscalGroupId: string;
}

export interface AmbiguousStoreCodeDetail extends ErrorDetail {
  storeCode: string;
  storeIds: string[];
}

export function notAPickupOrder(orderId: string): ApiError {
  const detail: NotAPickupOrderDetail = { field: 'codigo_app', problem: 'is not a pickup order', orderId };
  return ApiError.domain(
    DomainErrorCode.NOT_A_PICKUP_ORDER,
    `Order ${orderId} is not a pickup order (order.type, order.deliveryType or deliveryType PICKUP, TAKEOUT or TAKE_AWAY, or order.pickup true): only pickup orders are dispatched here`,
    [detail],
  );
}

export function orderInFinalStatus(orderId: string, status: OrderStatus): ApiError {
  const detail: OrderInFinalStatusDetail = { field: 'order', problem: `is ${status}, a final status`, orderId, status };
  return ApiError.domain(DomainErrorCode.ORDER_IN_FINAL_STATUS, `Order ${orderId} is ${status}, a final status: it cannot be transferred`, [
    detail,
  ]);
}

export function notTheOrderStore(orderId: string, fromStore: string, storeId: string | null): ApiError {
  const detail: NotTheOrderStoreDetail = {
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
  const detail: StoreWithoutFiscalGroupDetail = {
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
  const detail: AmbiguousStoreCodeDetail = { field: 'to_store', problem: 'belongs to several stores', storeCode, storeIds };
  return ApiError.domain(
    DomainErrorCode.AMBIGUOUS_STORE_CODE,
    `Store code "${storeCode}" belongs to several stores (${storeIds.join(', ')}); send the store id`,
    [detail],
  );
}
