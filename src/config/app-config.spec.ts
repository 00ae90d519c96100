import { ConfigValidationError, loadConfig } from './app-config.js';
import { parseDuration } from './config-parsers.js';
import { CONFIG_VARIABLES } from './config-variables.js';

const PERSONAL_DATA_KEY = '5e0d8c1f7a92b34e6d18c0f5a7b29e3d4c6f81a0';

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      nodeEnv: 'development',
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      embeddedDbDir: './data/postgres',
      dbMigrate: true,
      jwtTtlSeconds: 3600,
      bootstrapClientId: '1001',
      bootstrapClientSecret: 'dev-secret-change-me',
      orderWebhookTimeoutMs: 10_000,
      bodyLimitBytes: 1_048_576,
      logLevel: 'info',
      authRateLimitPerMinute: 60,
      authCacheSeconds: 5,
      webhookRetryEnabled: true,
      seedDemoData: false,
    });
    expect(config.jwtSecretGenerated).toBe(true);
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('generates a different signing key on each start when none is configured', () => {
    expect(loadConfig({}).jwtSecret).not.toBe(loadConfig({}).jwtSecret);
  });

  it('names every bad variable in one error', () => {
    try {
      loadConfig({ PORT: 'abc', DB_MIGRATE: 'maybe', ORDER_WEBHOOK_URL: 'ftp://x', LOG_LEVEL: 'loud' });
      throw new Error('expected a ConfigValidationError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigValidationError);
      const problems = (error as ConfigValidationError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/DB_MIGRATE/);
      expect(problems).toMatch(/ORDER_WEBHOOK_URL/);
      expect(problems).toMatch(/LOG_LEVEL/);
    }
  });

  it('never shows the value of a sensitive variable', () => {
    try {
      loadConfig({ JWT_SECRET: 'short-secret-value' });
      throw new Error('expected a ConfigValidationError');
    } catch (error) {
      expect((error as Error).message).toMatch(/JWT_SECRET must be at least 32 characters/);
      expect((error as Error).message).not.toContain('short-secret-value');
    }
  });

  it('requires JWT_SECRET and DATABASE_URL in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET is required[\s\S]*DATABASE_URL is required/);
    const config = loadConfig({
      NODE_ENV: 'production',
      JWT_SECRET: '9f2c71a4e8b03d5f6a1c27e94b80d3f5c6e71a2b94d08f3e',
      DATABASE_URL: 'postgres://u:p@db:5432/app',
      PERSONAL_DATA_KEY: PERSONAL_DATA_KEY,
    });
    expect(config.isProduction).toBe(true);
    expect(config.jwtSecretGenerated).toBe(false);
  });

  it.each([
    ['the old compose default', 'change-me-change-me-change-me-change-me', /known placeholder/],
    ['the README bootstrap secret padded', 'dev-secret-change-me-dev-secret-change-me', /known placeholder/],
    ['one word repeated', 'orders-orders-orders-orders-orders-orders', /repeated/],
    ['one letter repeated', 'x'.repeat(40), /repeated/],
    ['few different characters', 'abababababababababababababababbbbbbaaaaa1', /fewer than 10 different/],
  ])('refuses %s as JWT_SECRET in production, in one message', (_case, secret, problem) => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: secret, DATABASE_URL: 'postgres://u:p@db:5432/app' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(problem);
    expect(message).not.toContain(secret);
    // Outside production the same secret is accepted (tests and development use such values).
    expect(loadConfig({ JWT_SECRET: secret }).jwtSecret).toBe(secret);
  });

  it('requires PERSONAL_DATA_KEY in production, and makes one per start with a warning elsewhere', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: '9f2c71a4e8b03d5f6a1c27e94b80d3f5c6e71a2b94d08f3e',
      DATABASE_URL: 'postgres://db/x',
    };
    expect(() => loadConfig(production)).toThrow(/PERSONAL_DATA_KEY is required when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, PERSONAL_DATA_KEY: 'short' })).toThrow(/PERSONAL_DATA_KEY must be at least 32 characters/);
    expect(loadConfig({ ...production, PERSONAL_DATA_KEY }).personalDataKey).toBe(PERSONAL_DATA_KEY);
    const development = loadConfig({});
    expect(development.personalDataKeyGenerated).toBe(true);
    expect(development.personalDataKey.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({}).personalDataKey).not.toBe(development.personalDataKey);
  });

  it('gives one message for a short JWT_SECRET in production', () => {
    let message = '';
    try {
      loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'short', DATABASE_URL: 'postgres://u:p@db:5432/app' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/JWT_SECRET must be at least 32 characters/);
    expect(message).not.toMatch(/JWT_SECRET is required/);
  });

  it('listens on 127.0.0.1 outside production and on every interface in production, unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: '9f2c71a4e8b03d5f6a1c27e94b80d3f5c6e71a2b94d08f3e',
      DATABASE_URL: 'postgres://u:p@db/app',
      PERSONAL_DATA_KEY,
    };
    expect(loadConfig(production).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ ...production, HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
  });

  it('parses booleans, durations and optional values', () => {
    const config = loadConfig({ DB_MIGRATE: 'false', WEBHOOK_RETRY_SCHEDULE: '1s, 2m,3h,250ms', EMBEDDED_DB_PORT: '' });
    expect(config.dbMigrate).toBe(false);
    expect(config.webhookRetrySchedule).toEqual([1000, 120_000, 10_800_000, 250]);
    expect(config.embeddedDbPort).toBeUndefined();
    expect(parseDuration('5x')).toBeUndefined();
  });

  it('accepts a whsec_ signing secret only when it is base64 of 24 to 64 bytes, without showing it', () => {
    const good = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(loadConfig({ ORDER_WEBHOOK_SECRET: good }).orderWebhookSecret).toBe(good);
    expect(loadConfig({ ORDER_WEBHOOK_SECRET: 'any plain text' }).orderWebhookSecret).toBe('any plain text');
    expect(() => loadConfig({ ORDER_WEBHOOK_SECRET: 'whsec_not*base64' })).toThrow(
      /ORDER_WEBHOOK_SECRET a whsec_ secret must be followed by base64$/m,
    );
    const short = `whsec_${Buffer.alloc(8).toString('base64')}`;
    expect(() => loadConfig({ ORDER_WEBHOOK_SECRET: short })).toThrow(/ORDER_WEBHOOK_SECRET .*24 to 64 bytes \(this one has 8\)/);
  });

  it('trusts only the listed proxies, never every address or a number of hops', () => {
    expect(loadConfig({}).trustedProxies).toBeUndefined();
    expect(loadConfig({ TRUSTED_PROXIES: ' 172.28.0.10, 10.0.0.0/8,loopback ' }).trustedProxies).toEqual([
      '172.28.0.10',
      '10.0.0.0/8',
      'loopback',
    ]);
    expect(loadConfig({ TRUSTED_PROXIES: 'fd00::/8' }).trustedProxies).toEqual(['fd00::/8']);
    for (const spoofable of ['true', '*', '1', '10.0.0.1,2', '0.0.0.0/0']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: spoofable })).toThrow(/TRUSTED_PROXIES must list the proxies' addresses/);
    }
    for (const malformed of ['300.1.1.1', '10.0.0.0/99', 'proxy.internal']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: malformed })).toThrow(/TRUSTED_PROXIES must be a comma-separated list of IP addresses/);
    }
  });

  it('reads the mail server, needs its sender, and never repeats its URL (it may hold a password)', () => {
    expect(loadConfig({})).toMatchObject({ smtpUrl: undefined, smtpFrom: undefined, smtpTimeoutMs: 10_000 });
    const config = loadConfig({ SMTP_URL: 'smtps://mailer:pw-7f3a@mail.example.com:465', SMTP_FROM: 'Order Tax <no-reply@example.com>' });
    expect(config).toMatchObject({ smtpUrl: 'smtps://mailer:pw-7f3a@mail.example.com:465', smtpFrom: 'Order Tax <no-reply@example.com>' });
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com:587' })).toThrow(/SMTP_FROM is required when SMTP_URL is set/);
    expect(() => loadConfig({ SMTP_URL: 'smtp://mail.example.com', SMTP_FROM: 'not an address' })).toThrow(
      /SMTP_FROM must be an e-mail address/,
    );
    let message = '';
    try {
      loadConfig({ SMTP_URL: 'http://mailer:pw-7f3a@mail.example.com', SMTP_FROM: 'no-reply@example.com' });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/);
    expect(message).not.toContain('pw-7f3a');
  });

  it('describes every variable', () => {
    for (const variable of CONFIG_VARIABLES) expect(variable.description.length).toBeGreaterThan(10);
  });
});
