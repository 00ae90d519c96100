import { readFileSync } from 'node:fs';
import { POINT_OF_SALE_DOMAIN_CODES } from '../../src/common/errors/error-codes.js';
import { ErrorFamily } from '../../src/common/errors/error-families.js';

/**
 * The parts of `openapi.json` the tests read, as the service writes it (OpenAPI 3.0: plain objects, schemas
 * referenced from the components by `$ref`, only operations under a path). A small interface of our own rather
 * than openapi-typescript's full one, whose unions (every object or a reference) would need narrowing at each read.
 */
export interface OpenApiSchema {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  enum?: unknown[];
  oneOf?: OpenApiSchema[];
  properties?: Record<string, OpenApiSchema>;
  items?: OpenApiSchema;
  required?: string[];
  example?: unknown;
}
export interface OpenApiMediaType {
  schema?: OpenApiSchema;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
}
export interface OpenApiParameter {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: OpenApiSchema;
}
export interface OpenApiResponse {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, OpenApiMediaType>;
}
/** A security requirement: scheme name → scopes. */
export type OpenApiSecurity = Array<Record<string, string[]>>;
export interface OpenApiOperation {
  summary?: string;
  tags?: string[];
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, OpenApiMediaType> };
  responses: Record<string, OpenApiResponse>;
  security?: OpenApiSecurity;
  deprecated?: boolean;
  'x-required-scopes'?: string[];
}
export interface OpenApiDocument {
  info: { version: string; description?: string };
  /** Path template → lower-case method → operation. */
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, OpenApiSchema>; securitySchemes: Record<string, unknown> };
  security?: OpenApiSecurity;
}

export interface DocumentedOperation {
  method: string;
  /** Path of the document with its `{params}` filled with plausible values. */
  path: string;
  template: string;
  protectedByBearer: boolean;
  requiredScopes: string[];
  family: ErrorFamily;
  operation: OpenApiOperation;
}

export function loadCommittedOpenApi(): OpenApiDocument {
  return JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;
}

/** The family whose error body schema the document gives each operation (every operation documents a 500). */
const FAMILY_BY_SCHEMA: Record<string, ErrorFamily> = {
  '#/components/schemas/ErrorResponseDto': ErrorFamily.AdminApi,
  '#/components/schemas/ChannelErrorResponseDto': ErrorFamily.ChannelConfiguration,
  '#/components/schemas/OAuthErrorResponseDto': ErrorFamily.OAuth,
  '#/components/schemas/FulfillmentErrorResponseDto': ErrorFamily.PointOfSale,
};

function documentedFamily(label: string, operation: OpenApiOperation): ErrorFamily {
  const schema = operation.responses['500']?.content?.['application/json']?.schema?.$ref;
  const family = schema === undefined ? undefined : FAMILY_BY_SCHEMA[schema];
  if (family === undefined) throw new Error(`${label}: its 500 response has no family error schema`);
  return family;
}

/** Every operation of the document, with the `/api` prefix removed for the HTTP client. */
export function documentedOperations(document = loadCommittedOpenApi()): DocumentedOperation[] {
  const operations: DocumentedOperation[] = [];
  for (const [template, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const security = operation.security ?? document.security ?? [];
      const path = template.replace(/\{[^}]+\}/g, (name) => (/id/i.test(name) ? '00000000-0000-4000-8000-000000000000' : 'sample'));
      operations.push({
        method: method.toUpperCase(),
        path: path.replace(/^\/api/, ''),
        template,
        protectedByBearer: security.some((requirement) => 'bearer' in requirement),
        requiredScopes: operation['x-required-scopes'] ?? [],
        family: documentedFamily(`${method} ${template}`, operation),
        operation,
      });
    }
  }
  return operations;
}

/** Asserts that a body has the shape of its route family's error. */
export function expectErrorShape(family: DocumentedOperation['family'], body: unknown): void {
  const keys = Object.keys(body as object).sort();
  switch (family) {
    case ErrorFamily.AdminApi:
      expect(['error', 'message'].every((key) => keys.includes(key))).toBe(true);
      expect(typeof (body as { message: unknown }).message).toBe('string');
      break;
    case ErrorFamily.ChannelConfiguration:
      expect(keys).toEqual(['message', 'statusCode']);
      expect(typeof (body as { statusCode: unknown }).statusCode).toBe('string');
      break;
    case ErrorFamily.OAuth:
      expect(keys).toEqual(['error', 'error_description']);
      break;
    case ErrorFamily.PointOfSale: {
      // The published body; a domain failure adds its code and details.
      const { code } = body as { code?: unknown };
      if (code === undefined) expect(keys).toEqual(['error', 'message']);
      else
        expect([code, keys, POINT_OF_SALE_DOMAIN_CODES.includes(code as never)]).toEqual([
          code,
          ['code', 'details', 'error', 'message'],
          true,
        ]);
      expect((body as { error: unknown }).error).toBe((body as { message: unknown }).message);
      break;
    }
  }
}
