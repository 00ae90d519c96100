import {
  boolean,
  durationList,
  httpUrl,
  integer,
  InvalidValue,
  oneOf,
  optionalText,
  postgresUrl,
  trustedProxies,
} from './config-parsers.js';
import type { LogFormat } from '../common/logging/logger.js';
import { whsecProblem } from './webhook-secret.js';

/**
 * Every environment variable the service reads is declared once here, with its
 * default, a description (rendered into the README's configuration table) and a
 * `sensitive` flag (its value is never logged). `loadConfig` (app-config.ts) validates
 * them all at start and fails with one message naming every bad variable.
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
  /** HMAC key of the personal-data lookup keys stored beside each order. */
  personalDataKey: string;
  personalDataKeyGenerated: boolean;
  /** Days an order keeps its customer's data; 0 keeps it. */
  personalDataRetentionDays: number;
  jwtTtlSeconds: number;
  jwtIssuer: string;
  jwtAudience: string;
  bootstrapClientId: string;
  bootstrapClientSecret: string;
  bootstrapAdminEmail: string;
  bootstrapAdminPassword: string;
  /** Where people reach the service (links in invitations); undefined: http://HOST:PORT. */
  publicBaseUrl: string | undefined;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  signInFailuresPerAccount: number;
  signInFailuresPerAddress: number;
  /** Single sign-on through an OpenID provider: all three set, or none (checked by loadConfig). */
  oidcIssuer: string | undefined;
  oidcClientId: string | undefined;
  oidcClientSecret: string | undefined;
  oidcName: string;
  orderWebhookUrl: string | undefined;
  orderWebhookSecret: string | undefined;
  orderWebhookTimeoutMs: number;
  webhookRetryEnabled: boolean;
  webhookRetrySchedule: number[];
  webhookRetryConcurrency: number;
  webhookDeliveryRetentionDays: number;
  auditRetentionDays: number;
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  unauthenticatedBodiesMax: number;
  orderMaxLines: number;
  impactPreviewDeadlineMs: number;
  logLevel: LogLevel;
  /** Unset: chosen at start from the terminal (see `logFormatFor`). */
  logFormat: LogFormat | undefined;
  authRateLimitPerMinute: number;
  authCacheSeconds: number;
  trustedProxies: string[] | undefined;
  metricsEnabled: boolean;
  seedDemoData: boolean;
  shutdownTimeoutMs: number;
}

export interface VariableSpec<K extends keyof AppConfig = keyof AppConfig> {
  name: string;
  key: K;
  default: string | undefined;
  /** Shown in the README instead of the literal default when the default is computed. */
  defaultLabel?: string;
  description: string;
  sensitive?: boolean;
  parse: (raw: string) => AppConfig[K];
}

export const CONFIG_VARIABLES: VariableSpec[] = [
  {
    name: 'NODE_ENV',
    key: 'nodeEnv',
    default: 'development',
    description: '`production` makes `JWT_SECRET`, `PERSONAL_DATA_KEY` and `DATABASE_URL` mandatory and disables the bootstrap client.',
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
  {
    name: 'PERSONAL_DATA_KEY',
    key: 'personalDataKey',
    default: undefined,
    defaultLabel: 'random per start (not in production)',
    description:
      "HMAC key of the keyed hashes of customers' e-mails, phones and CPF/CNPJ stored beside each order for the personal-data lookup (at least 32 characters; docs/personal-data.md). Mandatory in production; every instance needs the same one, and changing it leaves stored orders unfindable until the backfill has run again.",
    sensitive: true,
    parse: (raw) => {
      if (raw.length < 32) throw new InvalidValue('must be at least 32 characters long');
      return raw;
    },
  },
  {
    name: 'PERSONAL_DATA_RETENTION_DAYS',
    key: 'personalDataRetentionDays',
    default: '180',
    description: "Days after which a background job erases the customer's data of an order, keeping its fiscal record; `0` keeps it.",
    parse: integer(0, 36_500),
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
    name: 'BOOTSTRAP_ADMIN_EMAIL',
    key: 'bootstrapAdminEmail',
    default: 'admin@example.com',
    description: 'Development admin person created when no person exists (never in production); signs in to `/console/`.',
    parse: (raw) => {
      if (!/^[^@\s]+@[^@\s]+$/.test(raw.trim())) throw new InvalidValue('must be an email address');
      return raw.trim();
    },
  },
  {
    name: 'BOOTSTRAP_ADMIN_PASSWORD',
    key: 'bootstrapAdminPassword',
    default: 'dev-admin-password',
    description:
      'Password of the development admin person. It must pass the password rules (12 characters or more, hard to guess: not a common password, nor the admin’s email or name): a start with a refused one fails.',
    sensitive: true,
    parse: (raw) => {
      if ([...raw].length < 12) throw new InvalidValue('must be at least 12 characters long');
      return raw;
    },
  },
  {
    name: 'PUBLIC_BASE_URL',
    key: 'publicBaseUrl',
    default: undefined,
    defaultLabel: '`http://HOST:PORT`',
    description:
      'The address people open the service at, for the one-time password links (`<PUBLIC_BASE_URL>/console/set-password#<token>`).',
    parse: (raw) => httpUrl(raw)?.replace(/\/+$/, ''),
  },
  {
    name: 'SESSION_IDLE_MINUTES',
    key: 'sessionIdleMinutes',
    default: '30',
    description: "A person's console session ends after this long without a request.",
    parse: integer(1, 1440),
  },
  {
    name: 'SESSION_MAX_HOURS',
    key: 'sessionMaxHours',
    default: '12',
    description: "A person's console session ends this long after sign-in, however busy.",
    parse: integer(1, 168),
  },
  {
    name: 'SIGN_IN_FAILURES_PER_ACCOUNT',
    key: 'signInFailuresPerAccount',
    default: '5',
    description:
      'Failed sign-ins (and wrong current passwords on a password change) for one email from one client address within 15 minutes before further attempts for it from that address get 429. Failures from other addresses never refuse it: nobody can lock a person out.',
    parse: integer(1, 10_000),
  },
  {
    name: 'SIGN_IN_FAILURES_PER_ADDRESS',
    key: 'signInFailuresPerAddress',
    default: '20',
    description:
      'Failed sign-ins (and wrong current passwords on a password change) from one client address within 15 minutes, whatever the email, before further attempts from it get 429.',
    parse: integer(1, 100_000),
  },
  {
    name: 'OIDC_ISSUER',
    key: 'oidcIssuer',
    default: undefined,
    defaultLabel: 'unset',
    description:
      'Issuer of the OpenID Connect provider people may sign in with (its discovery document is read from `<OIDC_ISSUER>/.well-known/openid-configuration`); https in production. Set it with `OIDC_CLIENT_ID` and `OIDC_CLIENT_SECRET`, or none of them. The provider must accept the redirect URI `<PUBLIC_BASE_URL>/api/auth/oidc/callback`.',
    parse: (raw) => httpUrl(raw.trim()),
  },
  {
    name: 'OIDC_CLIENT_ID',
    key: 'oidcClientId',
    default: undefined,
    defaultLabel: 'unset',
    description: "The service's client id at the OpenID Connect provider.",
    parse: (raw) => optionalText(raw.trim()),
  },
  {
    name: 'OIDC_CLIENT_SECRET',
    key: 'oidcClientSecret',
    default: undefined,
    defaultLabel: 'unset',
    description: "The service's client secret at the OpenID Connect provider (sent with HTTP Basic to its token endpoint).",
    sensitive: true,
    parse: optionalText,
  },
  {
    name: 'OIDC_NAME',
    key: 'oidcName',
    default: 'Single sign-on',
    description: "The provider's name on the console's sign-in button (`Sign in with <OIDC_NAME>`).",
    parse: (raw) => {
      const name = raw.trim();
      if (name.length < 1 || name.length > 60) throw new InvalidValue('must be 1 to 60 characters long');
      return name;
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
    name: 'AUDIT_RETENTION_DAYS',
    key: 'auditRetentionDays',
    default: '400',
    description: 'Audit events older than this are deleted (hourly, in batches, by one instance at a time).',
    parse: integer(1, 36_500),
  },
  {
    name: 'BODY_LIMIT_BYTES',
    key: 'bodyLimitBytes',
    default: '1048576',
    description: 'Largest accepted request body; larger ones get 413.',
    parse: integer(1024, 64 * 1024 * 1024),
  },
  {
    name: 'UNAUTHENTICATED_BODIES_MAX',
    key: 'unauthenticatedBodiesMax',
    default: '32',
    description:
      'Most request bodies one instance reads at once before any credential is checked (login, token, channel configuration, unknown routes); more get 503 with Retry-After.',
    parse: integer(1, 10_000),
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
    name: 'IMPACT_PREVIEW_DEADLINE_MS',
    key: 'impactPreviewDeadlineMs',
    default: '15000',
    description:
      'How long an impact preview (`POST /api/admin/fiscal-groups/{id}/impact`) may run: past it the preview stops, its database statement included, and answers 503 `DEADLINE_EXCEEDED`.',
    parse: integer(1, 600_000),
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
    name: 'LOG_FORMAT',
    key: 'logFormat',
    default: undefined,
    defaultLabel: '`pretty` on a terminal, else `json`',
    description:
      '`json`: one JSON line per event (pino), for log collectors. `pretty`: readable lines (pino-pretty), for a person at a terminal. Unset: `pretty` when stdout is a terminal outside production, `json` otherwise. Production always writes `json` (`pretty` is refused there).',
    parse: oneOf(['json', 'pretty'] as const),
  },
  {
    name: 'AUTH_RATE_LIMIT_PER_MINUTE',
    key: 'authRateLimitPerMinute',
    default: '60',
    description: 'Requests a minute per IP and route on the credential routes (login, token, channel configuration).',
    parse: integer(1, 1_000_000),
  },
  {
    name: 'AUTH_CACHE_SECONDS',
    key: 'authCacheSeconds',
    default: '5',
    description:
      "How long an instance trusts what it read of a token's client (active flag, scopes, stores): a change to a client reaches every instance's requests within it, even for tokens issued before. 0 reads the client on every request.",
    parse: integer(0, 3600),
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
