import type { DataSourceOptions } from 'typeorm';
import { ALL_MIGRATIONS } from '../../migrations/index.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

export interface DatabaseSettings {
  url: string;
  poolSize: number;
  applicationName?: string;
}

/** One place builds the connection options, for the service, the CLI and the tests. */
export function dataSourceOptions(settings: DatabaseSettings, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    entities,
    migrations: ALL_MIGRATIONS,
    migrationsTableName: 'schema_migration',
    migrationsRun: false,
    synchronize: false,
    namingStrategy: new SnakeNamingStrategy(),
    logging: ['error'],
    extra: {
      max: settings.poolSize,
      // Fail fast when the database is down: a request waits at most this long for a connection, then gets 503.
      connectionTimeoutMillis: 3000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 30_000,
      application_name: settings.applicationName ?? 'order-tax-service',
    },
  };
}
