import type { Browser } from 'playwright-core';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { answer, WebhookReceiver } from '../support/webhook-receiver.js';
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
} from '../support/console-browser.js';

describeWithBrowser('admin console: dashboard (browser e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let adminToken: string;
  const store = unique('dash-store');
  const missingStore = unique('dash-missing');

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url, WEBHOOK_RETRY_ENABLED: 'true', WEBHOOK_RETRY_SCHEDULE: '1h' });
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    adminToken = await t.tokenFor(['admin']);
    const orders = await t.tokenFor(['orders']);
    await seedFiscalData(t.http, adminToken, store);
    for (const orderId of [unique('dash-a'), unique('dash-b')]) {
      expect((await t.http.post('/enrich-order', orderFor(orderId, store), { token: orders })).status).toBe(200);
    }
    receiver.respondWith(answer(200, 'ok'), answer(503, 'busy'));
    expect((await t.http.post('/enrich-order-forward', orderFor(unique('dash-ok'), store), { token: orders })).status).toBe(200);
    expect((await t.http.post('/enrich-order-forward', orderFor(unique('dash-503'), store), { token: orders })).status).toBe(502);
    for (const orderId of [unique('dash-m1'), unique('dash-m2')]) {
      expect((await t.http.post('/enrich-order', orderFor(orderId, missingStore), { token: orders })).status).toBe(422);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  it('draws the charts with the API figures and links a store missing its group to a new group', async () => {
    const perHour = (await t.http.get('/admin/stats/orders-per-hour', { token: adminToken })).body as {
      totals: { status: string; count: number }[];
    };
    const forwarding = (await t.http.get('/admin/stats/forwarding', { token: adminToken })).body as {
      outcomes: Record<string, number>;
    };
    // 2 ENRICHED + 1 FORWARDED + 1 FORWARD_FAILED + 2 ENRICHMENT_FAILED.
    expect(perHour.totals.reduce((sum, entry) => sum + entry.count, 0)).toBe(6);
    expect(forwarding.outcomes).toEqual({ delivered: 1, rejected: 0, failed: 1, noAnswer: 0 });

    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, '/console/');
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();

    // The stacked bars and the donut are drawn (SVG paths), each with a text alternative.
    await page.locator('.recharts-bar-rectangle path').first().waitFor();
    await page.locator('.recharts-pie-sector path').first().waitFor();
    expect(await page.locator('.recharts-bar-rectangle path').count()).toBeGreaterThanOrEqual(perHour.totals.length);
    expect(await page.locator('.recharts-pie-sector path').count()).toBe(2);
    await expect(page.getByTestId('orders-total').textContent()).resolves.toBe('6 orders in the period');
    for (const entry of perHour.totals) {
      const shown = await page.locator(`li[data-status="${entry.status}"]`).textContent();
      expect(shown).toMatch(new RegExp(`: ${entry.count}$`));
    }
    const chart = page.getByRole('img', { name: /Bar chart of orders per hour by status/ });
    expect(await chart.getAttribute('aria-label')).toContain('Enriched: 2');
    for (const [outcome, count] of Object.entries(forwarding.outcomes)) {
      expect(await page.locator(`[data-outcome="${outcome}"]`).textContent()).toMatch(new RegExp(`: ${count}$`));
    }
    // The failed forward scheduled one retry, an hour away.
    await expect(page.getByTestId('retry-scheduled').textContent()).resolves.toBe('1');

    const row = page.locator(`tr[data-store="${missingStore}"]`);
    await expect(row.locator('td').nth(1).textContent()).resolves.toBe('2');
    expect(await page.locator('tr[data-store]').count()).toBe(1);
    // No store client took another store's order id here: the card says so.
    await page.getByRole('heading', { level: 2, name: 'Order ids taken from store clients' }).waitFor();
    await page.getByText('No store client used another store’s order id in the period.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-desktop');

    // The period is in the URL.
    await page.getByText('Last 7 days').click();
    await page.waitForURL(/\/console\/?\?range=7d$/);
    await page.locator('.recharts-bar-rectangle path').first().waitFor();

    await page.getByRole('link', { name: `Create its group for store ${missingStore}` }).click();
    await page.waitForURL(`${origin}/console/fiscal-groups/new?storeId=${missingStore}`);
    await expect(page.getByLabel('Store id, row 1', { exact: true }).inputValue()).resolves.toBe(missingStore);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('in pt-BR at 390 px: charts fit, and a 503 shows a retry that brings the figures back', async () => {
    const { page, errors, context } = await openConsole(browser, { locale: 'pt-BR', viewport: PHONE });
    let unavailable = true;
    await page.route('**/api/admin/stats/forwarding*', async (route) => {
      if (!unavailable) return route.continue();
      await route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable' }),
      });
    });
    await signIn(page, origin, '/console/');
    await page.getByRole('heading', { level: 1, name: 'Painel' }).waitFor();
    await page.locator('.recharts-bar-rectangle path').first().waitFor();
    const retry = page.getByRole('button', { name: 'Tentar de novo' });
    await retry.waitFor({ timeout: 15_000 });
    unavailable = false;
    await retry.click();
    await page.locator('.recharts-pie-sector path').first().waitFor();
    await expect(page.getByTestId('orders-total').textContent()).resolves.toBe('6 pedidos no período');

    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-phone');
    expect(withoutExpected(errors, [503])).toEqual([]);
    await context.close();
  });
});
