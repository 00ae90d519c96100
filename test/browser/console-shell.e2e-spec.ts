import type { Browser } from 'playwright-core';
import { eventually } from '../support/eventually.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import {
  DEVELOPMENT_ADMIN,
  describeWithBrowser,
  launchBrowser,
  openConsole,
  originOf,
  PHONE,
  seriousAccessibilityViolations,
  signIn,
} from '../support/console-browser.js';

describeWithBrowser('admin console: sign-in, session and language (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('serves the app under the CSP, signs in with a password and returns to the page asked for; the session is an HttpOnly cookie', async () => {
    const { page, errors, context } = await openConsole(browser);
    const response = await page.goto(`${origin}/console/categories?q=abc`);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.locator('input[name="email"]').waitFor();
    expect(page.url()).toBe(`${origin}/console/sign-in`);
    await page.locator('input[name="email"]').fill(DEVELOPMENT_ADMIN.email);
    await page.locator('input[name="password"]').fill(DEVELOPMENT_ADMIN.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(`${origin}/console/categories?q=abc`);
    // The session is a cookie no script can read; nothing secret is in the tab's storage or the URL.
    const cookies = await context.cookies();
    const sessionCookie = cookies.find((cookie) => cookie.name.endsWith('ots_session'));
    expect(sessionCookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect((await page.evaluate('document.cookie')) as string).not.toContain('ots_session');
    const stored = (await page.evaluate('JSON.stringify({ ...sessionStorage, ...localStorage })')) as string;
    expect(stored).not.toContain(sessionCookie!.value);
    expect(stored).not.toMatch(/csrf/i);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses a wrong password with one message', async () => {
    const { page, context } = await openConsole(browser);
    await page.goto(`${origin}/console/`);
    await page.locator('input[name="email"]').fill(DEVELOPMENT_ADMIN.email);
    await page.locator('input[name="password"]').fill('wrong password!');
    await page.locator('form button[type="submit"]').click();
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/Wrong email or password\./);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await context.close();
  });

  it('on a 401 asks to sign in again and comes back to the same page; sign-out ends the session on the server', async () => {
    const { page, context } = await openConsole(browser);
    await signIn(page, origin, '/console/orders?status=ENRICHED');
    await page.waitForURL(/\/console\/orders\?status=ENRICHED$/);
    // The session ends while the tab is open (idle timeout, signed out elsewhere): the next API call answers 401.
    await context.clearCookies();
    await page.reload();
    await page.locator('input[name="email"]').waitFor();
    await page.getByText('Your session expired').waitFor();
    // A reload of the sign-in page still says why.
    await page.reload();
    await page.getByText('Your session expired').waitFor();
    expect(await page.locator('input[name="email"]').inputValue()).toBe(DEVELOPMENT_ADMIN.email);
    await page.locator('input[name="password"]').fill(DEVELOPMENT_ADMIN.password);
    await page.locator('form button[type="submit"]').click();
    // Back on the page (and its filters) where the session ran out.
    await page.waitForURL(`${origin}/console/orders?status=ENRICHED`);
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();

    const before = (await context.cookies()).find((cookie) => cookie.name.endsWith('ots_session'))!;
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('input[name="email"]').waitFor();
    // The server ended it: the old cookie, replayed, is refused.
    const replayed = await t.http.get('/auth/session', { headers: { cookie: `${before.name}=${before.value}` } });
    expect(replayed.status).toBe(401);
    await page.goto(`${origin}/console/orders`);
    await page.locator('input[name="email"]').waitFor();
    expect(page.url()).toBe(`${origin}/console/sign-in`);
    await context.close();
  });

  it('speaks pt-BR to a Portuguese browser and English to others; works at 390 px', async () => {
    const portuguese = await openConsole(browser, { locale: 'pt-BR', viewport: PHONE });
    await signIn(portuguese.page, origin);
    await portuguese.page.getByRole('button', { name: 'Sair' }).waitFor();
    expect(await portuguese.page.evaluate('document.documentElement.lang')).toBe('pt-BR');
    // At phone width the navigation hides behind a labelled menu button.
    await portuguese.page.getByRole('button', { name: 'Abrir navegação' }).click();
    await portuguese.page.getByRole('link', { name: 'Pedidos' }).click();
    await portuguese.page.waitForURL(/\/console\/orders/);
    await portuguese.context.close();

    const english = await openConsole(browser, { locale: 'en-US' });
    await signIn(english.page, origin);
    await english.page.getByRole('button', { name: 'Sign out' }).waitFor();
    await english.context.close();
  });

  it('is usable from the keyboard alone, with a visible focus on every control reached', async () => {
    const { page, errors, context } = await openConsole(browser);
    await page.goto(`${origin}/console/`);
    await page.locator('input[name="email"]').waitFor();
    /** What has the focus: its label or text, and whether a focus outline is drawn. */
    const focusedNow = async () =>
      (await page.evaluate(`(() => {
        const element = document.activeElement;
        const style = getComputedStyle(element);
        // Buttons and links draw the focus ring (an outline); text inputs turn their border the primary colour.
        const probe = document.createElement('span');
        probe.style.color = 'var(--mantine-primary-color-filled)';
        document.body.append(probe);
        const primary = getComputedStyle(probe).color;
        probe.remove();
        const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
        // A password field's border belongs to the box around its input and the show/hide button.
        const box = [element, element.parentElement, element.parentElement && element.parentElement.parentElement];
        const border = box.some((node) => node && getComputedStyle(node).borderTopColor === primary);
        return {
          tag: element.tagName,
          name: element.getAttribute('aria-label') || element.getAttribute('name') || element.textContent.trim(),
          outline: ring || border,
        };
      })()`)) as { tag: string; name: string; outline: boolean };
    // Inputs fade their border in (a 100 ms transition): look again until it shows, else report what was last seen.
    const focused = async () => {
      let seen = await focusedNow();
      await eventually(async () => (seen = await focusedNow()).outline, { timeoutMs: 5000, intervalMs: 50 }).catch(() => undefined);
      return seen;
    };

    // Sign in: Tab to each field, Enter submits.
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'INPUT', name: 'email', outline: true });
    await page.keyboard.type(DEVELOPMENT_ADMIN.email);
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ tag: 'INPUT', name: 'password', outline: true });
    await page.keyboard.type(DEVELOPMENT_ADMIN.password);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // Tab through the shell to the navigation; every stop shows its focus; Enter follows the link.
    const stops: string[] = [];
    for (let presses = 0; presses < 15 && !stops.includes('Product categories'); presses++) {
      await page.keyboard.press('Tab');
      const stop = await focused();
      expect({ stop: stop.name, outline: stop.outline }).toEqual({ stop: stop.name, outline: true });
      stops.push(stop.name);
    }
    expect(stops).toEqual(expect.arrayContaining(['Language', 'Sign out', 'Orders', 'Product categories']));
    await page.keyboard.press('Enter');
    await page.waitForURL(`${origin}/console/categories`);
    await page.getByRole('heading', { level: 1, name: 'Product fiscal categories' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
