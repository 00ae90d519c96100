import { createParamDecorator, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { getMetadataStorage, validate, ValidationTypes } from 'class-validator';
import { ApiError } from '../common/errors/api-error.js';
import { flattenValidationErrors, refusePrototypeNamedKey } from '../common/http/validation.js';

/** A fulfillment body: its documented fields, validated, and the other properties, kept as sent. */
export interface ReceivedBody<T> {
  fields: T;
  /** Properties beyond the documented ones (the POS's delivery partner objects); null when none. */
  extra: Record<string, unknown> | null;
}

/**
 * Point-of-sale clients send more than the documented fields and post JSON or forms
 * (contract §8, revision 2). Their bodies are read like this:
 * - properties the DTO does not declare are kept apart (stored with the record), not refused;
 * - an empty string in an optional field means the field was not sent (the POS always sends
 *   `"shipping_address": ""`);
 * - the documented fields are validated as any body is (form values arrive as text: ids and
 *   coordinates already accept text).
 */
export class FulfillmentBodyPipe<T extends object> implements PipeTransform<unknown, Promise<ReceivedBody<T>>> {
  private readonly documented: Set<string>;
  private readonly optional: Set<string>;

  constructor(private readonly dto: ClassConstructor<T>) {
    const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
    this.documented = new Set(metadata.map((entry) => entry.propertyName));
    this.optional = new Set(
      metadata.filter((entry) => entry.type === ValidationTypes.CONDITIONAL_VALIDATION).map((entry) => entry.propertyName),
    );
  }

  async transform(value: unknown): Promise<ReceivedBody<T>> {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Buffer.isBuffer(value)) {
      throw ApiError.badRequest('The body must be a JSON object or a form (application/x-www-form-urlencoded)');
    }
    refusePrototypeNamedKey(value);
    const fields: Record<string, unknown> = {};
    const extra: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value)) {
      if (!this.documented.has(name)) extra[name] = field;
      else if (!(field === '' && this.optional.has(name))) fields[name] = field;
    }
    const instance = plainToInstance(this.dto, fields, { enableImplicitConversion: false });
    const errors = await validate(instance, { forbidUnknownValues: true });
    if (errors.length > 0) throw ApiError.validation(flattenValidationErrors(errors));
    return { fields: instance, extra: Object.keys(extra).length > 0 ? extra : null };
  }
}

const requestBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ body: unknown }>().body,
);

/** The body of a fulfillment route, read by `FulfillmentBodyPipe`. */
export function FulfillmentBody<T extends object>(dto: ClassConstructor<T>) {
  return requestBody(new FulfillmentBodyPipe(dto));
}
