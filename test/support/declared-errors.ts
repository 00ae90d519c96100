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

/** The admin API codes one response of one operation declares. */
export function declaredCodes(method: string, template: string, status: number): string[] {
  return declaredErrorBodies(method, template, status).flatMap((body) => body.properties?.error?.enum ?? []);
}

/**
 * Asserts that an admin API error answer is one the operation declares in `openapi.json`: its
 * code is listed for that status, and the body and each item of its `details` have every
 * property the code's schema requires, and no other.
 */
export function expectDeclaredError(method: string, template: string, answer: { status: number; body: any }): void {
  const label = `${method} ${template} ${answer.status} ${answer.body?.error}`;
  const body = declaredErrorBodies(method, template, answer.status).find((each) =>
    each.properties?.error?.enum?.includes(answer.body.error),
  );
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
