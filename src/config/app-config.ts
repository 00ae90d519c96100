import { existsSync } from 'node:fs';
import proxyAddr from '@fastify/proxy-addr';
import { whsecProblem } from './webhook-secret.js';

/**
 * Every environment variable the service reads is declared once here, with its
 * default, a description (rendered into the README's configuration table) and a
 * `sensitive` flag (its value is never logged). `loadConfig` validates them all
 * at start and fails with one message naming every bad variable.
 */

export type NodeEnvironment = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface AppConfig {
  nodeEnv: NodeEnvironment;
  isProduction: boolean;
  port: number;
  host: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  embeddedDbDir: string;
  embeddedDbPort: number | undefined;
  dbMigrate: boolean;
  jwtSecret: string;
  jwtSecretGenerated: boolean;
  jwtTtlSeconds: number;
  jwtIssuer: string;
  jwtAudience: string;
  bootstrapClientId: string;
  bootstrapClientSecret: string;
  orderWebhookUrl: string | undefined;
  orderWebhookSecret: string | undefined;
  orderWebhookTimeoutMs: number;
  webhookRetryEnabled: boolean;
  webhookRetrySchedule: number[];
  webhookRetryConcurrency: number;
  webhookDeliveryRetentionDays: number;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  orderMaxLines: number;
  logLevel: LogLevel;
  authRateLimitPerMinute: number;
  trustedProxies: string[] | undefined;
  metricsEnabled: boolean;
  seedDemoData: boolean;
  shutdownTimeoutMs: number;
}

interface VariableSpec<K extends keyof AppConfig = keyof AppConfig> {
  name: string;
  key: K;
  default: string | undefined;
  /** Shown in the README instead of the literal default when the default is computed. */
  defaultLabel?: string;
  description: string;
  sensitive?: boolean;
  parse: (raw: string) => AppConfig[K];
}

class InvalidValue extends Error {}

const integer =
  (min: number, max: number) =>
  (raw: string): number => {
    if (!/^-?\d+$/.test(raw.trim())) throw new InvalidValue(`must be an integer between ${min} and ${max}`);
    const value = Number(raw);
    if (value < min || value > max) throw new InvalidValue(`must be an integer between ${min} and ${max}`);
    return value;
  };

const boolean = (raw: string): boolean => {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(value)) return true;
  if (['false', '0', 'no', 'off'].includes(value)) return false;
  throw new InvalidValue('must be true or false');
};

const optionalText = (raw: string): string | undefined => (raw.trim() === '' ? undefined : raw);

const httpUrl = (raw: string): string | undefined => {
  if (raw.trim() === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new InvalidValue('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidValue('must be an http(s) URL');
  return raw;
};

const postgresUrl = (raw: string): string | undefined => {
  if (raw.trim() === '') return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new Error();
  } catch {
    throw new InvalidValue('must be a postgres:// or postgresql:// URL');
  }
  return raw;
};

const oneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: string): T => {
    const value = raw.trim().toLowerCase() as T;
    if (!values.includes(value)) throw new InvalidValue(`must be one of ${values.join(', ')}`);
    return value;
  };

const durationList = (raw: string): number[] => {
  const parts = raw.split(',').map((part) => part.trim());
  const values = parts.map((part) => parseDuration(part));
  if (values.some((value) => value === undefined) || values.length === 0) {
    throw new InvalidValue('must be a comma-separated list of durations such as 5s,5m,30m,2h');
  }
  return values as number[];
};

/**
 * The reverse proxies whose X-Forwarded-For is believed: addresses, CIDR ranges or proxy-addr's
 * names (`loopback`, `linklocal`, `uniquelocal`). Never "every address" and never a hop count:
 * either lets a client that reaches the service directly pick the address it is counted under.
 */
const trustedProxies = (raw: string): string[] | undefined => {
  const value = raw.trim();
  if (value === '') return undefined;
  const entries = value.split(',').map((entry) => entry.trim());
  const spoofable = ['true', '*', 'all', '0.0.0.0/0', '::/0'];
  if (entries.some((entry) => spoofable.includes(entry.toLowerCase()) || /^\d+$/.test(entry))) {
    throw new InvalidValue(
      "must list the proxies' addresses or CIDR ranges (e.g. 172.28.0.10 or 10.0.0.0/8): trusting every address or a number of hops lets a client choose the address it is counted under",
    );
  }
  try {
    proxyAddr.compile(entries);
  } catch (error) {
    throw new InvalidValue(
      `must be a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal (${(error as Error).message})`,
    );
  }
  return entries;
};

/** `500ms`, `5s`, `5m`, `2h` or a bare number of milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+)(ms|s|m|h)?$/.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] ?? 'ms';
  const factor = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!;
  return amount * factor;
}

export const CONFIG_VARIABLES: VariableSpec[] = [
  {
    name: 'NODE_ENV',
    key: 'nodeEnv',
    default: 'development',
    description: '`production` makes `JWT_SECRET` and `DATABASE_URL` mandatory and disables the bootstrap client.',
    parse: oneOf(['development', 'production', 'test'] as const),
  },
  { name: 'PORT', key: 'port', default: '3000', description: 'HTTP listen port (0 picks a free one).', parse: integer(0, 65535) },
  {
    name: 'HOST',
    key: 'host',
    default: undefined,
    defaultLabel: '`127.0.0.1`; `0.0.0.0` in production',
    description:
      'HTTP listen address. Outside production only this machine can connect by default: a development start holds the well-known bootstrap client. Docker and compose set `0.0.0.0`.',
    parse: (raw) => raw.trim(),
  },
  {
    name: 'DATABASE_URL',
    key: 'databaseUrl',
    default: undefined,
    defaultLabel: 'unset',
    description: 'External PostgreSQL (14 or newer). Unset: the service starts its embedded PostgreSQL.',
    sensitive: true,
    parse: postgresUrl,
  },
  {
    name: 'DATABASE_POOL_SIZE',
    key: 'databasePoolSize',
    default: '20',
    description: 'Connections per service instance.',
    parse: integer(1, 500),
  },
  {
    name: 'EMBEDDED_DB_DIR',
    key: 'embeddedDbDir',
    default: './data/postgres',
    description: 'Data directory of the embedded PostgreSQL; kept across restarts.',
    parse: (raw) => raw.trim(),
  },
  {
    name: 'EMBEDDED_DB_PORT',
    key: 'embeddedDbPort',
    default: undefined,
    defaultLabel: 'a free port',
    description: 'Port of the embedded PostgreSQL.',
    parse: (raw) => (raw.trim() === '' ? undefined : integer(1, 65535)(raw)),
  },
  { name: 'DB_MIGRATE', key: 'dbMigrate', default: 'true', description: 'Run pending migrations at start.', parse: boolean },
  {
    name: 'JWT_SECRET',
    key: 'jwtSecret',
    default: undefined,
    defaultLabel: 'random per start (not in production)',
    description: 'HMAC key that signs access tokens (at least 32 characters). Mandatory in production.',
    sensitive: true,
    parse: (raw) => {
      if (raw.length < 32) throw new InvalidValue('must be at least 32 characters long');
      return raw;
    },
  },
  { name: 'JWT_TTL_SECONDS', key: 'jwtTtlSeconds', default: '3600', description: 'Access token lifetime.', parse: integer(60, 86_400) },
  { name: 'JWT_ISSUER', key: 'jwtIssuer', default: 'order-tax-service', description: 'Token `iss` claim.', parse: (raw) => raw.trim() },
  { name: 'JWT_AUDIENCE', key: 'jwtAudience', default: 'order-tax-api', description: 'Token `aud` claim.', parse: (raw) => raw.trim() },
  {
    name: 'BOOTSTRAP_CLIENT_ID',
    key: 'bootstrapClientId',
    default: '1001',
    description: 'Development client created with all scopes when no client exists (never in production).',
    parse: (raw) => {
      if (!/^\d{1,18}$/.test(raw.trim())) throw new InvalidValue('must be a numeric client id');
      return raw.trim();
    },
  },
  {
    name: 'BOOTSTRAP_CLIENT_SECRET',
    key: 'bootstrapClientSecret',
    default: 'dev-secret-change-me',
    description: 'Secret of the development client.',
    sensitive: true,
    parse: (raw) => {
      if (raw.length < 8) throw new InvalidValue('must be at least 8 characters long');
      return raw;
    },
  },
  {
    name: 'ORDER_WEBHOOK_URL',
    key: 'orderWebhookUrl',
    default: undefined,
    defaultLabel: 'unset',
    description: 'Where `/enrich-order-forward` posts the enriched order. Unset: forwarding answers 503.',
    parse: httpUrl,
  },
  {
    name: 'ORDER_WEBHOOK_SECRET',
    key: 'orderWebhookSecret',
    default: undefined,
    defaultLabel: 'unset',
    description: 'Standard Webhooks signing secret (`whsec_<base64>` or any text). Unset: no signature header.',
    sensitive: true,
    parse: (raw) => {
      const problem = whsecProblem(raw.trim());
      if (problem) throw new InvalidValue(problem);
      return optionalText(raw);
    },
  },
  {
    name: 'ORDER_WEBHOOK_TIMEOUT_MS',
    key: 'orderWebhookTimeoutMs',
    default: '10000',
    description: 'Hard timeout of one webhook delivery attempt.',
    parse: integer(100, 120_000),
  },
  {
    name: 'WEBHOOK_RETRY_ENABLED',
    key: 'webhookRetryEnabled',
    default: 'true',
    description: 'Retry failed forwards in the background.',
    parse: boolean,
  },
  {
    name: 'WEBHOOK_RETRY_SCHEDULE',
    key: 'webhookRetrySchedule',
    default: '5s,5m,30m,2h,5h,10h',
    description: 'Delays before each automatic retry of a failed forward.',
    parse: durationList,
  },
  {
    name: 'WEBHOOK_RETRY_CONCURRENCY',
    key: 'webhookRetryConcurrency',
    default: '32',
    description:
      'Retries of failed forwards one instance sends at the same time; a backlog is claimed again as soon as half of them are done.',
    parse: integer(1, 256),
  },
  {
    name: 'WEBHOOK_DELIVERY_RETENTION_DAYS',
    key: 'webhookDeliveryRetentionDays',
    default: '90',
    description:
      'Webhook delivery log rows older than this are deleted (hourly, in batches, by one instance at a time); 0 keeps them forever.',
    parse: integer(0, 36_500),
  },
  {
    name: 'BODY_LIMIT_BYTES',
    key: 'bodyLimitBytes',
    default: '1048576',
    description: 'Largest accepted request body; larger ones get 413.',
    parse: integer(1024, 64 * 1024 * 1024),
  },
  {
    name: 'ORDER_MAX_LINES',
    key: 'orderMaxLines',
    default: '2000',
    description:
      'Most lines plus selected modifiers an order may have; a larger one is refused with 422 ORDER_TOO_LARGE before anything is computed or stored.',
    parse: integer(1, 100_000),
  },
  {
    name: 'REQUEST_TIMEOUT_MS',
    key: 'requestTimeoutMs',
    default: '30000',
    description: 'A request whose headers and body have not all arrived within this time is dropped with 408.',
    parse: integer(100, 600_000),
  },
  {
    name: 'LOG_LEVEL',
    key: 'logLevel',
    default: 'info',
    description: 'pino log level.',
    parse: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const),
  },
  {
    name: 'AUTH_RATE_LIMIT_PER_MINUTE',
    key: 'authRateLimitPerMinute',
    default: '60',
    description: 'Requests a minute per IP and route on the credential routes (login, token, channel configuration).',
    parse: integer(1, 1_000_000),
  },
  {
    name: 'TRUSTED_PROXIES',
    key: 'trustedProxies',
    default: '',
    defaultLabel: 'unset',
    description:
      "Addresses or CIDR ranges of the reverse proxies in front of the service (comma-separated). A request from one of them is counted under the client address its `X-Forwarded-For` names, for the credential rate limit; unset, every request counts under the address it comes from, so behind a proxy all clients share one limit. compose sets the proxy's address.",
    parse: trustedProxies,
  },
  { name: 'METRICS_ENABLED', key: 'metricsEnabled', default: 'true', description: 'Serve `/api/metrics`.', parse: boolean },
  {
    name: 'SEED_DEMO_DATA',
    key: 'seedDemoData',
    default: 'false',
    description: 'Load the demo fiscal group and product categories at start (idempotent).',
    parse: boolean,
  },
  {
    name: 'SHUTDOWN_TIMEOUT_MS',
    key: 'shutdownTimeoutMs',
    default: '15000',
    description: 'How long a stopping instance waits for in-flight requests.',
    parse: integer(0, 300_000),
  },
];

export class ConfigValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigValidationError';
  }
}

/** Reads `.env` from the working directory when present; real environment variables win. */
export function loadDotEnv(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const values: Partial<Record<keyof AppConfig, unknown>> = {};
  for (const variable of CONFIG_VARIABLES) {
    const raw = env[variable.name] ?? variable.default;
    if (raw === undefined) {
      values[variable.key] = undefined;
      continue;
    }
    try {
      values[variable.key] = variable.parse(raw);
    } catch (error) {
      const reason = error instanceof InvalidValue ? error.message : 'is invalid';
      const shown = variable.sensitive ? '' : ` (got "${raw}")`;
      problems.push(`${variable.name} ${reason}${shown}`);
    }
  }

  const isProduction = values.nodeEnv === 'production';
  // A set but invalid JWT_SECRET has its own message above; "required" only when it is not set at all.
  if (isProduction && env.JWT_SECRET === undefined) problems.push('JWT_SECRET is required when NODE_ENV=production');
  if (isProduction && typeof values.jwtSecret === 'string') {
    const weakness = weakSecretProblem(values.jwtSecret);
    if (weakness) problems.push(`JWT_SECRET ${weakness}; make one with \`openssl rand -hex 32\``);
  }
  if (isProduction && values.databaseUrl === undefined) problems.push('DATABASE_URL is required when NODE_ENV=production');
  if (problems.length > 0) throw new ConfigValidationError(problems);

  const jwtSecretGenerated = values.jwtSecret === undefined;
  return {
    ...(values as AppConfig),
    host: (values.host as string | undefined) ?? (isProduction ? '0.0.0.0' : '127.0.0.1'),
    isProduction,
    jwtSecretGenerated,
    jwtSecret: (values.jwtSecret as string | undefined) ?? randomSecret(),
  };
}

/** Placeholders of this project's files and of common templates: anyone can sign admin tokens with them. */
const KNOWN_PLACEHOLDER = /change[-_ ]?me|replace[-_ ]?me|placeholder|your[-_ ]?secret|example|dev-secret|test-secret|^secret/i;

/**
 * Why a production JWT_SECRET is guessable, or undefined: a known placeholder, one short piece
 * repeated (`abcdabcdabcd...`), or too few different characters to be random.
 */
export function weakSecretProblem(secret: string): string | undefined {
  if (KNOWN_PLACEHOLDER.test(secret)) return 'is a known placeholder (anyone could sign admin tokens with it)';
  const compact = secret.replace(/[-_ .:]/g, '');
  if (/^(.{1,16}?)\1+$/.test(compact)) return 'is one short piece repeated, which is easy to guess';
  if (new Set(secret).size < 10) return 'uses fewer than 10 different characters, which is easy to guess';
  return undefined;
}

function randomSecret(): string {
  return globalThis.crypto.getRandomValues(new Uint8Array(48)).reduce((text, byte) => text + byte.toString(16).padStart(2, '0'), '');
}

export const APP_CONFIG = Symbol('APP_CONFIG');
