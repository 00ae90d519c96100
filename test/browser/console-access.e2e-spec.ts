import type { Browser, Page } from 'playwright-core';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import {
  DESKTOP,
  describeWithBrowser,
  launchBrowser,
  openConsole,
  originOf,
  PHONE,
  screenshot,
  seriousAccessibilityViolations,
  signIn,
  withoutExpected,
  type Person,
} from '../support/console-browser.js';

type Role = 'support' | 'fiscal' | 'admin';

let created = 0;

// Until the people helpers of test/support are on this branch: the same steps, here.

/**
 * A person with `role` and a password, made as an admin would: invited through the API (an admin
 * client may do what an admin person may), then the one-time link used to set the password.
 */
async function createPerson(t: TestApp, role: Role, name = `${role} person`): Promise<Person & { id: string; link: string }> {
  const token = await t.adminToken();
  created += 1;
  const email = `${role}-${created}-${Date.now()}@example.com`;
  const invited = await t.http.post<{ user: { id: string }; link: string }>('/admin/users', { email, name, role }, { token });
  if (invited.status !== 201) throw new Error(`inviting ${email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  const password = `a long ${role} passphrase ${created}`;
  const linkToken = new URL(invited.body.link).hash.slice(1);
  const set = await t.http.post(`/auth/password-links/${encodeURIComponent(linkToken)}`, { password });
  if (set.status !== 204) throw new Error(`setting the password of ${email}: ${set.status} ${JSON.stringify(set.body)}`);
  return { id: invited.body.user.id, email, password, link: invited.body.link };
}

/** An invited person who has not set a password yet: the one-time link to open in the browser. */
async function invitePerson(t: TestApp, role: Role, name: string): Promise<{ email: string; link: string }> {
  const token = await t.adminToken();
  created += 1;
  const email = `invited-${created}-${Date.now()}@example.com`;
  const invited = await t.http.post<{ link: string }>('/admin/users', { email, name, role }, { token });
  if (invited.status !== 201) throw new Error(`inviting ${email}: ${invited.status} ${JSON.stringify(invited.body)}`);
  return { email, link: invited.body.link };
}

const NAV = {
  support: ['Dashboard', 'Orders'],
  fiscal: ['Dashboard', 'Orders', 'Fiscal groups', 'Product categories', 'Tax calculator', 'Status aliases', 'Reports'],
  admin: [
    'Dashboard',
    'Orders',
    'Fiscal groups',
    'Product categories',
    'Tax calculator',
    'Status aliases',
    'Reports',
    'People',
    'API clients',
    'Stores and channels',
    'Audit log',
    'Personal data',
    'Sign-in settings',
  ],
};

async function navigationLinks(page: Page): Promise<string[]> {
  return (await page.locator('nav a').allTextContents()).map((text) => text.trim());
}

describeWithBrowser('admin console: people, roles, clients and the audit log (browser e2e)', () => {
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

  it.each(['support', 'fiscal'] as const)('%s sees its pages only; a page above its role says so', async (role) => {
    const person = await createPerson(t, role, `A ${role} person`);
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/', person);
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await navigationLinks(page)).toEqual(NAV[role]);
    await page.getByText(`Signed in as A ${role} person`).waitFor();

    const refused =
      role === 'support' ? ['/console/fiscal-groups', '/console/calculator', '/console/people'] : ['/console/people', '/console/audit'];
    for (const path of refused) {
      await page.goto(`${origin}${path}`);
      await page.getByRole('heading', { level: 1, name: 'Not available for your role' }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
    }
    // And the API refuses what the console hides.
    const cookie = (await context.cookies()).find((c) => c.name.endsWith('ots_session'))!;
    const direct = await t.http.get('/admin/users', { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(direct.status).toBe(403);
    expect(withoutExpected(errors, [401, 403])).toEqual([]);
    await context.close();
  });

  it('admin sees every page', async () => {
    const person = await createPerson(t, 'admin', 'An admin person');
    const { page, context } = await openConsole(browser);
    await signIn(page, origin, '/console/', person);
    expect(await navigationLinks(page)).toEqual(NAV.admin);
    await context.close();
  });

  it('invite in the console, then set the password through the link, then sign in with it', async () => {
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/people');
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Invite a person' }).click();
    const email = `carla-${Date.now()}@example.com`;
    await page.getByRole('textbox', { name: 'Email' }).fill(email);
    await page.getByRole('textbox', { name: 'Name' }).fill('Carla Dias');
    await page.getByRole('combobox', { name: 'Role' }).selectOption('fiscal');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = (await page.locator('pre').filter({ hasText: '/console/set-password#' }).textContent())!.trim();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'people-invited');
    await context.close();

    // The invited person, in a browser of their own.
    const invited = await openConsole(browser);
    await invited.page.goto(link.replace(/^https?:\/\/[^/]+/, origin));
    await invited.page.getByText(/For Carla Dias/).waitFor();
    expect(await seriousAccessibilityViolations(invited.page)).toEqual([]);
    await invited.page.locator('input[name="password"]').fill('password1234');
    await invited.page.locator('input[name="confirm"]').fill('password1234');
    await invited.page.getByRole('button', { name: 'Set password' }).click();
    await invited.page.getByText('This is a commonly used password: choose another.').waitFor();
    await invited.page.locator('input[name="password"]').fill('a quiet river at dawn');
    await invited.page.locator('input[name="confirm"]').fill('a quiet river at dawn');
    await invited.page.getByRole('button', { name: 'Set password' }).click();
    await invited.page.getByText('Your password is set. Sign in with it.').waitFor();
    await invited.page.locator('input[name="email"]').fill(email);
    await invited.page.locator('input[name="password"]').fill('a quiet river at dawn');
    await invited.page.locator('form button[type="submit"]').click();
    await invited.page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
    expect(await navigationLinks(invited.page)).toEqual(NAV.fiscal);

    // The link worked once.
    await invited.page.goto(link.replace(/^https?:\/\/[^/]+/, origin));
    await invited.page.getByText(/This link cannot be used/).waitFor();
    expect(withoutExpected(errors, [])).toEqual([]);
    expect(withoutExpected(invited.errors, [400, 404])).toEqual([]);
    await invited.context.close();
  });

  it('an admin creates a store-limited client, sees the secret once, and its history; the audit page lists the change', async () => {
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/clients');
    await page.getByRole('heading', { level: 1, name: 'API clients' }).waitFor();
    await page.getByRole('button', { name: 'New client' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('POS 162');
    await page.getByRole('combobox', { name: 'Stores' }).fill('162');
    await page.keyboard.press('Enter');
    await page.getByRole('checkbox', { name: /^admin:/ }).check();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('cannot have the admin scope').first().waitFor();
    await page.getByRole('checkbox', { name: /^admin:/ }).uncheck();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Shown this once').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('link', { name: 'POS 162' }).click();
    await page.getByRole('heading', { level: 1, name: 'POS 162' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'History' }).click();
    await page.getByRole('table', { name: 'Audit events' }).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    for (const [viewport, suffix] of [
      [DESKTOP, 'desktop'],
      [PHONE, 'phone'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`${origin}/console/audit?targetType=client`);
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
      await page.getByRole('table', { name: 'Audit events' }).getByText('API client', { exact: true }).first().waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `audit-${suffix}`);
    }
    expect(withoutExpected(errors, [400])).toEqual([]);
    await context.close();
  });

  it('an invitation link opened by someone signed out shows who it is for, with no serious accessibility violation', async () => {
    const { link } = await invitePerson(t, 'support', 'Davi Rocha');
    const { page, context } = await openConsole(browser, { viewport: PHONE });
    await page.goto(link.replace(/^https?:\/\/[^/]+/, origin));
    await page.getByText(/For Davi Rocha/).waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'set-password-phone');
    await context.close();
  });
});
