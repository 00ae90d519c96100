import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Logger } from '../common/logging/logger.js';

/** The exit code of a start that cannot reach its database (78 is a configuration error). */
export const EXIT_DATABASE_UNREACHABLE = 69;

/** SQLSTATEs and system errors that another try will not fix: the configuration must change. */
const PERMANENT = new Map<string, string>([
  ['28P01', 'the password is wrong'],
  ['28000', 'the user may not connect'],
  ['3D000', 'the database does not exist'],
  ['ENOTFOUND', 'the host name does not resolve'],
  ['ERR_INVALID_URL', 'the URL is not valid'],
]);

export class DatabaseUnreachableError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** `postgres://user@host:port/database`, without the password. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const host = parsed.searchParams.get('host') ?? parsed.host;
    return `${parsed.protocol}//${parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''}${host}${parsed.pathname}`;
  } catch {
    return '(an invalid URL)';
  }
}

/** Causes a command reports in words beside their code. */
const CAUSES = new Map<string, string>([
  ...PERMANENT,
  ['ECONNREFUSED', 'nothing accepts connections there'],
  ['ETIMEDOUT', 'it does not answer'],
  ['EHOSTUNREACH', 'the host cannot be reached'],
  ['ENETUNREACH', 'the network cannot be reached'],
  ['ECONNRESET', 'the connection was closed'],
  ['EAI_AGAIN', 'the host name could not be looked up'],
  ['57P03', 'the database is starting up or shutting down'],
  ['53300', 'the server has too many connections'],
]);

/** `host:port` of a database URL (a socket directory given as `?host=` stands for the host). */
export function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.searchParams.get('host') ?? (parsed.hostname || 'localhost')}:${parsed.port || '5432'}`;
  } catch {
    return '(an invalid URL)';
  }
}

/**
 * Connects once, for a command someone is waiting on: a database that cannot be reached is one sentence naming its
 * address and the failure's code, at once (the service's start waits for a database that is still starting).
 */
export async function checkDatabaseOnce(url: string, source: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (error) {
    const code = String((error as { code?: unknown }).code ?? '');
    const cause = CAUSES.get(code) ?? (error as Error).message;
    throw new DatabaseUnreachableError(
      `cannot connect to the database at ${databaseAddress(url)} (${source} ${describeDatabaseUrl(url)}): ${cause}${code ? ` (${code})` : ''}`,
      PERMANENT.has(code),
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Connects once before the application starts, so that a database that cannot be reached
 * gives one clear line (naming DATABASE_URL and the cause) instead of retried stack traces.
 * Causes that can go away (refused, timed out: the database is starting) are retried with a
 * backoff for `waitMs`; the others fail at once.
 */
export async function checkDatabaseReachable(url: string, source: string, logger: Logger, waitMs = 30_000): Promise<void> {
  const shown = describeDatabaseUrl(url);
  const deadline = Date.now() + waitMs;
  for (let attempt = 1, delay = 500; ; attempt++, delay = Math.min(delay * 2, 5000)) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return;
    } catch (error) {
      const code = String((error as { code?: unknown }).code ?? '');
      const reason = (error as Error).message;
      const permanent = PERMANENT.get(code);
      if (permanent) {
        throw new DatabaseUnreachableError(`cannot connect to the database of ${source} (${shown}): ${permanent} (${reason})`, true);
      }
      if (Date.now() + delay > deadline) {
        throw new DatabaseUnreachableError(
          `cannot connect to the database of ${source} (${shown}) after ${attempt} tries: ${reason}`,
          false,
        );
      }
      logger.warn({ attempt, retryInMs: delay, reason }, `the database of ${source} (${shown}) does not answer yet; retrying`);
      await sleep(delay);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
