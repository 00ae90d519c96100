import { freePort } from '../../src/database/embedded-postgres.js';
import { bootTestApp, type TestApp } from './test-app.js';
import type { BrowserResponse, ManualBrowser } from './manual-browser.js';
import { startTestOidcProvider, type TestOidcAccount, type TestOidcProvider } from './oidc-provider.js';

export const OIDC_CLIENT_ID = 'order-tax-console';
export const OIDC_CLIENT_SECRET = 'test-oidc-client-secret-0123456789';
export const OIDC_NAME = 'Test Identity';

export interface SingleSignOnSetup {
  t: TestApp;
  provider: TestOidcProvider;
  /** The service's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  close(): Promise<void>;
}

/**
 * The test OpenID provider with `accounts`, and the service configured to sign in through it,
 * both on 127.0.0.1; the provider accepts the service's callback as its redirect URI.
 */
export async function bootWithTestProvider(
  accounts: Record<string, TestOidcAccount>,
  options: { env?: Record<string, string>; emailInIdToken?: boolean } = {},
): Promise<SingleSignOnSetup> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const provider = await startTestOidcProvider({
    clientId: OIDC_CLIENT_ID,
    clientSecret: OIDC_CLIENT_SECRET,
    redirectUris: [`${origin}/api/auth/oidc/callback`],
    accounts,
    emailInIdToken: options.emailInIdToken,
  });
  const t = await bootTestApp(
    {
      PUBLIC_BASE_URL: origin,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID,
      OIDC_CLIENT_SECRET,
      OIDC_NAME,
      ...options.env,
    },
    { port },
  );
  return {
    t,
    provider,
    origin,
    close: async () => {
      await t.close();
      await provider.stop();
    },
  };
}

/**
 * Starts the sign-in at the service and goes through the provider's sign-in and consent forms as
 * `login`, up to the provider's redirect back to the service: the callback URL, not yet requested.
 */
export async function signInAtProvider(browser: ManualBrowser, origin: string, login: string): Promise<URL> {
  const isBack = (location: URL) => location.origin === origin;
  const start = await browser.get(`${origin}/api/auth/oidc/start`);
  if (!start.location || isBack(new URL(start.location, origin)))
    throw new Error(`the service did not send the browser to the provider: ${start.status} ${start.location}`);
  let step: BrowserResponse | URL = await browser.followUntil(start, isBack);
  for (let forms = 0; forms < 4 && !(step instanceof URL); forms += 1) {
    if (step.status !== 200) throw new Error(`the provider answered ${step.status} at ${step.url}:\n${step.text.slice(0, 500)}`);
    const submitted: BrowserResponse = step.text.includes('name="prompt" value="login"')
      ? await browser.submitForm(step, { login, password: 'any password' })
      : await browser.submitForm(step);
    step = await browser.followUntil(submitted, isBack);
  }
  if (!(step instanceof URL)) throw new Error(`the provider never sent the browser back:\n${step.text.slice(0, 500)}`);
  if (step.pathname !== '/api/auth/oidc/callback') throw new Error(`the provider sent the browser to ${step.href}`);
  return step;
}
