import { loadCommittedOpenApi, type OpenApiDocument, type OpenApiSchema } from './openapi-routes.js';

/** An error body schema, with the schema of its `details` items when it has them. */
type DeclaredBody = OpenApiSchema & { detailItem?: OpenApiSchema };

function resolve(document: OpenApiDocument, schema: OpenApiSchema | undefined): OpenApiSchema | undefined {
  if (!schema?.$ref) return schema;
  return document.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
}

/** The error body schemas `openapi.json` declares for one response of one operation (its `oneOf` listed apart). */
export function declaredErrorBodies(method: string, template: string, status: number): DeclaredBody[] {
  const document = loadCommittedOpenApi();
  const operation = document.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`openapi.json has no operation ${method} ${template}`);
  const schema = resolve(document, operation.responses[String(status)]?.content?.['application/json']?.schema);
  if (!schema) return [];
  return (schema.oneOf ?? [schema]).map((each) => {
    const body = resolve(document, each)!;
    return { ...body, detailItem: resolve(document, body.properties?.details?.items) };
  });
}

/**
 * The domain code of an error body: `code` on the point-of-sale routes (whose `error` is the
 * sentence), else `error`; `property` says which.
 */
function codeOf(body: Record<string, unknown>): { property: 'code' | 'error'; code: unknown } {
  return 'code' in body ? { property: 'code', code: body.code } : { property: 'error', code: body.error };
}

/** The codes one response of one operation declares (in `error` on the admin API, in `code` on the point-of-sale routes). */
export function declaredCodes(method: string, template: string, status: number): string[] {
  return declaredErrorBodies(method, template, status)
    .flatMap((body) => body.properties?.code?.enum ?? body.properties?.error?.enum ?? [])
    .filter((code): code is string => typeof code === 'string');
}

/**
 * Asserts that an error answer is one the operation declares in `openapi.json`: its code is
 * listed for that status (the admin API's `error`, or the point-of-sale routes' `code`), and the
 * body and each item of its `details` have every property the code's schema requires, and no other.
 */
export function expectDeclaredError(method: string, template: string, answer: { status: number; body: object }): void {
  // A JSON object as received: read by property name, each value checked against the schema below.
  const received = answer.body as Record<string, unknown>;
  const { property, code } = codeOf(received);
  const label = `${method} ${template} ${answer.status} ${String(code)}`;
  const body = declaredErrorBodies(method, template, answer.status).find((each) => each.properties?.[property]?.enum?.includes(code));
  expect([label, body !== undefined]).toEqual([label, true]);
  expect([label, Object.keys(received).sort()]).toEqual([label, Object.keys(body?.properties ?? {}).sort()]);
  const itemProperties = body?.detailItem?.properties ?? {};
  const details = received.details ?? [];
  expect([label, 'details', Array.isArray(details)]).toEqual([label, 'details', true]);
  for (const detail of details as Array<Record<string, unknown>>) {
    expect([label, Object.keys(detail).sort()]).toEqual([label, Object.keys(itemProperties).sort()]);
    for (const [name, property] of Object.entries(itemProperties)) {
      const value = detail[name];
      const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
      const allowed = [property.type, ...(property.nullable ? ['null'] : [])];
      expect([label, name, allowed.includes(type)]).toEqual([label, name, true]);
      if (property.enum && value !== null) expect([label, name, property.enum.includes(value)]).toEqual([label, name, true]);
    }
  }
}
