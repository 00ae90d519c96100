import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { namespaces } from '../../console/src/i18n/namespaces.js';
import { ACCESS_REMOVED, SESSION_ENDED, SIGN_IN_FAILED } from '../../src/users/sessions.service.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import {
  DEVELOPMENT_ADMIN,
  describeWithBrowser,
  launchBrowser,
  openConsole,
  originOf,
  signIn,
  type Person,
} from '../support/console-browser.js';

type Role = 'support' | 'fiscal' | 'admin';

/** Every dotted key of the console's messages (`detail.lastResponse`): i18next shows the key when a message is missing. */
function messageKeys(): string[] {
  const keys = new Set<string>();
  const walk = (tree: object, prefix: string) => {
    for (const [key, value] of Object.entries(tree)) {
      if (typeof value === 'object' && value !== null) walk(value as object, `${prefix}${key}.`);
      else if (prefix) keys.add(`${prefix}${key}`);
    }
  };
  for (const messages of Object.values(namespaces)) walk(messages.en, '');
  return [...keys];
}

/**
 * The service's English sentences a person could be shown: every error example's `message` in openapi.json (the error
 * catalogue), the session's sentences, and the fixed parts of the redelivery's and forward's answers.
 */
function serverSentences(): string[] {
  const found = new Set<string>([
    SIGN_IN_FAILED,
    SESSION_ENDED,
    ACCESS_REMOVED,
    'redelivered:',
    'the webhook answered',
    'was not accepted by',
    // The marketplace profiles' discount descriptions, and the validation library's field sentences.
    'iFood benefit',
    'sponsor unknown',
    'must be shorter than or equal to',
    'must be longer than or equal to',
    'should not be empty',
    'must be a string',
  ]);
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'message' || key === 'error_description') && typeof value === 'string' && value.split(' ').length >= 3)
          found.add(value);
        else walk(value);
      }
    }
  };
  walk((JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as { paths: unknown }).paths);
  return [...found];
}

/** The console's own English sentences (three words or more) that pt-BR says otherwise: an English fallback shows one. */
function englishOnlyMessages(): string[] {
  const found: string[] = [];
  const walk = (english: object, portuguese: object) => {
    for (const [key, value] of Object.entries(english)) {
      const other = (portuguese as Record<string, unknown>)[key];
      if (typeof value === 'object' && value !== null) walk(value as object, (other ?? {}) as object);
      else if (typeof value === 'string' && value !== other && !value.includes('{{') && value.split(' ').length >= 3) found.push(value);
    }
  };
  for (const messages of Object.values(namespaces)) walk(messages.en, messages['pt-BR']);
  return found;
}

// An UPPER_SNAKE code (`WEBHOOK_NOT_CONFIGURED`, `FORWARD_FAILED`); the NF-e/tax-rule element names the console shows on
// purpose beside their labels (`CST_ICMS`, `ICMS_rate`) are mixed case or have no underscore, and do not match.
const UPPER_SNAKE = /\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b/g;
// The tax rule's CSV column names and regime codes the fiscal pages show as data (a group's regime, the matrix's columns).
// The engine's reasons for an amount outside the invoice, each shown beside its explanation in the reader's language.
const SHOWN_AS_DATA = new Set([
  'CST_ICMS',
  'CST_PIS',
  'CST_COFINS',
  'CST_IBSCBS',
  'LUCRO_PRESUMIDO',
  'LUCRO_REAL',
  'SIMPLES_NACIONAL',
  ...Object.keys(namespaces.taxBreakdown.en.outside.reasons),
]);

/** What is wrong with the page's text: untranslated codes, i18n keys, the service's English, the console's English. */
async function untranslated(page: Page): Promise<string[]> {
  const text = await page.locator('body').innerText();
  const problems: string[] = [];
  for (const code of text.match(UPPER_SNAKE) ?? []) if (!SHOWN_AS_DATA.has(code)) problems.push(`code ${code}`);
  for (const key of KEYS) if (new RegExp(`(^|[^\\w@.])${key.replace(/\./g, '\\.')}($|[^\\w.])`).test(text)) problems.push(`key ${key}`);
  for (const sentence of SERVER_SENTENCES) if (text.includes(sentence)) problems.push(`service's English "${sentence}"`);
  for (const sentence of CONSOLE_ENGLISH) if (text.includes(sentence)) problems.push(`console's English "${sentence}"`);
  return [...new Set(problems)];
}

const KEYS = messageKeys();
const SERVER_SENTENCES = serverSentences();
const CONSOLE_ENGLISH = englishOnlyMessages();

/** Opens a console page and waits until it has loaded (its heading shown, nothing loading). */
async function visit(page: Page, origin: string, path: string): Promise<void> {
  await page.goto(`${origin}/console${path}`);
  // Attached, not visible: a tab's heading may be for screen readers only.
  await page.locator('main h1').first().waitFor({ state: 'attached', timeout: 20_000 });
  await page.getByText('Carregando…').first().waitFor({ state: 'detached', timeout: 20_000 });
}

/** Where the admin's walk saves a picture of each page (`npm run docs:screenshots`: docs/images); unset, none is taken. */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS;

/** `console-fiscal-groups-item-revisions` for `/fiscal-groups/<uuid>?tab=revisions`; `console-dashboard` for `/`. */
function screenshotName(path: string, ids: string[]): string {
  let name = path.replace(/^\//, '');
  for (const id of ids) name = name.split(id).join('item');
  name = name
    .replace(/\?tab=/, '-')
    .replace(/[^a-z0-9]+/gi, '-')
    .replace(/-$/, '');
  return `console-${name || 'dashboard'}`;
}

let created = 0;
async function createPerson(t: TestApp, role: Role): Promise<Person> {
  const token = await t.adminToken();
  created += 1;
  const email = `pt-${role}-${created}-${Date.now()}@example.com`;
  const invited = await t.http.post<{ link: string }>('/admin/users', { email, name: `Pessoa ${role}`, role }, { token });
  if (invited.status !== 201) throw new Error(`inviting ${email}: ${invited.status}`);
  const password = `uma frase longa de ${role} ${created}`;
  const set = await t.http.post(`/auth/password-links/${encodeURIComponent(new URL(invited.body.link).hash.slice(1))}`, { password });
  if (set.status !== 204) throw new Error(`setting the password of ${email}: ${set.status}`);
  return { email, password };
}

/**
 * The console walked in pt-BR by each role, page by page, and the messages the service causes (a refused sign-in, a
 * redelivery without a webhook): no page shows an untranslated code, an i18n key, or an English sentence of the
 * service or of the console.
 */
describeWithBrowser('the console in pt-BR says everything in Portuguese (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let orderDbId: string;
  let groupId: string;
  let clientId: string;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    const admin = await t.adminToken();
    const storeId = unique('pt-store');
    await seedFiscalData(t.http, admin, storeId);
    const orderId = unique('PT-ORD');
    const stored = await t.http.post('/enrich-order', orderFor(orderId, storeId), { token: await t.tokenFor(['orders']) });
    if (stored.status !== 200) throw new Error(`storing the order: ${stored.status} ${stored.text}`);
    const listed = await t.http.get<{ items: { id: string }[] }>('/admin/orders', { token: admin, query: { orderId } });
    orderDbId = listed.body.items[0]!.id;
    const groups = await t.http.get<{ items: { id: string }[] }>('/admin/fiscal-groups', { token: admin, query: { storeId } });
    groupId = groups.body.items[0]!.id;
    const client = await t.http.post<{ clientId: string }>('/admin/clients', { name: 'PDV Centro', scopes: ['orders'] }, { token: admin });
    clientId = client.body.clientId;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const ADMIN_PAGES = ['/people', '/clients', () => `/clients/${clientId}`, '/channels', '/audit', '/personal-data', '/sign-in-settings'];
  const FISCAL_PAGES = [
    '/fiscal-groups',
    () => `/fiscal-groups/${groupId}`,
    () => `/fiscal-groups/${groupId}?tab=revisions`,
    '/categories',
    '/calculator',
    '/status-aliases',
    '/reports',
  ];
  const SUPPORT_PAGES = ['/', '/orders', () => `/orders/${orderDbId}`, '/account/security'];
  const pagesOf: Record<Role, (string | (() => string))[]> = {
    support: SUPPORT_PAGES,
    fiscal: [...SUPPORT_PAGES, ...FISCAL_PAGES],
    admin: [...SUPPORT_PAGES, ...FISCAL_PAGES, () => `/fiscal-groups/${groupId}?tab=history`, ...ADMIN_PAGES],
  };

  it.each(['admin', 'fiscal', 'support'] as const)(
    'as %s: every page it sees',
    async (role) => {
      const person = role === 'admin' ? DEVELOPMENT_ADMIN : await createPerson(t, role);
      const { page, context } = await openConsole(browser, { locale: 'pt-BR', timezoneId: 'America/Sao_Paulo' });
      await signIn(page, origin, '/console/', person);
      const found: Record<string, string[]> = {};
      for (const entry of pagesOf[role]) {
        const path = typeof entry === 'function' ? entry() : entry;
        await visit(page, origin, path);
        if (SCREENSHOTS && role === 'admin') {
          mkdirSync(SCREENSHOTS, { recursive: true });
          await page.screenshot({ path: join(SCREENSHOTS, `${screenshotName(path, [orderDbId, groupId, clientId])}.png`) });
        }
        const problems = await untranslated(page);
        if (problems.length > 0) found[path] = problems;
      }
      expect(found).toEqual({});
      await context.close();
      // The admin walks every page (about twenty): on a loaded machine a page takes seconds.
    },
    180_000,
  );

  it("says a refused sign-in and a redelivery the service refused in Portuguese, not in the service's words", async () => {
    const { page, context } = await openConsole(browser, { locale: 'pt-BR' });
    await page.goto(`${origin}/console/`);
    await page.locator('input[name="email"]').fill(DEVELOPMENT_ADMIN.email);
    await page.locator('input[name="password"]').fill('uma senha errada!');
    await page.locator('form button[type="submit"]').click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('E-mail ou senha incorretos.');
    expect(await untranslated(page)).toEqual([]);

    await signIn(page, origin, `/console/orders/${orderDbId}`);
    await page.locator('main h1').first().waitFor();
    // No webhook is configured: the service answers 503 WEBHOOK_NOT_CONFIGURED with its English sentence.
    await page.getByRole('button', { name: 'Reenviar', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reenviar', exact: true }).click();
    await expect(page.getByTestId('redeliver-outcome').textContent()).resolves.toBe(
      'O reenvio falhou (503): Nenhum webhook de pedidos está configurado; nada foi gravado nem enviado.',
    );
    expect(await untranslated(page)).toEqual([]);
    await context.close();
  });

  it("says a marketplace discount's payer and a refused filter in Portuguese, not in the service's English", async () => {
    const admin = await t.adminToken();
    const storeId = unique('pt-sponsor-store');
    await seedFiscalData(t.http, admin, storeId);
    const orderId = unique('PT-SPONSOR');
    const order = orderFor(orderId, storeId);
    const discounts = [
      // As a marketplace profile writes it now: the code and parameters beside the English description.
      {
        amount: 3,
        sponsor: 'PLATFORM',
        target: 'ITEMS',
        description: 'iFood benefit sponsored by IFOOD: Cupom da casa',
        descriptionCode: 'SPONSORED_BY',
        descriptionParams: { marketplace: 'iFood', sponsor: 'IFOOD', detail: 'Cupom da casa' },
      },
      // As orders stored before the code existed hold it: the English description alone.
      { amount: 2, sponsor: 'PLATFORM', target: 'ITEMS', description: 'iFood benefit, sponsor unknown' },
    ];
    const stored = await t.http.post(
      '/enrich-order',
      { ...order, order: { ...order.order, discounts } },
      { token: await t.tokenFor(['orders']) },
    );
    if (stored.status !== 200) throw new Error(`storing the order: ${stored.status} ${stored.text}`);
    const listed = await t.http.get<{ items: { id: string }[] }>('/admin/orders', { token: admin, query: { orderId } });

    const { page, context } = await openConsole(browser, { locale: 'pt-BR' });
    await signIn(page, origin, '/console/');
    await visit(page, origin, `/orders/${listed.body.items[0]!.id}`);
    const payments = page.getByRole('table', { name: 'Pagamentos de terceiros' });
    await expect(payments.locator('td[data-field="description"]').allTextContents()).resolves.toEqual([
      'Desconto iFood patrocinado por iFood: Cupom da casa',
      'Desconto iFood, patrocinador desconhecido',
    ]);
    expect(await untranslated(page)).toEqual([]);

    // An action longer than the API takes: its 400 says "must be shorter than or equal to 60 characters" at the field.
    await page.goto(`${origin}/console/audit?action=${'x'.repeat(61)}`);
    await page.getByRole('alert').first().waitFor({ timeout: 20_000 });
    await expect(page.locator('main').textContent()).resolves.toContain('deve ter no máximo 60 caracteres');
    expect(await untranslated(page)).toEqual([]);
    await context.close();
  });
});
