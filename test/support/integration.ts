import { randomUUID } from 'node:crypto';
import { CommonModule } from '../../src/common/common.module.js';
import type { DynamicModule, INestApplicationContext, Type } from '@nestjs/common';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type EntitySchema } from 'typeorm';
import { createRootLogger, type Logger } from '../../src/common/logging/logger.js';
import { loadConfig, type AppConfig } from '../../src/config/app-config.js';
import { ConfigModule } from '../../src/config/config.module.js';
import { DatabaseListener } from '../../src/database/database-listener.js';
import { DatabaseModule } from '../../src/database/database.module.js';
import { FiscalGroupsPortsModule } from '../../src/fiscal-groups/fiscal-groups-ports.module.js';
import { FiscalLookupModule } from '../../src/fiscal-lookup/fiscal-lookup.module.js';
import { OrdersPortsModule } from '../../src/orders/orders-ports.module.js';
import { ProductCategoriesPortsModule } from '../../src/product-categories/product-categories-ports.module.js';
import { createTestDatabase } from '../setup/test-database.js';
import { TEST_JWT_SECRET } from './test-app.js';
import { eventually } from './eventually.js';

/**
 * The fiscal lookup (global in the app) and the modules that bind the ports it and the fiscal groups inject (with the
 * modules implementing them): a context imports these whenever a provider under test injects FiscalLookupService.
 */
export const FISCAL_LOOKUP_MODULES = [FiscalLookupModule, FiscalGroupsPortsModule, ProductCategoriesPortsModule, OrdersPortsModule];

/** The channel `settleNotifications()` sends its marker on. */
const SETTLE_CHANNEL = 'integration_test_settle';

export interface IntegrationOptions {
  /** The module under test, and any global module its providers need (e.g. FiscalLookupModule). */
  imports: Array<Type<unknown> | DynamicModule>;
  /** Entities the factories write that the imported modules do not register themselves. */
  entities?: Array<Type<unknown> | EntitySchema>;
  /** Configuration variables on top of the test defaults. */
  env?: Record<string, string>;
  logger?: Logger;
}

export interface IntegrationContext {
  /** The Nest application context: `context.get(SomeService)`. */
  context: INestApplicationContext;
  dataSource: DataSource;
  config: AppConfig;
  get: INestApplicationContext['get'];
  /**
   * Resolves once the service's listener has received every notification committed so far (a
   * marker sent after them has arrived), so that no late NOTIFY drops a cache the test relies on.
   */
  settleNotifications(): Promise<void>;
  /** Closes the context (the database listener too) and drops the database. */
  close(): Promise<void>;
}

/**
 * The integration tier: a small Nest module holding the configuration, the real database module
 * (TypeORM on a fresh database cloned from the migrated template, its notification listener and
 * transaction runner) and only the modules under test. No HTTP server, nothing mocked.
 */
export async function bootIntegration(options: IntegrationOptions): Promise<IntegrationContext> {
  const database = await createTestDatabase('int');
  const logger = options.logger ?? createRootLogger(process.env.TEST_LOG_LEVEL ?? 'silent');
  const config = loadConfig({
    NODE_ENV: 'test',
    JWT_SECRET: TEST_JWT_SECRET,
    DATABASE_POOL_SIZE: '4',
    // The template is migrated once by the global setup.
    DB_MIGRATE: 'false',
    ...options.env,
    DATABASE_URL: database.url,
  });

  @Module({
    imports: [
      ConfigModule.forRoot(config, logger),
      CommonModule,
      DatabaseModule.forRoot(database.url, config, logger),
      ...(options.entities?.length ? [TypeOrmModule.forFeature(options.entities)] : []),
      ...options.imports,
    ],
  })
  class IntegrationTestModule {}

  let context: INestApplicationContext;
  try {
    context = await NestFactory.createApplicationContext(IntegrationTestModule, { logger: false, abortOnError: false });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const dataSource = context.get(DataSource);
  const arrived = new Set<string>();
  // Resolves once its LISTEN is active: a marker sent from then on arrives.
  await context
    .get(DatabaseListener)
    .subscribe(SETTLE_CHANNEL, { onNotification: (payload) => arrived.add(payload ?? ''), onReset: () => {} });
  return {
    context,
    dataSource,
    config,
    get: context.get.bind(context) as INestApplicationContext['get'],
    settleNotifications: async () => {
      // Sent again until it arrives: a notification is delivered asynchronously.
      const marker = randomUUID();
      await eventually(async () => {
        await dataSource.query('SELECT pg_notify($1, $2)', [SETTLE_CHANNEL, marker]);
        await new Promise((done) => setTimeout(done, 10));
        if (!arrived.delete(marker)) throw new Error('the database listener did not receive the marker notification');
      });
    },
    close: async () => {
      await context.close();
      await database.drop();
    },
  };
}

/**
 * Runs `work` with these triggers (`table.trigger`) off; the database is the test file's own.
 * With the NOTIFY triggers off, a cache is dropped only by the service's own writes.
 */
export async function withTriggersDisabled<T>(dataSource: DataSource, triggers: string[], work: () => Promise<T>): Promise<T> {
  const statements = triggers.map((name) => {
    const [table, trigger] = name.split('.');
    return (action: 'DISABLE' | 'ENABLE') => `ALTER TABLE ${table} ${action} TRIGGER ${trigger}`;
  });
  for (const statement of statements) await dataSource.query(statement('DISABLE'));
  try {
    return await work();
  } finally {
    for (const statement of statements) await dataSource.query(statement('ENABLE'));
  }
}

/** Without the `fiscal_config_changed` notifications: only the services' own `invalidate()` drops the fiscal lookups. */
export function withoutFiscalNotifications<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  return withTriggersDisabled(
    dataSource,
    ['fiscal_group', 'fiscal_group_store', 'fiscal_group_revision', 'product_fiscal_category'].map(
      (table) => `${table}.trg_${table}_changed`,
    ),
    work,
  );
}

export { eventually } from './eventually.js';
