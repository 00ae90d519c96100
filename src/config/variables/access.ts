import { httpUrl, integer, InvalidValue, optionalText, smtpUrl } from '../config-parsers.js';
import type { VariableSpec } from '../config-types.js';

/** Who may call the service and how their identities are kept: signing keys, the personal-data key, the development
 * bootstrap client and admin, people's sessions and sign-in limits, single sign-on. */
export const ACCESS_VARIABLES: VariableSpec[] = [
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
    name: 'SMTP_URL',
    key: 'smtpUrl',
    default: undefined,
    defaultLabel: 'unset (links are shown to the admin)',
    description:
      'Mail server the invitation and password-reset e-mails go through (`smtp://user:password@host:587`, STARTTLS when the server offers it, or `smtps://user:password@host:465`). Set, the one-time link goes only to the person’s mailbox and the API answers `emailSent` instead of the link; unset, the admin gets the link to pass on (docs/access.md). Needs `SMTP_FROM`.',
    sensitive: true,
    parse: smtpUrl,
  },
  {
    name: 'SMTP_FROM',
    key: 'smtpFrom',
    default: undefined,
    defaultLabel: 'unset',
    description: 'Sender of those e-mails (`Order Tax <no-reply@example.com>` or a bare address); required when `SMTP_URL` is set.',
    parse: (raw) => {
      const from = raw.trim();
      if (from === '') return undefined;
      if (!/^([^<>]*<[^@\s<>]+@[^@\s<>]+>|[^@\s<>]+@[^@\s<>]+)$/.test(from)) {
        throw new InvalidValue('must be an e-mail address, alone or as `Name <address>`');
      }
      return from;
    },
  },
  {
    name: 'SMTP_TIMEOUT_MS',
    key: 'smtpTimeoutMs',
    default: '10000',
    description:
      'Longest an e-mail may take, from connecting to the mail server to its acceptance; past it the e-mail counts as not sent (`SMTP_TIMEOUT`) and the request answers at once with the link.',
    parse: integer(500, 120_000),
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
];
