import { createParamDecorator, type ExecutionContext, type PipeTransform } from '@nestjs/common';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
// class-transformer keeps `@Type()` metadata here and exports no accessor for it.
import { defaultMetadataStorage as untypedStorage } from 'class-transformer/cjs/storage.js';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';

const defaultMetadataStorage = untypedStorage as MetadataStorage;
import { getMetadataStorage, validate, ValidationTypes } from 'class-validator';
import { ApiError } from '../common/errors/api-error.js';
import { isPlainObject } from '../common/plain-object.js';
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
  constructor(private readonly dto: ClassConstructor<T>) {}

  async transform(value: unknown): Promise<ReceivedBody<T>> {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || Buffer.isBuffer(value)) {
      throw ApiError.badRequest('The body must be a JSON object or a form (application/x-www-form-urlencoded)');
    }
    refusePrototypeNamedKey(value);
    const { fields, extra } = splitDocumented(this.dto, value as Record<string, unknown>);
    const instance = plainToInstance(this.dto, fields, { enableImplicitConversion: false });
    const errors = await validate(instance, { forbidUnknownValues: true });
    if (errors.length > 0) throw ApiError.validation(flattenValidationErrors(errors));
    return { fields: instance, extra };
  }
}

/**
 * The documented properties of `value` (at every depth a DTO describes: nested objects and
 * arrays of them) and, apart, the others with their place, e.g. `{ trackingInfo: { carrier } }`.
 * An empty string in an optional documented field is dropped.
 */
function splitDocumented(
  dto: ClassConstructor<object>,
  value: Record<string, unknown>,
): { fields: Record<string, unknown>; extra: Record<string, unknown> | null } {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const documented = new Set(metadata.map((entry) => entry.propertyName));
  const optional = new Set(
    metadata.filter((entry) => entry.type === ValidationTypes.CONDITIONAL_VALIDATION).map((entry) => entry.propertyName),
  );
  const fields: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (!documented.has(name)) {
      extra[name] = field;
      continue;
    }
    if (field === '' && optional.has(name)) continue;
    const nested = defaultMetadataStorage.findTypeMetadata(dto, name)?.typeFunction() as ClassConstructor<object> | undefined;
    if (nested && isPlainObject(field)) {
      const split = splitDocumented(nested, field);
      fields[name] = split.fields;
      if (split.extra) extra[name] = split.extra;
    } else if (nested && Array.isArray(field)) {
      const items = field.map((item) => (isPlainObject(item) ? splitDocumented(nested, item) : { fields: item, extra: null }));
      fields[name] = items.map((item) => item.fields);
      if (items.some((item) => item.extra)) extra[name] = items.map((item) => item.extra);
    } else fields[name] = field;
  }
  return { fields, extra: Object.keys(extra).length > 0 ? extra : null };
}

const requestBody = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ body: unknown }>().body,
);

/** The body of a fulfillment route, read by `FulfillmentBodyPipe`. */
export function FulfillmentBody<T extends object>(dto: ClassConstructor<T>) {
  return requestBody(new FulfillmentBodyPipe(dto));
}
