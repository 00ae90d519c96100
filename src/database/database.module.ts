import { type DynamicModule, Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config.js';
import type { Logger } from '../common/logging/logger.js';
import { dataSourceOptions } from './data-source-options.js';
import { runPendingMigrations } from './migrate.js';
import { SchemaMigrationsRepository } from './schema-migrations.repository.js';
import { SqlRunner } from './sql-runner.js';
import { TransactionRunner } from './transaction-runner.js';
import { DATABASE_URL, DatabaseListener } from './database-listener.js';
import { JobMetrics } from './jobs/job-metrics.js';
import { JobRunner } from './jobs/job-runner.js';

@Global()
@Module({})
export class DatabaseModule {
  static forRoot(databaseUrl: string, config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions({ url: databaseUrl, poolSize: config.databasePoolSize, logger }),
            autoLoadEntities: true,
            // The start checks the database first (database-preflight.ts): no retried stack traces here.
            retryAttempts: 0,
          }),
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            if (config.dbMigrate) {
              await runPendingMigrations(dataSource, (message) => logger.info({ context: 'Database' }, message));
            }
            return dataSource;
          },
        }),
      ],
      providers: [
        TransactionRunner,
        SqlRunner,
        SchemaMigrationsRepository,
        DatabaseListener,
        JobRunner,
        JobMetrics,
        { provide: DATABASE_URL, useValue: databaseUrl },
      ],
      exports: [TransactionRunner, SqlRunner, SchemaMigrationsRepository, DatabaseListener, JobRunner, JobMetrics, DATABASE_URL],
    };
  }
}
