/** A timestamptz column as the API's ISO-8601 UTC text with microseconds, built by PostgreSQL. */
export function isoUtc(column: string): string {
  return `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
