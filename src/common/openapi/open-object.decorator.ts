/** Schema names whose objects accept properties beyond the documented ones (free-form platform payloads). */
export const OPEN_OBJECT_SCHEMAS = new Set<string>();

/** Marks a DTO's schema `additionalProperties: true` in the OpenAPI document. */
export function OpenObject(): ClassDecorator {
  return (target) => {
    OPEN_OBJECT_SCHEMAS.add(target.name);
  };
}
