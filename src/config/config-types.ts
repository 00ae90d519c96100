import type { LogFormat } from '../common/logging/logger.js';

export type NodeEnvironment = 'development' | 'production' | 'test';
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** The configuration the service runs with, as `loadConfig` (app-config.ts) builds it from the variables. */
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
  /** The mail server of the invitation and reset e-mails (a secret: it may hold a password); undefined: no e-mail, the admin gets the link. */
  smtpUrl: string | undefined;
  /** The sender of those e-mails; set whenever smtpUrl is (checked by loadConfig). */
  smtpFrom: string | undefined;
  smtpTimeoutMs: number;
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
  /** The NCM table file `npm run ncm:refresh` writes (docs/ncm-table.md); a missing file leaves NCMs without descriptions. */
  ncmTableFile: string;
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
