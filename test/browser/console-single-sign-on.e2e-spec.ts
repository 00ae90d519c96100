import type { Browser, Page } from 'playwright-core';
import {
  describeWithBrowser,
  launchBrowser,
  openConsole,
  seriousAccessibilityViolations,
  withoutExpected,
} from '../support/console-browser.js';
import { bootWithTestProvider, OIDC_NAME, type SingleSignOnSetup } from '../support/single-sign-on.js';

/** Goes through the test provider's sign-in form (as `login`) and consent form, until the browser is back at the service. */
async function signInAtTheProvider(page: Page, origin: string, login: string): Promise<void> {
  for (let forms = 0; forms < 4 && !page.url().startsWith(origin); forms += 1) {
    const loginField = page.locator('input[name="login"]');
    if (await loginField.count()) {
      await loginField.fill(login);
      await page.locator('input[name="password"]').fill('any password');
    }
    await Promise.all([page.waitForNavigation(), page.locator('button[type="submit"]').first().click()]);
  }
  if (!page.url().startsWith(origin)) throw new Error(`the provider never sent the browser back: ${page.url()}`);
}

/**
 * Single sign-on in Chromium, against a real OpenID provider the test starts (`oidc-provider`):
 * the sign-in page offers it, an existing active person with a verified email is signed in, and
 * anyone else comes back to the sign-in page with the explanation and no session.
 */
describeWithBrowser('console single sign-on through a real OpenID provider (browser e2e)', () => {
  let setup: SingleSignOnSetup;
  let browser: Browser;

  beforeAll(async () => {
    setup = await bootWithTestProvider(
      {
        // The development admin person the test app creates.
        ana: { email: 'admin@example.com', emailVerified: true },
        bruno: { email: 'admin@example.com', emailVerified: false },
        carla: { email: 'nobody-here@example.com', emailVerified: true },
      },
      { emailInIdToken: true },
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await setup?.close();
  });

  it('signs in an active person whose email the provider verified', async () => {
    const { page, errors, context } = await openConsole(browser);
    await page.goto(`${setup.origin}/console/`);
    const offer = page.getByRole('link', { name: `Sign in with ${OIDC_NAME}` });
    await offer.waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await Promise.all([page.waitForNavigation(), offer.click()]);
    expect(page.url().startsWith(setup.provider.issuer)).toBe(true);
    await signInAtTheProvider(page, setup.origin, 'ana');
    // The provider's development pages ask for remote fonts and a favicon (no network here): only the console's own errors count.
    errors.length = 0;
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    await page.getByRole('link', { name: 'Audit log' }).waitFor();
    // The provider was asked with PKCE.
    expect(setup.provider.authorizationRequests.at(-1)?.get('code_challenge_method')).toBe('S256');
    expect(withoutExpected(errors, [401])).toEqual([]);
    await context.close();
  });

  it.each([
    ['an unverified email', 'bruno'],
    ['an email no person here has', 'carla'],
  ])('sends back to the sign-in page with the explanation for %s, signed out', async (_case, login) => {
    const { page, context } = await openConsole(browser);
    await page.goto(`${setup.origin}/console/`);
    const offer = page.getByRole('link', { name: `Sign in with ${OIDC_NAME}` });
    await Promise.all([page.waitForNavigation(), offer.click()]);
    await signInAtTheProvider(page, setup.origin, login);
    await page.getByText('Single sign-on did not sign you in', { exact: false }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const cookies = await context.cookies();
    expect(cookies.filter((cookie) => cookie.name.endsWith('ots_session'))).toEqual([]);
    await context.close();
  });
});
