import { ConfigValidationError, loadConfig } from './app-config.js';

const PROVIDER = { OIDC_ISSUER: 'https://id.example.com', OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'provider-secret' };

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigValidationError) return error.problems;
    throw error;
  }
  return [];
}

describe('single sign-on configuration', () => {
  it('is off by default, with a default button name', () => {
    const config = loadConfig({});
    expect([config.oidcIssuer, config.oidcClientId, config.oidcClientSecret]).toEqual([undefined, undefined, undefined]);
    expect(config.oidcName).toBe('Single sign-on');
  });

  it('takes the issuer, client id, secret and name together', () => {
    const config = loadConfig({ ...PROVIDER, OIDC_NAME: ' Google Workspace ' });
    expect(config).toMatchObject({ oidcIssuer: 'https://id.example.com', oidcClientId: 'console', oidcClientSecret: 'provider-secret' });
    expect(config.oidcName).toBe('Google Workspace');
  });

  it.each(Object.keys(PROVIDER))('refuses a provider configured without %s, naming it', (missing) => {
    const env = Object.fromEntries(Object.entries(PROVIDER).filter(([name]) => name !== missing));
    const problems = problemsOf(env);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${missing} must be set too`));
  });

  it('refuses an issuer that is not an http(s) URL', () => {
    expect(problemsOf({ ...PROVIDER, OIDC_ISSUER: 'id.example.com' }).join('\n')).toMatch(/OIDC_ISSUER must be an absolute http\(s\) URL/);
  });

  it('needs https in production, and allows http elsewhere (a local test provider)', () => {
    const production = {
      NODE_ENV: 'production',
      JWT_SECRET: '9f3c1a7e5b2d8f4a6c0e1b3d5f7a9c2e4b6d8f0a',
      DATABASE_URL: 'postgres://db/x',
      PERSONAL_DATA_KEY: '6f1e9d2c8b7a4e3f5a0c1d2e3f4a5b6c7d8e9f0a',
    };
    expect(problemsOf({ ...production, ...PROVIDER, OIDC_ISSUER: 'http://id.example.com' })).toEqual([
      'OIDC_ISSUER must be an https URL when NODE_ENV=production',
    ]);
    expect(problemsOf({ ...production, ...PROVIDER })).toEqual([]);
    expect(loadConfig({ ...PROVIDER, OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidcIssuer).toBe('http://127.0.0.1:4000');
  });

  it('never shows the client secret in its messages', () => {
    expect(problemsOf({ OIDC_CLIENT_SECRET: 'provider-secret' }).join('\n')).not.toContain('provider-secret');
  });
});
