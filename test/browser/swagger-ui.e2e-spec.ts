import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { Schemas } from '../support/api.js';
import { loadCommittedOpenApi } from '../support/openapi-routes.js';
import { bootTestApp, BOOTSTRAP_ID, BOOTSTRAP_SECRET, type TestApp } from '../support/test-app.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../artifacts/', import.meta.url));
/** `.ci/run` installs Debian's chromium; on a machine without it this test is skipped, loudly. */
const describeWithBrowser = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM))
  process.stderr.write(`[swagger-ui test] no browser at ${CHROMIUM}: skipped (install Debian's chromium or set CHROMIUM_PATH)\n`);

describeWithBrowser('Swagger UI in a real browser (e2e)', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await bootTestApp({ SEED_DEMO_DATA: 'true' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('loads, shows every tag and operation, authorizes with a login token and runs POST /api/enrich-order', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto(`${t.baseUrl}/docs`);
    await page.waitForSelector('.opblock-tag-section', { timeout: 20_000 });

    const document = loadCommittedOpenApi();
    const tags = new Set<string>();
    let operations = 0;
    for (const methods of Object.values<Record<string, { tags?: string[] }>>(document.paths)) {
      for (const operation of Object.values(methods)) {
        operation.tags?.forEach((tag) => tags.add(tag));
        operations += 1;
      }
    }
    const shownTags = await page.$$eval('.opblock-tag', (elements) => elements.map((element) => element.getAttribute('data-tag')));
    expect(shownTags.sort()).toEqual([...tags].sort());
    expect(await page.locator('.opblock').count()).toBe(operations);

    const login = await t.http.post<Schemas['LoginResponseDto']>('/authentication/login', {
      client_id: BOOTSTRAP_ID,
      client_secret: BOOTSTRAP_SECRET,
      grant_type: 'client_credentials',
    });
    await page.click('.auth-wrapper .authorize');
    const bearerInput = page.locator('.auth-container input[type="text"], .auth-container input[type="password"]').first();
    await bearerInput.fill(login.body.accessToken);
    await page.locator('.auth-btn-wrapper button.authorize').first().click();
    await page.locator('.auth-btn-wrapper button.btn-done').first().click();

    const operation = page.locator('.opblock-post').filter({ has: page.locator('.opblock-summary-path[data-path="/api/enrich-order"]') });
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    await operation.locator('.execute').click();
    const status = operation.locator('.live-responses-table tbody tr.response .response-col_status').first();
    await status.waitFor({ timeout: 20_000 });
    expect((await status.innerText()).trim()).toBe('200');
    const body = await operation.locator('.live-responses-table tbody tr.response .microlight').first().innerText();
    expect((JSON.parse(body) as Schemas['EnrichOrderResponseDto']).payload.taxSummary.totals.total_tax).toBeGreaterThan(0);

    await status.scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, -250);
    await page.screenshot({ path: `${ARTIFACTS}swagger-ui.png`, fullPage: false });
    expect(consoleErrors.filter((text) => /Content Security Policy|Refused/.test(text))).toEqual([]);
  });
});
