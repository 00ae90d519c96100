import { z } from 'zod';
import { loadCommittedOpenApi } from './openapi-routes.js';

type JsonSchema = Parameters<typeof z.fromJSONSchema>[0];

/** The schemas with their component references pointed at `definitions`, where zod looks them up. */
function localReferences<T>(value: T): T {
  return JSON.parse(JSON.stringify(value).replaceAll('"#/components/schemas/', '"#/definitions/')) as T;
}

/**
 * What a gateway that validates requests against `openapi.json` would find wrong with a JSON body sent
 * to an operation: [] when the body conforms. The document's OpenAPI 3.0 schema is read by zod
 * (`nullable`, `oneOf` as exactly one of), its components as the definitions its references name.
 */
export function requestBodyProblems(method: string, template: string, body: unknown): string[] {
  const document = loadCommittedOpenApi();
  const schema = document.paths[template]?.[method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
  if (!schema) throw new Error(`openapi.json declares no JSON request body for ${method} ${template}`);
  const validator = z.fromJSONSchema(
    { ...localReferences(schema), definitions: localReferences(document.components.schemas) } as JsonSchema,
    {
      defaultTarget: 'openapi-3.0',
    },
  );
  const result = validator.safeParse(body);
  return result.success ? [] : [z.prettifyError(result.error)];
}
