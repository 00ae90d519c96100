import { loadCommittedOpenApi } from './openapi-routes.js';

type Schema = Record<string, any>;

function resolve(document: Schema, schema: Schema | undefined): Schema | undefined {
  if (!schema?.$ref) return schema;
  return document.components.schemas[String(schema.$ref).replace('#/components/schemas/', '')];
}

/** The error body schemas `openapi.json` declares for one response of one operation (its `oneOf` listed apart). */
export function declaredErrorBodies(method: string, template: string, status: number): Schema[] {
  const document = loadCommittedOpenApi();
  const operation = document.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`openapi.json has no operation ${method} ${template}`);
  const schema = resolve(document, operation.responses[String(status)]?.content?.['application/json']?.schema);
  if (!schema) return [];
  return (schema.oneOf ?? [schema]).map((each: Schema) => {
    const body = resolve(document, each)!;
    const items = resolve(document, body.properties?.details?.items);
    return { ...body, detailItem: items };
  });
}

/**
 * The domain code of an error body: `code` on the point-of-sale routes (whose `error` is the
 * sentence), else `error`; `property` says which.
 */
function codeOf(body: any): { property: 'code' | 'error'; code: unknown } {
  return body && 'code' in body ? { property: 'code', code: body.code } : { property: 'error', code: body?.error };
}

/** The codes one response of one operation declares (in `error` on the admin API, in `code` on the point-of-sale routes). */
export function declaredCodes(method: string, template: string, status: number): string[] {
  return declaredErrorBodies(method, template, status).flatMap((body) => body.properties?.code?.enum ?? body.properties?.error?.enum ?? []);
}

/**
 * Asserts that an error answer is one the operation declares in `openapi.json`: its code is
 * listed for that status (the admin API's `error`, or the point-of-sale routes' `code`), and the
 * body and each item of its `details` have every property the code's schema requires, and no other.
 */
export function expectDeclaredError(method: string, template: string, answer: { status: number; body: any }): void {
  const { property, code } = codeOf(answer.body);
  const label = `${method} ${template} ${answer.status} ${String(code)}`;
  const body = declaredErrorBodies(method, template, answer.status).find((each) => each.properties?.[property]?.enum?.includes(code));
  expect([label, body !== undefined]).toEqual([label, true]);
  expect([label, Object.keys(answer.body).sort()]).toEqual([label, Object.keys(body!.properties).sort()]);
  const item = body!.detailItem;
  for (const detail of answer.body.details ?? []) {
    expect([label, Object.keys(detail).sort()]).toEqual([label, Object.keys(item.properties).sort()]);
    for (const [name, property] of Object.entries<Schema>(item.properties)) {
      const value = detail[name];
      const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
      const allowed = [property.type, ...(property.nullable ? ['null'] : [])];
      expect([label, name, allowed.includes(type)]).toEqual([label, name, true]);
      if (property.enum && value !== null) expect([label, name, property.enum.includes(value)]).toEqual([label, name, true]);
    }
  }
}
