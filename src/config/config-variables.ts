import { ACCESS_VARIABLES } from './variables/access.js';
import { FORWARDING_VARIABLES } from './variables/forwarding.js';
import { OPERATIONS_VARIABLES } from './variables/operations.js';
import { RUNTIME_VARIABLES } from './variables/runtime.js';
import type { VariableSpec } from './config-types.js';

export type { AppConfig, LogLevel, NodeEnvironment, VariableSpec } from './config-types.js';

/**
 * Every environment variable the service reads is declared once, in `variables/` by what it is about, with its
 * default, a description (rendered into the README's configuration table, in this order) and a `sensitive` flag (its
 * value is never logged). `loadConfig` (app-config.ts) validates them all at start and fails with one message naming
 * every bad variable.
 */
export const CONFIG_VARIABLES: VariableSpec[] = [
  ...RUNTIME_VARIABLES,
  ...ACCESS_VARIABLES,
  ...FORWARDING_VARIABLES,
  ...OPERATIONS_VARIABLES,
];
