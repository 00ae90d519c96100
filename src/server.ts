import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from './app.factory.js';
import type { AppConfig } from './config/app-config.js';
import { closeGracefully, IDLE_CONNECTION_GRACE_MS } from './common/http/graceful-close.js';
import type { Logger } from './common/logging/logger.js';
import { checkDatabaseReachable } from './database/database-preflight.js';
import { EmbeddedPostgres } from './database/embedded-postgres.js';
import { EmbeddedPostgresSupervisor } from './database/embedded-postgres-supervisor.js';

export interface RunningService {
  app: NestFastifyApplication;
  url: string;
  /** Drains in-flight requests, closes the app and its pool, then stops the embedded database. */
  stop(): Promise<void>;
}

/** Starts the database (embedded unless DATABASE_URL is set), the application and the HTTP listener. */
export async function startService(config: AppConfig, logger: Logger): Promise<RunningService> {
  const startedAt = Date.now();
  let embedded: EmbeddedPostgres | undefined;
  let supervisor: EmbeddedPostgresSupervisor | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = new EmbeddedPostgres({
      dataDir: config.embeddedDbDir,
      port: config.embeddedDbPort,
      log: (line) => logger.debug({ component: 'postgres' }, line),
      onUnexpectedExit: (code, signal) => supervisor?.onUnexpectedExit(code, signal),
    });
    supervisor = new EmbeddedPostgresSupervisor(embedded, logger);
    logger.info({ dataDir: config.embeddedDbDir }, 'starting the embedded PostgreSQL (DATABASE_URL is not set)');
    databaseUrl = await embedded.start();
    logger.info({ pid: embedded.pid, ms: Date.now() - startedAt }, 'embedded PostgreSQL is ready');
  }

  if (config.databaseUrl) await checkDatabaseReachable(config.databaseUrl, 'DATABASE_URL', logger);

  let app: NestFastifyApplication | undefined;
  try {
    app = await createApp({ config, databaseUrl, logger });
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Close the pool before the embedded database stops: no "terminated connection" noise around the real cause.
    await app?.close().catch(() => undefined);
    supervisor?.stop();
    await embedded?.stop();
    throw error;
  }
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('0.0.0.0', '127.0.0.1');
  logger.info({ url: `${url}/api`, docs: `${url}/api/docs`, ms: Date.now() - startedAt }, 'service is listening');
  if (config.jwtSecretGenerated) {
    logger.warn('JWT_SECRET is not set: tokens are signed with a random key made at this start and stop working on restart');
  }
  if (config.personalDataKeyGenerated) {
    logger.warn(
      'PERSONAL_DATA_KEY is not set: personal-data lookup keys are made with a random key made at this start; orders stored before a restart are found again only after the backfill (docs/personal-data.md)',
    );
  }

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      const timer = setTimeout(() => logger.warn('shutdown timeout reached; closing with requests in flight'), config.shutdownTimeoutMs);
      try {
        // Drains without resetting a request already sent, then Fastify waits for in-flight requests and Nest closes the pool.
        await closeGracefully(app, Math.min(IDLE_CONNECTION_GRACE_MS, config.shutdownTimeoutMs));
      } finally {
        clearTimeout(timer);
        supervisor?.stop();
        await embedded?.stop();
      }
      logger.info('service stopped');
    })());
  return { app, url, stop };
}
