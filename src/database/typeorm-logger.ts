import type { Logger as TypeOrmLogger } from 'typeorm';
import type { Logger } from '../common/logging/logger.js';

/**
 * TypeORM's messages as JSON log lines. A failed query is logged at debug level without
 * its parameters (order payloads are customer data): the caller decides whether the
 * failure is expected (a unique conflict answered 409) or logs it as an error itself.
 */
export class TypeOrmPinoLogger implements TypeOrmLogger {
  constructor(private readonly logger: Logger) {}

  logQuery(): void {
    // Queries are not logged one by one.
  }

  logQueryError(error: string | Error, query: string): void {
    this.logger.debug({ context: 'Database', query: query.slice(0, 500), err: error }, 'query failed');
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn({ context: 'Database', ms: time, query: query.slice(0, 500) }, 'slow query');
  }

  logSchemaBuild(message: string): void {
    this.logger.info({ context: 'Database' }, message);
  }

  logMigration(message: string): void {
    this.logger.info({ context: 'Database' }, message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn({ context: 'Database' }, String(message));
    else this.logger.debug({ context: 'Database' }, String(message));
  }
}
