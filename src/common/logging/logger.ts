import type { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import { currentRequestId } from './request-context.js';
import { withoutSecretsInUrls } from './secrets-in-urls.js';

export type { Logger } from 'pino';

export function createRootLogger(level: string, destination: NodeJS.WritableStream = process.stdout): Logger {
  return pino(
    {
      level,
      base: { service: 'order-tax-service' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // Every line written while a request is handled carries its id.
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'req.headers.cookie',
          'headers.cookie',
          '*.client_secret',
          '*.password',
          'client_secret',
          'secret',
        ],
        censor: '[redacted]',
      },
      // Secrets travel in URLs too (a password link's token, a sign-in callback's code): every line, whatever its
      // level and wherever the URL sits in it (a field, the message, an error's stack), is written without them.
      hooks: { streamWrite: withoutSecretsInUrls },
    },
    destination,
  );
}

/** Nest's logger interface over pino, so framework and service logs share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write('info', message, context);
  }
  error(message: unknown, traceOrContext?: string, context?: string): void {
    const ctx = context ?? traceOrContext;
    if (message instanceof Error) this.logger.error({ context: ctx, err: message }, message.message);
    else this.logger.error({ context: ctx, trace: context ? traceOrContext : undefined }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string): void {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string): void {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string): void {
    this.write('fatal', message, context);
  }
  setLogLevels(_levels: NestLogLevel[]): void {
    // The level is pino's, set from LOG_LEVEL.
  }

  private write(level: 'info' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context?: string): void {
    if (typeof message === 'object' && message !== null) this.logger[level]({ context, ...message });
    else this.logger[level]({ context }, String(message));
  }
}
