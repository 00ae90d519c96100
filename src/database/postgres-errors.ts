/** The constraint name of a PostgreSQL unique violation (23505), when that is what the error is. */
export function uniqueViolation(error: unknown): string | undefined {
  const driver = ((error as { driverError?: unknown }).driverError ?? error) as { code?: string; constraint?: string };
  return driver?.code === '23505' ? (driver.constraint ?? '') : undefined;
}
