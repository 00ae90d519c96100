import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type ConsoleMessage, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** `.ci/run` installs Debian's chromium; on a machine without it the console tests are skipped, loudly. */
export const describeWithBrowser = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM))
  process.stderr.write(`[console tests] no browser at ${CHROMIUM}: skipped (install Debian's chromium or set CHROMIUM_PATH)\n`);

export const DESKTOP = { width: 1280, height: 900 } as const;
export const PHONE = { width: 390, height: 844 } as const;

export async function launchBrowser(): Promise<Browser> {
  await mkdir(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Console errors and page errors seen so far: CSP refusals and uncaught exceptions land here. */
  errors: string[];
}

/**
 * The console asks `GET /api/auth/session` on every load whether the cookie holds a session; its 401
 * is the answer "no" (a first visit), not a failure, though Chrome logs it as an error.
 */
function isSessionCheck(message: ConsoleMessage): boolean {
  const url = message.location().url;
  return message.text().includes('status of 401') && url !== '' && new URL(url).pathname === '/api/auth/session';
}

/** A fresh tab (its own cookies and sessionStorage) in the given language (and time zone), recording every console error. */
export async function openConsole(
  browser: Browser,
  options: { locale?: string; viewport?: { width: number; height: number }; timezoneId?: string } = {},
): Promise<ConsolePage> {
  const context = await browser.newContext({
    locale: options.locale ?? 'en-US',
    viewport: options.viewport ?? DESKTOP,
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (process.env.CONSOLE_DEBUG) process.stderr.write(`[browser ${message.type()}] ${message.text()}\n`);
    if (message.type() === 'error' && !isSessionCheck(message)) errors.push(message.text());
  });
  if (process.env.CONSOLE_DEBUG)
    page.on('response', (response) => process.stderr.write(`[browser response] ${response.status()} ${response.url()}\n`));
  page.on('pageerror', (error) => errors.push(String(error)));
  return { context, page, errors };
}

/** The service's origin (the console is at /console/, beside /api). */
export function originOf(baseUrl: string): string {
  return new URL(baseUrl).origin;
}

/** A person who signs in to the console. */
export interface Person {
  email: string;
  password: string;
}

/**
 * The development admin person a first start outside production creates (BOOTSTRAP_ADMIN_EMAIL /
 * BOOTSTRAP_ADMIN_PASSWORD, these defaults unless set); the test app sets neither.
 */
export const DEVELOPMENT_ADMIN: Person = { email: 'admin@example.com', password: 'dev-admin-password' };

/** Signs in through the form (email and password to POST /api/auth/session) and waits for the app shell. */
export async function signIn(page: Page, origin: string, path = '/console/', person: Person = DEVELOPMENT_ADMIN): Promise<void> {
  await page.goto(`${origin}${path}`);
  await page.locator('input[name="email"]').fill(person.email);
  await page.locator('input[name="password"]').fill(person.password);
  await page.locator('form button[type="submit"]').click();
  await page.locator('nav').first().waitFor({ timeout: 20_000 });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; html?: string; summary?: string }[];
}

/**
 * axe-core on the current page: the serious and critical violations. The script is evaluated
 * through the DevTools protocol, which the page's CSP (no inline script) does not govern.
 */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    // The callback runs in the page: its globals are the browser's, typed here by hand (no DOM lib in this program).
    const pageGlobals = globalThis as unknown as {
      document: unknown;
      axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> };
    };
    const result = await pageGlobals.axe.run(pageGlobals.document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target,
        html: (n as { html?: string }).html,
        summary: (n as { failureSummary?: string }).failureSummary,
      })),
    }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
}

/** Chrome logs every 4xx/5xx answer as a console error; the tests that provoke one on purpose drop exactly those. */
export function withoutExpected(errors: string[], statuses: number[]): string[] {
  return errors.filter((error) => !statuses.some((status) => error.includes(`the server responded with a status of ${status}`)));
}
