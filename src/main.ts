import { ConfigValidationError, loadConfig, loadDotEnv } from './config/app-config.js';
import { createRootLogger, logFormatFor } from './common/logging/logger.js';
import { DatabaseUnreachableError, EXIT_DATABASE_UNREACHABLE } from './database/database-preflight.js';
import { EmbeddedPostgresUnavailableError } from './database/embedded-postgres.js';
import { startService } from './server.js';

/** A start whose HTTP port is taken. */
const EXIT_ADDRESS_IN_USE = 75;

async function main(): Promise<void> {
  loadDotEnv();
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigValidationError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const logger = createRootLogger(config.logLevel, process.stdout, logFormatFor(config, process.stdout.isTTY === true));
  const service = await startService(config, logger).catch((error: unknown) => {
    if (error instanceof EmbeddedPostgresUnavailableError) {
      logger.fatal(error.message);
      process.exit(78);
    }
    if (error instanceof DatabaseUnreachableError) {
      logger.fatal(error.message);
      process.exit(EXIT_DATABASE_UNREACHABLE);
    }
    if ((error as { code?: unknown }).code === 'EADDRINUSE') {
      logger.fatal(`port ${config.port} on ${config.host} is already in use (PORT, HOST)`);
      process.exit(EXIT_ADDRESS_IN_USE);
    }
    logger.fatal({ err: error }, 'the service could not start');
    process.exit(1);
  });

  let signals = 0;
  const shutdown = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    logger.info({ signal }, 'stopping');
    const hardStop = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 10_000);
    hardStop.unref();
    service.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'error while stopping');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
}

void main();
