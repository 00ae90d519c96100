import { createRequire } from 'node:module';
import type { LoggerService, LogLevel as NestLogLevel } from '@nestjs/common';
import { pino, type DestinationStream, type Logger } from 'pino';
import { currentRequestId } from './request-context.js';
import { withoutSecretsInUrls } from './secrets-in-urls.js';

export type { Logger } from 'pino';

/** `json` for log collectors, `pretty` for a person at a terminal (LOG_FORMAT). */
export type LogFormat = 'json' | 'pretty';

/**
 * `json` unless asked otherwise, and never in production: readable lines (`pretty`) when LOG_FORMAT
 * says so, or, unset, when a person is watching (stdout is a terminal).
 */
export function logFormatFor(config: { logFormat: LogFormat | undefined; isProduction: boolean }, stdoutIsTerminal: boolean): LogFormat {
  if (config.isProduction) return 'json';
  return config.logFormat ?? (stdoutIsTerminal ? 'pretty' : 'json');
}

/** pino-pretty over `destination`, loaded only when asked for: production never loads it. */
function prettyStream(destination: NodeJS.WritableStream): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty.build({
    destination,
    colorize: (destination as Partial<NodeJS.WriteStream>).isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,service,context',
    messageFormat: '{if context}{context}: {end}{msg}',
    singleLine: true,
    sync: true,
  });
}

export function createRootLogger(level: string, destination: NodeJS.WritableStream = process.stdout, format: LogFormat = 'json'): Logger {
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
    format === 'pretty' ? prettyStream(destination) : destination,
  );
}

/** Nest's module-by-module start-up lines (a module loaded, a controller's routes mapped): dozens a start, each of no use to an operator. */
const NEST_START_UP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer']);

/** Nest's logger interface over pino, so framework and service logs share one format. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.write(context && NEST_START_UP_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
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
