import type { Browser } from 'playwright-core';
import {
  describeWithBrowser,
  launchBrowser,
  openConsole,
  originOf,
  screenshot,
  seriousAccessibilityViolations,
  signIn,
} from '../support/console-browser.js';
import { seedReportOrders, type ReportsFixture } from '../support/reports.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

describeWithBrowser('admin console: the Reports page (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let fixture: ReportsFixture;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    fixture = await seedReportOrders(t);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the tax report of November in English, its totals computed by hand, and downloads it', async () => {
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/');
    await page.getByRole('link', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    await page.getByLabel('From (day)').fill('2026-11-01');
    await page.getByLabel('To (day, included)').fill('2026-11-30');
    await page.getByRole('button', { name: 'Show report' }).click();
    const table = page.getByRole('table', { name: 'Tax report' });
    await table.waitFor();
    // Three rows: store A's burger at 18 % and cola under CST 60, store B's burger at 12 % (the API test has the arithmetic).
    expect(await table.locator('tbody tr').count()).toBe(3);
    const footer = (await table.locator('tfoot').innerText()).replace(/\s+/g, ' ');
    // Totals: 3 orders, 5 items; ICMS base 35.90 + 12.00 + 25.90 = 73.80; ICMS 6.46 + 3.11 = 9.57; total tax 7.54 + 3.94 = 11.48.
    for (const figure of ['Total', '3', '5', 'R$73.80', 'R$9.57', 'R$11.48']) expect(footer).toContain(figure);
    expect(await table.locator('tbody tr').first().innerText()).toContain(fixture.storeA);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'console-reports-en');

    // The download links carry the same filters and the session cookie: the CSV ends with the totals line.
    const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    const csv = await context.request.get(`${origin}${csvHref}`);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain('TOTAL,,,,,,,3,5,73.80,9.57,0.00,64.23,0.34,64.23,1.57,11.48');
    const ordersHref = await page.getByRole('link', { name: 'Export the order list (CSV)' }).getAttribute('href');
    const orders = await context.request.get(`${origin}${ordersHref}`);
    expect(orders.status()).toBe(200);
    // November in Brasília time holds a1, a2, b1 and the cancelled order: the list's filters, not the report's statuses.
    expect((await orders.text()).trim().split('\r\n').length).toBe(1 + 4);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('speaks pt-BR: "Relatórios" in the navigation and money in reais', async () => {
    const { page, errors, context } = await openConsole(browser, { locale: 'pt-BR' });
    await signIn(page, origin, '/console/');
    await page.getByRole('link', { name: 'Relatórios' }).click();
    await page.getByRole('heading', { name: 'Relatórios', level: 1 }).waitFor();
    await page.getByLabel('De (dia)').fill('2026-11-01');
    await page.getByLabel('Até (dia, incluído)').fill('2026-11-30');
    await page.getByLabel('Loja').fill(fixture.storeB);
    await page.getByRole('button', { name: 'Mostrar relatório' }).click();
    const table = page.getByRole('table', { name: 'Relatório de impostos' });
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(1);
    // Store B alone: burger 25.90 at 12 %: ICMS 3.108 → 3,11; total 3.11 + 0.15 + 0.68 = 3,94.
    const footer = (await table.locator('tfoot').innerText()).replace(/\s+/g, ' ');
    for (const figure of ['Total', 'R$ 25,90', 'R$ 3,11', 'R$ 3,94']) expect(footer.replace(/\u00a0/g, ' ')).toContain(figure);
    await screenshot(page, 'console-reports-pt-BR');
    expect(errors).toEqual([]);
    await context.close();
  });
});
