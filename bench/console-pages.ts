/**
 * npm run bench:console [-- --runs 5 --max-seconds 300]
 *
 * The admin console's pages in a real browser: starts an embedded PostgreSQL and the built service (console
 * included), stores a fiscal group and an order, signs in as the development admin in headless Chromium (driven by
 * playwright-core, as the browser tests are) and opens each page `--runs` times. For each page it prints the median
 * page load (from the navigation's start until the page's heading is shown and nothing says "Loading…") and the
 * median API time (the sum of the durations of the page's `/api/` requests, from the browser's resource timing), with
 * the number of API calls. The whole run stops after `--max-seconds`, printing what it measured by then.
 * CHROMIUM_PATH names the browser (default /usr/bin/chromium).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Page } from 'playwright-core';
import { EmbeddedPostgres, freePort } from '../src/database/embedded-postgres.js';
import { HttpClient } from '../test/support/http.js';
import { orderFor, seedFiscalData } from '../test/support/orders.js';
import { developmentToken, formatMs, startService } from './bench-support.js';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    'max-seconds': { type: 'string', default: '300' },
  },
});
const RUNS = Number(values.runs);
const MAX_MS = Number(values['max-seconds']) * 1000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const STORE = 'bench-console-store';
// The development admin person a first start outside production creates (BOOTSTRAP_ADMIN_EMAIL / _PASSWORD unset).
const ADMIN = { email: 'admin@example.com', password: 'dev-admin-password' };

interface Visit {
  loadMs: number;
  apiMs: number;
  apiCalls: number;
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Opens one page and measures it: the navigation until its content is shown, and its API requests. */
async function visit(page: Page, url: string): Promise<Visit> {
  const started = performance.now();
  await page.goto(url);
  // Attached, not visible: a tab's heading may be for screen readers only.
  await page.locator('main h1').first().waitFor({ state: 'attached', timeout: 30_000 });
  await page.getByText('Loading…').first().waitFor({ state: 'detached', timeout: 30_000 });
  const loadMs = performance.now() - started;
  const api = await page.evaluate(() => {
    // Runs in the page: its globals are the browser's (no DOM lib in this program).
    const timing = (globalThis as unknown as { performance: { getEntriesByType(type: string): { name: string; duration: number }[] } })
      .performance;
    return timing
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
      .map((entry) => entry.duration);
  });
  return { loadMs, apiMs: api.reduce((sum, duration) => sum + duration, 0), apiCalls: api.length };
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium or set CHROMIUM_PATH`);
  const deadline = Date.now() + MAX_MS;
  const directory = await mkdtemp(join(tmpdir(), 'bench-console-pages-'));
  const database = new EmbeddedPostgres({ dataDir: join(directory, 'postgres'), port: await freePort() });
  const databaseUrl = await database.start();
  const service = await startService({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'error',
    JWT_SECRET: 'bench-secret-bench-secret-bench-secret-00',
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  try {
    const http = new HttpClient(`${service.url}/api`);
    const token = await developmentToken(service.url);
    await seedFiscalData(http, token, STORE);
    const stored = await http.post('/enrich-order', orderFor('bench-console-order', STORE), { token });
    if (stored.status !== 200) throw new Error(`storing the order: ${stored.status}`);
    const order = await http.get<{ items: { id: string }[] }>('/admin/orders', { token, query: { orderId: 'bench-console-order' } });
    const group = await http.get<{ items: { id: string }[] }>('/admin/fiscal-groups', { token, query: { storeId: STORE } });
    const pages = [
      '/',
      '/orders',
      `/orders/${order.body.items[0]!.id}`,
      '/fiscal-groups',
      `/fiscal-groups/${group.body.items[0]!.id}`,
      '/categories',
      '/calculator',
      '/status-aliases',
      '/people',
      '/clients',
      '/channels',
      '/audit',
      '/personal-data',
    ];

    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${service.url}/console/`);
    await page.locator('input[name="email"]').fill(ADMIN.email);
    await page.locator('input[name="password"]').fill(ADMIN.password);
    await page.locator('form button[type="submit"]').click();
    await page.locator('nav').first().waitFor({ timeout: 30_000 });

    // One visit of each page first, not counted: the lazy chunks enter the browser's cache, as for a person at work.
    for (const path of pages) await visit(page, `${service.url}/console${path}`);
    const visits = new Map<string, Visit[]>(pages.map((path) => [path, []]));
    let stopped = false;
    for (let run = 0; run < RUNS && !stopped; run++) {
      for (const path of pages) {
        if (Date.now() > deadline) {
          stopped = true;
          break;
        }
        visits.get(path)!.push(await visit(page, `${service.url}/console${path}`));
      }
    }

    console.log(`console pages, ${RUNS} visits each after one not counted (Chromium, 1280 px, signed in as admin)`);
    console.log(`${'page'.padEnd(48)} ${'visits'.padStart(6)} ${'load p50'.padStart(10)} ${'API p50'.padStart(10)} ${'calls'.padStart(6)}`);
    const loads: number[] = [];
    const apis: number[] = [];
    for (const [path, measured] of visits) {
      if (measured.length === 0) continue;
      const load = median(measured.map((entry) => entry.loadMs));
      const api = median(measured.map((entry) => entry.apiMs));
      loads.push(...measured.map((entry) => entry.loadMs));
      apis.push(...measured.map((entry) => entry.apiMs));
      const shown = path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, ':id');
      console.log(
        `${shown.padEnd(48)} ${String(measured.length).padStart(6)} ${formatMs(load).padStart(10)} ${formatMs(api).padStart(10)} ${String(median(measured.map((entry) => entry.apiCalls))).padStart(6)}`,
      );
    }
    if (loads.length > 0) console.log(`all pages: load p50 ${formatMs(median(loads))}, API p50 ${formatMs(median(apis))}`);
    if (stopped) console.log(`stopped after ${values['max-seconds']} s (--max-seconds): fewer visits than --runs`);
    await context.close();
  } finally {
    await browser.close();
    await service.stop();
    await database.stop();
    await rm(directory, { recursive: true, force: true });
  }
}

await main();
