import { existsSync } from 'node:fs';
import { InvalidValue } from './config-parsers.js';
import { type AppConfig, CONFIG_VARIABLES } from './config-variables.js';

export type { AppConfig, LogLevel, NodeEnvironment } from './config-variables.js';

/**
 * Loading the configuration: the variables (config-variables.ts) read from the environment,
 * parsed (config-parsers.ts) and checked together, with one error naming every bad variable.
 */

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
  if (isProduction && env.PERSONAL_DATA_KEY === undefined) {
    problems.push(
      'PERSONAL_DATA_KEY is required when NODE_ENV=production (the key of the personal-data lookup; make one with `openssl rand -hex 32`)',
    );
  }
  if (isProduction && typeof values.personalDataKey === 'string') {
    const weakness = weakSecretProblem(values.personalDataKey);
    if (weakness) problems.push(`PERSONAL_DATA_KEY ${weakness}; make one with \`openssl rand -hex 32\``);
  }
  if (isProduction && values.databaseUrl === undefined) problems.push('DATABASE_URL is required when NODE_ENV=production');
  // An invalid SMTP_FROM has its own message above.
  const smtpFromRefused = problems.some((problem) => problem.startsWith('SMTP_FROM '));
  if (values.smtpUrl !== undefined && values.smtpFrom === undefined && !smtpFromRefused) {
    problems.push('SMTP_FROM is required when SMTP_URL is set: the sender address of the invitation and password-reset e-mails');
  }
  problems.push(...singleSignOnProblems(values, isProduction));
  // pino-pretty is a development tool: production never loads it, and its collectors read JSON.
  if (isProduction && values.logFormat === 'pretty') problems.push('LOG_FORMAT=pretty is not accepted when NODE_ENV=production; use json');
  if (problems.length > 0) throw new ConfigValidationError(problems);

  const jwtSecretGenerated = values.jwtSecret === undefined;
  return {
    ...(values as AppConfig),
    host: (values.host as string | undefined) ?? (isProduction ? '0.0.0.0' : '127.0.0.1'),
    isProduction,
    jwtSecretGenerated,
    jwtSecret: (values.jwtSecret as string | undefined) ?? randomSecret(),
    personalDataKeyGenerated: values.personalDataKey === undefined,
    personalDataKey: (values.personalDataKey as string | undefined) ?? randomSecret(),
  };
}

const SINGLE_SIGN_ON_VARIABLES = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;

/** Single sign-on needs its issuer, client id and secret together; a half-configured provider would only fail at sign-in. */
function singleSignOnProblems(values: Partial<Record<keyof AppConfig, unknown>>, isProduction: boolean): string[] {
  const given = [values.oidcIssuer, values.oidcClientId, values.oidcClientSecret].map((value) => value !== undefined);
  if (given.every((set) => !set)) return [];
  const problems: string[] = [];
  if (given.some((set) => !set)) {
    const missing = SINGLE_SIGN_ON_VARIABLES.filter((_name, index) => !given[index]);
    problems.push(
      `${missing.join(', ')} must be set too: single sign-on needs ${SINGLE_SIGN_ON_VARIABLES.join(', ')} together, or none of them`,
    );
  }
  // The provider's answers (keys, tokens) are trusted because TLS says who sent them.
  if (isProduction && typeof values.oidcIssuer === 'string' && new URL(values.oidcIssuer).protocol !== 'https:') {
    problems.push('OIDC_ISSUER must be an https URL when NODE_ENV=production');
  }
  return problems;
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
