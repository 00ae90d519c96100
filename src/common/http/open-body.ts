import type { PipeTransform } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
// class-transformer keeps `@Type()` metadata here and exports no accessor for it.
import { defaultMetadataStorage as untypedStorage } from 'class-transformer/cjs/storage.js';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage.js';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { ApiError } from '../errors/api-error.js';
import { isPlainObject } from '../plain-object.js';
import { requestBody, validateDto, type DtoValidationOptions } from './dto-validation.pipe.js';
import { refusePrototypeNamedKey } from './validation.js';

const defaultMetadataStorage = untypedStorage as MetadataStorage;

/** An open body: its documented fields, validated, and the other properties, kept as sent. */
export interface ReceivedBody<T> {
  fields: T;
  /**
   * Properties the DTO does not declare, in their place: `{ partner: 'x', trackingInfo: { carrier: 'y' } }`,
   * and by position inside documented lists (`{ services: [null, { code: 'PK' }] }`); null when none.
   */
  extra: Record<string, unknown> | null;
  /** The body as received. */
  body: Record<string, unknown>;
}

export interface OpenBodyOptions extends DtoValidationOptions {
  /** The 400 for a body that is not a JSON object. */
  notAnObject: () => ApiError;
  /** An empty string in an optional documented field means the field was not sent (point-of-sale forms). */
  emptyStringIsAbsent?: boolean;
  /** Keys named like `Object.prototype` members are refused (400), at any depth, as in closed bodies. */
  refusePrototypeNamedKeys?: boolean;
}

/**
 * Reads a body whose senders add properties beyond the documented ones, which are kept, not
 * refused (the platform's channel configuration and new orders, point-of-sale fulfillment
 * calls): the documented properties are validated against the DTO like any body; the others
 * are set apart, at every depth the DTO describes. Every problem comes back in one 400.
 */
export async function readOpenBody<T extends object>(
  dto: ClassConstructor<T>,
  value: unknown,
  options: OpenBodyOptions,
): Promise<ReceivedBody<T>> {
  if (!isPlainObject(value) || Buffer.isBuffer(value)) throw options.notAnObject();
  if (options.refusePrototypeNamedKeys) refusePrototypeNamedKey(value);
  const { fields, extra } = splitDocumented(dto, value, options.emptyStringIsAbsent ?? false);
  const { instance, details } = await validateDto(dto, fields, options);
  if (details.length > 0) throw ApiError.validation(details);
  return { fields: instance, extra, body: value };
}

/**
 * The documented properties of `value` (at every depth a DTO describes: nested objects and
 * arrays of them) and, apart, the others with their place, e.g. `{ trackingInfo: { carrier } }`.
 */
function splitDocumented(
  dto: ClassConstructor<object>,
  value: Record<string, unknown>,
  emptyStringIsAbsent: boolean,
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
    if (emptyStringIsAbsent && field === '' && optional.has(name)) continue;
    const nested = defaultMetadataStorage.findTypeMetadata(dto, name)?.typeFunction() as ClassConstructor<object> | undefined;
    if (nested && isPlainObject(field)) {
      const split = splitDocumented(nested, field, emptyStringIsAbsent);
      fields[name] = split.fields;
      if (split.extra) extra[name] = split.extra;
    } else if (nested && Array.isArray(field)) {
      const items = field.map((item) =>
        isPlainObject(item) ? splitDocumented(nested, item, emptyStringIsAbsent) : { fields: item, extra: null },
      );
      fields[name] = items.map((item) => item.fields);
      if (items.some((item) => item.extra)) extra[name] = items.map((item) => item.extra);
    } else fields[name] = field;
  }
  return { fields, extra: Object.keys(extra).length > 0 ? extra : null };
}

export class OpenBodyPipe<T extends object> implements PipeTransform<unknown, Promise<ReceivedBody<T>>> {
  constructor(
    private readonly dto: ClassConstructor<T>,
    private readonly options: OpenBodyOptions,
  ) {}

  transform(value: unknown): Promise<ReceivedBody<T>> {
    return readOpenBody(this.dto, value, this.options);
  }
}

/** The request body read by `readOpenBody`: `@OpenBody(Dto, options) body: ReceivedBody<Dto>`. */
export function OpenBody<T extends object>(dto: ClassConstructor<T>, options: OpenBodyOptions) {
  return requestBody(new OpenBodyPipe(dto, options));
}
