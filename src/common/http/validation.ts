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

/** Distinct passing queries kept per DTO class, and the longest query text kept: what a client sends cannot grow it without end. */
const PASSING_QUERIES_PER_DTO = 64;
const PASSING_QUERY_MAX_LENGTH = 256;

/** The query DTO classes whose passing queries the pipe keeps (`KeepPassingQueries`). */
const KEEPING_PASSING_QUERIES = new WeakSet<object>();

/**
 * Lets the global pipe keep this query DTO's passing queries (see `StrictValidationPipe`): for a query that hot routes
 * receive with a few set values (`?profile=rappi`, `?nfe=65`), never one that holds what a person typed (a name, an
 * e-mail), which the pipe would otherwise keep in memory for the life of the process.
 */
export function KeepPassingQueries(): ClassDecorator {
  return (target) => {
    KEEPING_PASSING_QUERIES.add(target);
  };
}

/**
 * The global pipe: also refuses prototype-named keys before class-transformer sees them.
 *
 * Transforming and validating a query is most of the pipe's cost on the busiest routes (class-validator looks up a
 * class's rules among every class's on each call), and whether a query passes, and what it becomes, depend only on its
 * values. So an empty query that passed once for a DTO class, or for a class marked `KeepPassingQueries` any query of
 * texts that passed once, is not validated again: it gets what the pipe made of it, a new instance of the class
 * holding the same values. Only results holding plain values (texts, numbers, booleans) are kept, since a kept object
 * would be shared between requests; a query that fails goes through the whole pipe every time, for the same 400.
 */
class StrictValidationPipe extends ValidationPipe {
  private readonly passingQueries = new WeakMap<object, Map<string, Record<string, unknown>>>();

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const validated = this.toValidate(metadata);
    // Nest's pipe would validate a null or missing body as `{}`, which passes a DTO whose properties are all optional.
    if (metadata.type === 'body' && metadata.data === undefined && validated) requireObjectBody(value);
    if ((metadata.type === 'body' || metadata.type === 'query') && validated) refusePrototypeNamedKey(value);
    const metatype = metadata.metatype as (new () => object) | undefined;
    const key = metadata.type === 'query' && validated && metatype ? textQueryKey(value, KEEPING_PASSING_QUERIES.has(metatype)) : undefined;
    if (key === undefined || !metatype) return super.transform(value, metadata);
    let passing = this.passingQueries.get(metatype);
    const kept = passing?.get(key);
    if (kept) return Object.assign(new metatype(), kept);
    const result: unknown = await super.transform(value, metadata);
    const values = plainValuesOf(result);
    if (values && (passing?.size ?? 0) < PASSING_QUERIES_PER_DTO) {
      if (!passing) this.passingQueries.set(metatype, (passing = new Map()));
      passing.set(key, values);
    }
    return result;
  }
}

/**
 * The query as a key of the passing queries: its names and values in order, when all are texts and it is short (only
 * the empty query unless `anyValues`); else undefined.
 */
function textQueryKey(value: unknown, anyValues: boolean): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || Object.getOwnPropertySymbols(value).length > 0)
    return undefined;
  const names = Object.getOwnPropertyNames(value);
  if (names.length > 0 && !anyValues) return undefined;
  const entries: string[] = [];
  for (const name of names) {
    const entry = (value as Record<string, unknown>)[name];
    if (typeof entry !== 'string') return undefined;
    entries.push(name, entry);
  }
  const key = JSON.stringify(entries);
  return key.length <= PASSING_QUERY_MAX_LENGTH ? key : undefined;
}

/** The own properties of a transformed query, when every one is a text, a number, a boolean or undefined; else undefined. */
function plainValuesOf(result: unknown): Record<string, unknown> | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const values: Record<string, unknown> = {};
  for (const name of Object.getOwnPropertyNames(result)) {
    const entry = (result as Record<string, unknown>)[name];
    if (entry !== undefined && typeof entry !== 'string' && typeof entry !== 'number' && typeof entry !== 'boolean') return undefined;
    values[name] = entry;
  }
  return values;
}

/** A 400 for a request body that is not a JSON object: null, a number, a text, a boolean, an array, or no body at all. */
export function requireObjectBody(value: unknown): asserts value is Record<string, unknown> {
  if (!isPlainObject(value)) throw ApiError.badRequest('The body must be a JSON object');
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
