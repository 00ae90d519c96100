import type { ClassConstructor } from 'class-transformer';
import { ApiError } from '../common/errors/api-error.js';
import { OpenBody, type OpenBodyOptions } from '../common/http/open-body.js';

export type { ReceivedBody } from '../common/http/open-body.js';

/**
 * Point-of-sale clients send more than the documented fields and post JSON or forms
 * ("Fulfillment" in docs/api-decisions.md). Their bodies are open bodies (`readOpenBody`):
 * - properties the DTO does not declare are kept apart (stored with the record), not refused;
 * - an empty string in an optional field means the field was not sent (the POS always sends
 *   `"shipping_address": ""`);
 * - the documented fields are validated as any body is (form values arrive as text: ids and
 *   coordinates already accept text);
 * - keys named like `Object.prototype` members are refused, as in the admin bodies.
 */
const FULFILLMENT_BODY: OpenBodyOptions = {
  notAnObject: () => ApiError.badRequest('The body must be a JSON object or a form (application/x-www-form-urlencoded)'),
  emptyStringIsAbsent: true,
  refusePrototypeNamedKeys: true,
};

/** The body of a fulfillment route. */
export function FulfillmentBody<T extends object>(dto: ClassConstructor<T>) {
  return OpenBody(dto, FULFILLMENT_BODY);
}
