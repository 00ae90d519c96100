import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath, type OpenAPIObject } from '@nestjs/swagger';
import type { DomainErrorCode } from '../errors/error-codes.js';
import { ErrorFamily, type ErrorFamilyRoutes } from '../errors/error-families.js';
import {
  ChannelErrorResponseDto,
  DomainErrorResponseDto,
  ErrorResponseDto,
  FulfillmentErrorResponseDto,
  OAuthErrorResponseDto,
  PointOfSaleDomainErrorResponseDto,
} from './error-response.dto.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Invalid request (malformed JSON, wrong type, failed validation, unknown property)',
  401: 'Missing, malformed, expired or wrongly signed bearer token, or a deactivated client',
  403: 'The token lacks the required scope',
  404: 'Not found',
  409: 'Conflict with the current state',
  413: 'Request body over the size limit (BODY_LIMIT_BYTES; 4 KiB for credentials)',
  415: 'Content-Type not accepted',
  422: 'Well-formed but cannot be processed',
  429: 'Too many requests; retry after the number of seconds in Retry-After',
  500: 'Unexpected error (logged with the request id)',
  502: 'The webhook receiver did not accept the delivery',
  503: 'The database is unavailable, a statement ran past its time limit, the instance is shutting down, or too many bodies are being read before authentication: retry after the seconds in Retry-After',
};

const EXAMPLES: Record<ErrorFamily, (status: number) => unknown> = {
  [ErrorFamily.AdminApi]: (status) => ({ message: DESCRIPTIONS[status] ?? 'Error', error: codeForStatus(status) }),
  [ErrorFamily.ChannelConfiguration]: (status) => ({ statusCode: String(status), message: DESCRIPTIONS[status] ?? 'Error' }),
  [ErrorFamily.OAuth]: (status) => ({ error: oauthCodeForStatus(status), error_description: DESCRIPTIONS[status] ?? 'Error' }),
  [ErrorFamily.PointOfSale]: (status) => ({ error: DESCRIPTIONS[status] ?? 'Error', message: DESCRIPTIONS[status] ?? 'Error' }),
};

const SCHEMAS: Record<ErrorFamily, Type> = {
  [ErrorFamily.AdminApi]: ErrorResponseDto,
  [ErrorFamily.ChannelConfiguration]: ChannelErrorResponseDto,
  [ErrorFamily.OAuth]: OAuthErrorResponseDto,
  [ErrorFamily.PointOfSale]: FulfillmentErrorResponseDto,
};

function codeForStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'VALIDATION_FAILED',
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    409: 'CONFLICT',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
    422: 'FISCAL_GROUP_NOT_FOUND',
    429: 'RATE_LIMITED',
    500: 'INTERNAL_ERROR',
    502: 'WEBHOOK_DELIVERY_FAILED',
    503: 'SERVICE_UNAVAILABLE',
  };
  return codes[status] ?? 'INTERNAL_ERROR';
}

function oauthCodeForStatus(status: number): string {
  const codes: Record<number, string> = {
    400: 'invalid_request',
    401: 'invalid_token',
    403: 'insufficient_scope',
    429: 'too_many_requests',
    503: 'temporarily_unavailable',
  };
  return codes[status] ?? 'server_error';
}

/** Stands for the controller's error body until `@ErrorBodies` says which it is. */
class FamilyErrorBody {}

/** The example of an error response until `@ErrorBodies` picks the family's. */
interface PendingExample {
  readonly pendingStatus: number;
  /** The example given to `ApiErrors` (another code, a real message), in the controller's family shape. */
  readonly given?: object;
}
const PENDING_EXAMPLES = new WeakSet<object>();

/** Where @nestjs/swagger's `ApiResponse` keeps the responses of a route or a controller, by status. */
const SWAGGER_RESPONSES = 'swagger/apiResponse';

/** Where `ApiDomainErrors` keeps a route's domain error bodies: status → code → body class. */
const DOMAIN_ERROR_BODIES = 'openapi:domainErrorBodies';
type DomainErrorBodies = Record<number, Partial<Record<DomainErrorCode, Type>>>;
/** Where `ApiDomainErrors` keeps the statuses whose schema also admits the family's generic body. */
const ALSO_GENERIC = 'openapi:domainErrorsAlsoGeneric';

/**
 * Documents error responses of a route (or of every route of a controller). Their body shape is
 * the controller's error family, said once by `@ErrorBodies` above `@Controller`, which fills in
 * the schema and example. The statuses any request can meet are added to every route by
 * `documentResponsesAnyRouteCanMeet`. `examples` replaces the family's generic example of a status; give it in the family's shape.
 */
export function ApiErrors(
  statuses: number[],
  descriptions: Partial<Record<number, string>> = {},
  examples: Partial<Record<number, object>> = {},
) {
  return applyDecorators(
    ...[...new Set(statuses)].sort().map((status) => {
      const example: PendingExample = { pendingStatus: status, given: examples[status] };
      PENDING_EXAMPLES.add(example);
      return ApiResponse({ status, description: descriptions[status] ?? DESCRIPTIONS[status], type: FamilyErrorBody, example });
    }),
  );
}

/**
 * Declares the domain codes a route answers with `status` (also listed in `ApiErrors`): that
 * response's schema becomes one of their bodies, told apart by the family's code property. Only
 * the admin API (`error`) and the point-of-sale routes (`code`) have one; each body extends that
 * family's domain body class.
 */
export function ApiDomainErrors(
  status: number,
  bodies: Partial<Record<DomainErrorCode, Type>>,
  options: { alsoGeneric?: boolean } = {},
): MethodDecorator {
  return (target, key, descriptor) => {
    const method = descriptor.value as object;
    const known = (Reflect.getMetadata(DOMAIN_ERROR_BODIES, method) as DomainErrorBodies | undefined) ?? {};
    Reflect.defineMetadata(DOMAIN_ERROR_BODIES, { ...known, [status]: bodies }, method);
    // A status also answered with a generic code (a 403 for a missing scope beside a domain 403).
    if (options.alsoGeneric) {
      const generic = (Reflect.getMetadata(ALSO_GENERIC, method) as number[] | undefined) ?? [];
      Reflect.defineMetadata(ALSO_GENERIC, [...generic, status], method);
    }
    ApiExtraModels(...Object.values(bodies))(target, key, descriptor);
    return descriptor;
  };
}

/** The families whose bodies carry a domain code: the property that holds it, and the class every code's body extends. */
const DOMAIN_BODIES: Partial<Record<ErrorFamily, { codeProperty: string; base: abstract new () => object }>> = {
  [ErrorFamily.AdminApi]: { codeProperty: 'error', base: DomainErrorResponseDto },
  [ErrorFamily.PointOfSale]: { codeProperty: 'code', base: PointOfSaleDomainErrorResponseDto },
};

/** The schema of a response whose body is one of `bodies`, by its code in `codeProperty`. */
function domainErrorSchema(bodies: Partial<Record<DomainErrorCode, Type>>, codeProperty: string, generic?: Type): Record<string, unknown> {
  const refs = Object.entries(bodies).map(([code, body]) => [code, getSchemaPath(body)] as const);
  // The generic body's `error` lists only generic codes, so a body still matches exactly one schema.
  if (generic) return { oneOf: [...refs.map(([, ref]) => ({ $ref: ref })), { $ref: getSchemaPath(generic) }] };
  if (refs.length === 1) return { $ref: refs[0]![1] };
  return {
    oneOf: refs.map(([, ref]) => ({ $ref: ref })),
    discriminator: { propertyName: codeProperty, mapping: Object.fromEntries(refs) },
  };
}

/** Gives the error responses `ApiErrors` put on a controller and its routes the schema and examples of `family`. */
export function documentErrors(controller: { prototype: object; name?: string }, family: ErrorFamily): void {
  const prototype = controller.prototype as Record<string, unknown>;
  const holders: object[] = [controller];
  for (const name of Object.getOwnPropertyNames(prototype)) {
    const method = prototype[name];
    if (name !== 'constructor' && typeof method === 'function') holders.push(method);
  }
  for (const holder of holders) {
    const responses = Reflect.getMetadata(SWAGGER_RESPONSES, holder) as
      Record<string, { type?: unknown; schema?: unknown; example?: unknown }> | undefined;
    const domainBodies = (Reflect.getMetadata(DOMAIN_ERROR_BODIES, holder) as DomainErrorBodies | undefined) ?? {};
    const alsoGeneric = (Reflect.getMetadata(ALSO_GENERIC, holder) as number[] | undefined) ?? [];
    for (const [status, bodies] of Object.entries(domainBodies)) {
      const entry = responses?.[status];
      const domain = DOMAIN_BODIES[family];
      if (!domain) throw new Error(`${controller.name}: the ${family} error body has no code field: it cannot declare domain codes`);
      const foreign = Object.values(bodies).filter((body) => !(body.prototype instanceof domain.base));
      if (foreign.length)
        throw new Error(`${controller.name}: ${foreign.map((body) => body.name).join(', ')} must extend ${domain.base.name}`);
      if (entry?.type !== FamilyErrorBody) throw new Error(`${controller.name}: ApiDomainErrors(${status}) needs ApiErrors([${status}])`);
      entry.type = undefined;
      entry.schema = domainErrorSchema(bodies, domain.codeProperty, alsoGeneric.includes(Number(status)) ? SCHEMAS[family] : undefined);
      // The family's generic example (code CONFLICT...) would contradict the schema: the bodies' own examples stand.
      if (PENDING_EXAMPLES.has(entry.example as object)) entry.example = (entry.example as PendingExample).given;
    }
    for (const entry of Object.values(responses ?? {})) {
      if (entry.type === FamilyErrorBody) entry.type = SCHEMAS[family];
      if (typeof entry.example === 'object' && entry.example !== null && PENDING_EXAMPLES.has(entry.example)) {
        const pending = entry.example as PendingExample;
        entry.example = pending.given ?? EXAMPLES[family](pending.pendingStatus);
      }
    }
  }
}

/** What a temporary 503 carries (an outage, a slow statement, a draining instance). */
const RETRY_AFTER_HEADER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying, when the condition is temporary',
    schema: { type: 'integer', example: 5 },
  },
};

/**
 * Documents, on every operation that does not say them itself, the statuses any request can meet
 * whatever its route: 500 and 503 (the database down, a statement past its time limit, a draining
 * instance), and 413 and 415 on operations that take a body. Each in the family shape of its path,
 * and every family 503 with its Retry-After header.
 */
export function documentResponsesAnyRouteCanMeet(document: OpenAPIObject, families: ErrorFamilyRoutes): void {
  for (const [template, methods] of Object.entries(document.paths)) {
    const family = families.familyOf(template);
    const schemaName = SCHEMAS[family].name;
    if (!document.components?.schemas?.[schemaName]) throw new Error(`The error schema ${schemaName} is not in the document`);
    const familyResponse = (status: number) => ({
      description: DESCRIPTIONS[status]!,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${schemaName}` }, example: EXAMPLES[family](status) } },
    });
    for (const operation of Object.values(methods) as Array<Record<string, unknown>>) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const responses = operation.responses as Record<string, Record<string, unknown>>;
      for (const status of operation.requestBody ? [413, 415, 500, 503] : [500, 503]) responses[status] ??= familyResponse(status);
      const unavailable = responses['503']!;
      const unavailableSchema = (unavailable.content as Record<string, { schema?: { $ref?: string } }> | undefined)?.['application/json']
        ?.schema;
      if (unavailableSchema?.$ref === `#/components/schemas/${schemaName}`) unavailable.headers ??= RETRY_AFTER_HEADER;
    }
  }
}
