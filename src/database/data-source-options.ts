import pg from 'pg';
import type { DataSourceOptions } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations/index.js';
import type { Logger } from '../common/logging/logger.js';
import { TypeOrmPinoLogger } from './typeorm-logger.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

export interface DatabaseSettings {
  url: string;
  poolSize: number;
  applicationName?: string;
  /** Where TypeORM's messages go; without one, only errors, through TypeORM's console logger. */
  logger?: Logger;
}

/**
 * pg's client with an 'error' listener from birth. A pooled client has none of its own between
 * its checkout and the moment TypeORM attaches one (a microtask later); when PostgreSQL shuts
 * down, its "ready" and its FATAL can arrive in one packet, inside that gap, and an 'error' event
 * with no listener ends the process. The error still reaches the client's queries (they reject)
 * and TypeORM's listener, which drops the client from the pool.
 */
export class GuardedClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** One place builds the connection options, for the service, the CLI and the tests. */
export function dataSourceOptions(settings: DatabaseSettings, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  return {
    type: 'postgres',
    entities,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'schema_migration',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    ...(settings.logger
      ? {
          logger: new TypeOrmPinoLogger(settings.logger),
          logging: ['error', 'warn', 'migration', 'schema'] as const,
          maxQueryExecutionTime: 1000,
        }
      : { logging: ['error'] }),
    extra: {
      // pg parses the URL itself (TypeORM's parser drops query parameters such as sslmode or a socket host).
      connectionString: settings.url,
      max: settings.poolSize,
      Client: GuardedClient,
      // Fail fast when the database is down: a request waits at most this long for a connection, then gets 503.
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 30_000,
      application_name: settings.applicationName ?? 'order-tax-service',
    },
  };
}
