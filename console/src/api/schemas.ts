import type { components, paths as generatedPaths } from '../../../clients/typescript/src/schema';

/** The API's operations and bodies, generated from the OpenAPI document: the types every other file reads. */
export type paths = generatedPaths;
export type { components };
export type Schemas = components['schemas'];
