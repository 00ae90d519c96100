/** A JSON object: not null, not an array (the one check every hand-read body and payload uses). */
export function isPlainObject<T = unknown>(value: unknown): value is Record<string, T> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
