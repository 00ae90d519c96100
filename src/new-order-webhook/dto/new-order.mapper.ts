import type { ReceivedBody } from '../../common/http/open-body.js';
import { idText, MAX_ID_LENGTH } from '../../common/id-text.js';
import { isPlainObject } from '../../common/plain-object.js';
import type { NewOrderRequestDto } from './new-order.dto.js';

/** What the service stores of a validated new-order body. */
export interface NewOrder {
  orderId: string;
  /** The status as sent, when one was (an order status or an alias is applied by the service). */
  label?: string;
  /** `store.id` when it is an id of at most 100 characters (an undocumented, optional property). */
  storeId: string | null;
  /** The body as received. */
  payload: Record<string, unknown>;
}

export function toNewOrder({ fields, body }: ReceivedBody<NewOrderRequestDto>): NewOrder {
  const storeId = isPlainObject(body.store) ? idText(body.store.id) : undefined;
  return {
    orderId: idText(fields.order_id)!,
    label: typeof fields.status === 'string' && fields.status.trim() !== '' ? fields.status : undefined,
    storeId: storeId !== undefined && storeId.length <= MAX_ID_LENGTH ? storeId : null,
    payload: body,
  };
}
