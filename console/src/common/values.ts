/** Readers of the API's loosely typed JSON (payloads are kept as the platform sent them). */
export type Obj = Record<string, unknown>;
export const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
export const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
