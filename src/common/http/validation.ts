import { ValidationPipe, type ArgumentMetadata, type ValidationError } from '@nestjs/common';
import { ApiError, type ErrorDetail } from '../errors/api-error.js';
import { isPlainObject } from '../plain-object.js';

export interface FlattenOptions {
  /** Array items as `items[0].price` rather than `items.0.price` (the paths of the channel and webhook routes' messages). */
  bracketIndexes?: boolean;
}

/** class-validator errors, nested ones included, as one list of `{ field, problem }`. */
export function flattenValidationErrors(
  errors: ValidationError[],
  options: FlattenOptions = {},
  parent = '',
  inArray = false,
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = !parent
      ? error.property
      : inArray && options.bracketIndexes
        ? `${parent}[${error.property}]`
        : `${parent}.${error.property}`;
    for (const problem of Object.values(error.constraints ?? {})) {
      const withoutName = problem.startsWith(`${error.property} `) ? problem.slice(error.property.length + 1) : problem;
      details.push({ field, problem: withoutName });
    }
    if (error.children?.length) details.push(...flattenValidationErrors(error.children, options, field, Array.isArray(error.value)));
  }
  return details;
}

/**
 * The global pipe: also refuses prototype-named keys before class-transformer sees them.
 *
 * Most requests send no query string, and transforming and validating an empty query is most of
 * the pipe's cost on the busiest routes: whether an empty query passes is the same every time for
 * a DTO, so it is found once per DTO class, and an empty query then gets what the pipe would make
 * of it, a new instance of the class with nothing copied into it. A DTO whose empty query is
 * refused (a required parameter) goes through the whole pipe every time, for the same 400.
 */
class StrictValidationPipe extends ValidationPipe {
  private readonly emptyQueryPasses = new WeakMap<object, boolean>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const validated = this.toValidate(metadata);
    // Nest's pipe would validate a null or missing body as `{}`, which passes a DTO whose properties are all optional.
    if (metadata.type === 'body' && metadata.data === undefined && validated) requireObjectBody(value);
    if ((metadata.type === 'body' || metadata.type === 'query') && validated) refusePrototypeNamedKey(value);
    const metatype = metadata.metatype as (new () => object) | undefined;
    if (metadata.type !== 'query' || !validated || !metatype || !isEmptyObject(value)) return super.transform(value, metadata);
    if (this.emptyQueryPasses.get(metatype)) return new metatype();
    try {
      const result = await super.transform(value, metadata);
      this.emptyQueryPasses.set(metatype, true);
      return result;
    } catch (error) {
      this.emptyQueryPasses.set(metatype, false);
      throw error;
    }
  }
}

/** A 400 for a request body that is not a JSON object: null, a number, a text, a boolean, an array, or no body at all. */
export function requireObjectBody(value: unknown): asserts value is Record<string, unknown> {
  if (!isPlainObject(value)) throw ApiError.badRequest('The body must be a JSON object');
}

function isEmptyObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.getOwnPropertyNames(value).length === 0 && Object.getOwnPropertySymbols(value).length === 0;
}

export function createValidationPipe(): ValidationPipe {
  return new StrictValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    stopAtFirstError: false,
    exceptionFactory: (errors) => ApiError.validation(flattenValidationErrors(errors)),
  });
}

/** Names that class-transformer and class-validator look up on prototypes (and `__proto__`, `prototype`). */
const PROTOTYPE_MEMBER_NAMES = new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype']);

/**
 * The path of the first own key, at any depth, named like an `Object.prototype` member.
 * No DTO declares such a property, so it is unknown; class-transformer would resolve it
 * through the prototype (a `constructor` key made it throw) and class-validator's whitelist
 * would let some through, so such keys are refused before either sees the value.
 */
export function prototypeNamedKey(value: unknown): string | undefined {
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    const isArray = Array.isArray(current);
    for (const key of Object.keys(current)) {
      const childPath = isArray ? `${path}[${key}]` : path === '' ? key : `${path}.${key}`;
      if (!isArray && PROTOTYPE_MEMBER_NAMES.has(key)) return childPath;
      stack.push([(current as Record<string, unknown>)[key], childPath]);
    }
  }
  return undefined;
}

/** A 400 for a prototype-named key of a body or query, in the words of class-validator's own unknown-property error. */
export function refusePrototypeNamedKey(value: unknown): void {
  const path = prototypeNamedKey(value);
  if (path === undefined) return;
  const name = path.slice(path.lastIndexOf('.') + 1);
  throw ApiError.validation([{ field: path, problem: `property ${name} should not exist` }]);
}
