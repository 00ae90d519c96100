import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module.js';
import { loadConfig, loadDotEnv, type AppConfig } from '../config/app-config.js';
import { createRootLogger, PinoNestLogger } from '../common/logging/logger.js';
import { checkDatabaseOnce } from '../database/database-preflight.js';
import { EmbeddedPostgres } from '../database/embedded-postgres.js';

export interface CliContext {
  app: INestApplicationContext;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * The service's modules without HTTP, on the configured database: DATABASE_URL, or the
 * embedded PostgreSQL (the running service's one when it is up, otherwise started for
 * the command and stopped after it). A DATABASE_URL that cannot be reached is a
 * `DatabaseUnreachableError`, tried once.
 */
export async function openCliContext(): Promise<CliContext> {
  loadDotEnv();
  // Commands sign no tokens and look no person up: a production JWT_SECRET or PERSONAL_DATA_KEY is not needed to manage clients or fiscal data.
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    ...process.env,
    JWT_SECRET: process.env.JWT_SECRET ?? unusedSigningKey(),
    PERSONAL_DATA_KEY: process.env.PERSONAL_DATA_KEY ?? unusedSigningKey(),
  });
  const logger = createRootLogger(config.logLevel, process.stderr);
  let embedded: EmbeddedPostgres | undefined;
  let databaseUrl = config.databaseUrl;
  if (databaseUrl) await checkDatabaseOnce(databaseUrl, 'DATABASE_URL');
  else {
    const server = new EmbeddedPostgres({ dataDir: config.embeddedDbDir, port: config.embeddedDbPort });
    databaseUrl = await server.attach();
    if (!databaseUrl) {
      databaseUrl = await server.start();
      embedded = server;
    }
  }
  let app: INestApplicationContext;
  try {
    // The start's failures reach main() as errors, which says them in one sentence: with its defaults Nest would log
    // them with their stack (and TypeORM its retry) and end the process first.
    app = await NestFactory.createApplicationContext(AppModule.forRoot({ config, databaseUrl, logger }), {
      logger: false,
      abortOnError: false,
    });
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  app.useLogger(new PinoNestLogger(logger));
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await embedded?.stop();
    },
  };
}

function unusedSigningKey(): string {
  return globalThis.crypto.getRandomValues(new Uint8Array(32)).reduce((text, byte) => text + byte.toString(16).padStart(2, '0'), '');
}
