/** A timestamptz column as the API's ISO-8601 UTC text with microseconds, built by PostgreSQL. */
export function isoUtc(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * The SQL expression of each property of a JSON object built by PostgreSQL, keyed by the response
 * type's properties: the compiler refuses a missing or unknown key, so renaming a DTO field fails
 * here. An optional property may be left undefined (then it is not in the object).
 */
export type JsonFieldsSql<T> = { readonly [K in keyof Required<T>]: K extends OptionalKeys<T> ? string | undefined : string };
type OptionalKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? K : never }[keyof T];

/** `json_build_object('key', expression, ...)` in the order of `fields`. */
export function jsonObjectSql<T>(fields: JsonFieldsSql<T>): string {
  const pairs = Object.entries(fields as Record<string, string | undefined>)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, expression]) => `'${key}', ${expression}`);
  return `json_build_object(${pairs.join(', ')})`;
}
