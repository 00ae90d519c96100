import { taxBreakdownMessages } from '../../console/src/common/tax-breakdown-messages.js';
import type { TaxWarningCode as WarningCode } from '../../src/tax-engine/tax-engine.js';
import type { Browser, Page } from 'playwright-core';
import type { ErrorBody, Schemas } from '../support/api.js';

type Enriched = Schemas['EnrichedOrderPayloadDto'];
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { answer, forwardedPayload, WebhookReceiver } from '../support/webhook-receiver.js';
import {
  DESKTOP,
  DEVELOPMENT_ADMIN,
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

/** The console's money and rate formats in English (pt-BR is checked by the screenshots' locale only). */
const money = (value: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'BRL' }).format(value);
const rate = (value: number) => `${new Intl.NumberFormat('en', { maximumFractionDigits: 4 }).format(value)} %`;

/** Brazil has kept UTC−03:00 all year since 2019: the browser runs in this zone so the offset shows. */
const ZONE = 'America/Sao_Paulo';
const OFFSET = '-03:00';
/** A `datetime-local` value (with seconds) for an instant, on São Paulo's wall clock. */
function wallClock(date: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(date)
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

const STORE = 'store-console-orders';
const NO_GROUP_STORE = 'store-console-no-group';
const MATRIX = {
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '20',
    ICMS_rate: 18,
    ICMS_base_reduction: 33.33,
    FCP_rate: 2,
    CST_PIS: '01',
    PIS_rate: 1.65,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
    CFOP: '5102',
    CST_IBSCBS: '000',
    cClassTrib: '000001',
    IBS_UF_rate: 0.1,
    IBS_Mun_rate: 0,
    CBS_rate: 0.9,
  },
  '22021000': {
    NCM: '22021000',
    CEST: '0300700',
    CST_ICMS: '60',
    ICMS_rate: 18,
    CST_PIS: '04',
    PIS_rate: 0.65,
    CST_COFINS: '04',
    COFINS_rate: 3,
    CFOP: '5405',
  },
  // A heading fallback: the cheese (04069090) matches key 0406.
  '0406': {
    NCM: '0406',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 12,
    CST_PIS: '01',
    PIS_rate: 0.65,
    CST_COFINS: '01',
    COFINS_rate: 3,
    CFOP: '5102',
  },
};

/** Burger ×2 with extra cheese and an unknown topping (a warning on the modifier), a cola, an unknown item (a warning on line 3). */
function orderBody(orderId: string, storeId = STORE): Record<string, unknown> {
  return {
    orderId,
    source: 'ifood',
    store: { id: storeId, name: 'Console burgers' },
    customer: { name: 'Ana Lima' },
    order: {
      type: 'DELIVERY',
      products: [
        {
          productId: 'c-burger',
          name: 'Burger',
          quantity: 2,
          price: { totalPrice: { total: 51.8 } },
          modifierGroups: [
            {
              name: 'Extras',
              selectedModifiers: [
                { productId: 'c-cheese', name: 'Extra cheese', quantity: 2, price: { totalPrice: { total: 7 } } },
                { productId: 'c-unknown-topping', name: 'Mystery topping', quantity: 1, price: { totalPrice: { total: 1.5 } } },
              ],
            },
          ],
        },
        { productId: 'c-cola', name: 'Cola can 350 ml', quantity: 1, price: { totalPrice: { total: 6 } } },
        { productId: 'c-mystery', name: 'Mystery box', quantity: 1, price: { totalPrice: { total: 10 } } },
      ],
    },
    total: { items: 76.3, delivery: 0, orderAmount: 76.3 },
    payments: [{ method: 'PIX', value: 76.3 }],
  };
}

interface LineTax {
  [field: string]: unknown;
  ICMS_base: number;
  ICMS_rate: number;
  ICMS_value: number;
  FCP_value: number;
  PIS_base: number;
  PIS_rate: number;
  PIS_value: number;
  COFINS_base: number;
  COFINS_rate: number;
  COFINS_value: number;
  total_tax: number;
  matchedKey: string;
}

describeWithBrowser('admin console: orders list and order detail (browser e2e)', () => {
  let receiver: WebhookReceiver;
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let token: string;
  /** The order the tests look at, forwarded to the receiver once; and another one of the same store, three hours older. */
  const orderId = `CONSOLE-${Date.now()}-A`;
  const olderOrderId = `CONSOLE-${Date.now()}-B`;
  let orderDbId: string;

  beforeAll(async () => {
    receiver = await WebhookReceiver.start();
    t = await bootTestApp({ ORDER_WEBHOOK_URL: receiver.url, ORDER_WEBHOOK_TIMEOUT_MS: '5000' });
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    token = await t.adminToken();

    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Console orders SP',
        externalId: 'ERP-CONSOLE-1',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: STORE, store_name: 'Console burgers' }],
        taxMatrix: MATRIX,
      },
      { token },
    );
    expect(group.status).toBe(201);
    for (const category of [
      { productId: 'c-burger', productName: 'Burger', ncm: '21069090' },
      { productId: 'c-cola', productName: 'Cola', ncm: '22021000' },
      { productId: 'c-cheese', productName: 'Cheese', ncm: '04069090' },
    ]) {
      expect((await t.http.post('/admin/product-fiscal-categories', category, { token })).status).toBe(201);
    }
    // A point-of-sale label for ACCEPTED, so the history shows what the POS sent.
    const aliases = await t.http.get<Schemas['StatusAliasesDto']>('/admin/status-aliases', { token });
    const put = await t.http.put(
      '/admin/status-aliases',
      { aliases: [...aliases.body.aliases, { label: 'Pedido Confirmado PDV', status: 'ACCEPTED' }] },
      { token },
    );
    expect(put.status).toBe(200);

    for (const id of [olderOrderId, orderId]) {
      const forwarded = await t.http.post('/enrich-order-forward', orderBody(id), { token });
      expect(forwarded.status).toBe(200);
    }
    // Moved back in SQL: created_at keeps its microseconds, which an entity write (a JavaScript Date) would drop.
    await t.dataSource.query(`UPDATE orders SET created_at = created_at - interval '3 hours' WHERE order_id = $1`, [olderOrderId]);
    expect((await t.http.post('/api/order/status', { order_id: orderId, status: 'Pedido Confirmado PDV' }, { token })).status).toBe(200);
    const tracked = await t.http.post(
      '/api/order/tracking',
      {
        order_id: orderId,
        status: 'PACKING',
        trackingInfo: {
          trackurl: 'https://t.example/console',
          trackingNumber: 'BR-CONSOLE-1',
          deliveryConfirmationCode: '4821',
          shippingCoordinates: [],
        },
      },
      { token },
    );
    expect(tracked.status).toBe(200);
    orderDbId = (await t.http.get<Schemas['OrderDetailDto']>(`/admin/orders/${orderId}`, { token })).body.id;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await receiver?.close();
  });

  const detailOf = async (id: string) => {
    const response = await t.http.get<Schemas['OrderDetailDto']>(`/admin/orders/${encodeURIComponent(id)}`, { token });
    expect(response.status).toBe(200);
    return response.body;
  };

  async function inputError(page: Page, label: string): Promise<{ invalid: string | null; described: string }> {
    const input = page.getByLabel(label, { exact: true });
    const invalid = await input.getAttribute('aria-invalid');
    const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
    const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
    return { invalid, described: texts.join(' ') };
  }

  /** The text of one cell of a tax table: the row of `tax`, the column `field` (first line: the money, without its note). */
  async function cell(page: Page, table: string, tax: string, field: string): Promise<string> {
    const text = await page
      .getByRole('table', { name: table, exact: true })
      .locator(`tr[data-tax="${tax}"] [data-field="${field}"]`)
      .innerText();
    return text.split('\n')[0]!.trim();
  }

  it('filters the list by store and a date range (in the URL), opens the order, and shows the API’s taxes', async () => {
    const { page, errors, context } = await openConsole(browser, { timezoneId: ZONE });
    await signIn(page, origin, '/console/orders');
    await page.getByRole('heading', { level: 1, name: 'Orders' }).waitFor();
    await page.getByTestId('orders-table').waitFor();

    const from = wallClock(new Date(Date.now() - 30 * 60_000));
    const to = wallClock(new Date(Date.now() + 30 * 60_000));
    await page.getByLabel('Store id', { exact: true }).fill(STORE);
    await page.getByLabel('Created from', { exact: true }).fill(from);
    await page.getByLabel('Created until', { exact: true }).fill(to);
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.waitForURL(/storeId=/);
    const params = new URL(page.url()).searchParams;
    expect(Object.fromEntries(params)).toEqual({ storeId: STORE, createdFrom: `${from}${OFFSET}`, createdTo: `${to}${OFFSET}` });

    // Only the newer order: the older one of the same store is outside the range.
    const api = await t.http.get<Schemas['OrderPageDto']>('/admin/orders', { token, query: Object.fromEntries(params) });
    expect(api.body.total).toBe(1);
    await page.getByTestId('orders-summary').filter({ hasText: '1 order, page 1 of 1' }).waitFor();
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().getAttribute('data-order-id')).resolves.toBe(orderId);
    const listed = api.body.items[0]!.enrichedPayload as Enriched;
    await expect(rows.first().locator('[data-field="totalTax"]').innerText()).resolves.toBe(money(listed.taxSummary.totals.total_tax));
    await expect(rows.first().locator('[data-field="orderAmount"]').innerText()).resolves.toBe(money(76.3));
    await expect(rows.first().locator('[data-status]').innerText()).resolves.toBe('Accepted');

    // The link holds the filters: a reload (or a shared link) shows the same list, the inputs filled in.
    await page.reload();
    await rows.first().waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(page.getByLabel('Store id', { exact: true }).inputValue()).resolves.toBe(STORE);
    // (the browser leaves out zero seconds)
    await expect(page.getByLabel('Created from', { exact: true }).inputValue()).resolves.toBe(from.replace(/:00$/, ''));
    // Widening the range brings the older order back.
    await page.getByLabel('Created from', { exact: true }).fill(wallClock(new Date(Date.now() - 5 * 3600_000)));
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.getByTestId('orders-summary').filter({ hasText: '2 orders, page 1 of 1' }).waitFor();

    await page.getByRole('link', { name: `Open order ${orderId}` }).click();
    await page.waitForURL(`${origin}/console/orders/${orderDbId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();

    const detail = await detailOf(orderDbId);
    // The stored payload is plain JSON in the document: read in its documented shape.
    const enriched = detail.enrichedPayload as Enriched;
    const burger = enriched.order!.products![0]!.tax as LineTax;
    const cheese = enriched.order!.products![0]!.modifierGroups![0]!.selectedModifiers![0]!.tax as LineTax;
    const cola = enriched.order!.products![1]!.tax as LineTax;
    const totals = enriched.taxSummary.totals;

    // Line 1 (reduced ICMS base, FCP, PIS/COFINS on the base without ICMS).
    const line1 = 'Taxes of line 1';
    await page.getByRole('table', { name: line1, exact: true }).waitFor();
    for (const [tax, base, rateValue, value] of [
      ['ICMS', burger.ICMS_base, burger.ICMS_rate, burger.ICMS_value],
      ['PIS', burger.PIS_base, burger.PIS_rate, burger.PIS_value],
      ['COFINS', burger.COFINS_base, burger.COFINS_rate, burger.COFINS_value],
    ] as const) {
      expect(await cell(page, line1, tax, 'value')).toBe(money(value));
      expect(await cell(page, line1, tax, 'base')).toBe(money(base));
      expect(await cell(page, line1, tax, 'rate')).toBe(rate(rateValue));
    }
    expect(await cell(page, line1, 'FCP', 'value')).toBe(money(burger.FCP_value));
    expect(await cell(page, line1, 'CBS', 'value')).toBe(money(burger.CBS_value as number));
    expect(await cell(page, line1, 'total_tax', 'value')).toBe(money(burger.total_tax));
    await expect(
      page.getByRole('table', { name: line1, exact: true }).locator('tr[data-tax="ICMS"] [data-field="base"]').innerText(),
    ).resolves.toContain('base reduced by 33.33 %');
    // The modifier has its own taxes, matched through the heading fallback.
    const modifier = 'Taxes of line 1, modifier 1.1';
    expect(await cell(page, modifier, 'ICMS', 'value')).toBe(money(cheese.ICMS_value));
    expect(await cell(page, modifier, 'total_tax', 'value')).toBe(money(cheese.total_tax));
    expect(cheese.matchedKey).toBe('0406');
    await expect(page.locator('#tax-line-0-modifier-0-0').innerText()).resolves.toContain('0406');
    // The cola: zero ICMS/PIS/COFINS, with the reasons.
    expect(await cell(page, 'Taxes of line 2', 'ICMS', 'value')).toBe(money(cola.ICMS_value));
    await expect(
      page.getByRole('table', { name: 'Taxes of line 2', exact: true }).locator('tr[data-tax="ICMS"]').innerText(),
    ).resolves.toContain('CST 60');
    // The document totals.
    const totalsTable = page.getByTestId('tax-totals');
    for (const [tax, value] of [
      ['base', totals.base],
      ['ICMS', totals.ICMS_value],
      ['FCP', totals.FCP_value],
      ['PIS', totals.PIS_value],
      ['COFINS', totals.COFINS_value],
      ['total_tax', totals.total_tax],
    ] as const) {
      await expect(totalsTable.locator(`tr[data-tax="${tax}"] [data-field="value"]`).innerText()).resolves.toBe(money(value!));
    }
    await expect(page.getByText('ERP-CONSOLE-1').count()).resolves.toBeGreaterThan(0);

    // Each warning links to its line (or modifier), which is highlighted and focused.
    const warnings = enriched.taxSummary.warnings as { code: WarningCode; path: string; message: string }[];
    expect(warnings.map((w) => w.path).sort()).toEqual(['order.products[0].modifierGroups[0].selectedModifiers[1]', 'order.products[2]']);
    const items = page.getByTestId('tax-warning');
    await expect(items.count()).resolves.toBe(warnings.length);
    for (const [path, linkName, target] of [
      ['order.products[2]', 'Go to line 3', 'tax-line-2'],
      ['order.products[0].modifierGroups[0].selectedModifiers[1]', 'Go to line 1, modifier 1.2', 'tax-line-0-modifier-0-1'],
    ] as const) {
      const item = items.filter({ hasText: path });
      const warning = warnings.find((w) => w.path === path)!;
      // What the code means, then the service's own sentence, marked as English.
      await expect(item.innerText()).resolves.toContain(taxBreakdownMessages.en.warningText[warning.code]);
      await expect(item.locator('[lang="en"]').innerText()).resolves.toBe(warning.message);
      const link = item.getByRole('link', { name: linkName });
      await expect(link.getAttribute('href')).resolves.toBe(`#${target}`);
      await link.click();
      await page.locator(`#${target}[data-highlighted="true"]`).waitFor();
      await expect(page.evaluate('document.activeElement && document.activeElement.id')).resolves.toBe(target);
      await expect(page.locator(`#${target}`).innerText()).resolves.toContain('Not taxed');
      // The followed link leaves the line's fragment in the URL: a reload (or a shared link) highlights it again.
      expect(new URL(page.url()).hash).toBe(`#${target}`);
    }
    await page.reload();
    await page.locator('#tax-line-0-modifier-0-1[data-highlighted="true"]').waitFor();
    await expect(page.evaluate('document.activeElement && document.activeElement.id')).resolves.toBe('tax-line-0-modifier-0-1');

    // The history, with the label the POS sent; the tracking; the forward delivery.
    const entries = page.getByTestId('history-entry');
    await expect(entries.count()).resolves.toBe(detail.history.length);
    expect(detail.history.at(-1)).toMatchObject({ status: 'ACCEPTED', label: 'Pedido Confirmado PDV' });
    await expect(entries.last().innerText()).resolves.toContain('Sent as “Pedido Confirmado PDV”');
    await expect(entries.last().innerText()).resolves.toContain('POST /api/api/order/status');
    await expect(page.getByRole('table', { name: 'Tracking updates' }).innerText()).resolves.toContain('BR-CONSOLE-1');
    await expect(page.getByTestId('delivery').count()).resolves.toBe(1);

    // The payloads as collapsible, pretty-printed JSON.
    await page.getByText('Enriched payload (JSON)').click();
    const pre = page.getByRole('region', { name: 'Enriched payload (JSON)' });
    await expect(pre.innerText()).resolves.toContain(`"orderId": "${orderId}"`);
    await expect(pre.innerText()).resolves.toContain('"taxSummary": {');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('redelivers after confirmation, shows the outcome and the new attempt (and the API’s problem on a failure)', async () => {
    const before = receiver.requests.length;
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, `/console/orders/${orderId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();
    const deliveries = page.getByTestId('delivery');
    await expect(deliveries.count()).resolves.toBe(1);

    // Cancel first: nothing is sent.
    await page.getByRole('button', { name: 'Redeliver' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send this order to the webhook again?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(receiver.requests.length).toBe(before);

    await page.getByRole('button', { name: 'Redeliver' }).click();
    const answered = page.waitForResponse((r) => r.url().endsWith('/redeliver') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Redeliver' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    const body = (await response.json()) as { message: string; webhookStatusCode: number; attempt: number };
    expect(body).toMatchObject({ webhookStatusCode: 200, attempt: 2 });
    expect(body.message).toContain('(attempt 2)');
    // Said by the console from the answer's fields, in the reader's language, not the server's sentence.
    await page.getByTestId('redeliver-outcome').filter({ hasText: 'Redelivered: the webhook answered 200 (attempt 2)' }).waitFor();
    await receiver.waitForRequests(before + 1);
    const [forwarded] = receiver.requests.filter((request) => forwardedPayload(request).orderId === orderId);
    expect(receiver.requests.at(-1)!.headers['webhook-id']).toBe(forwarded!.headers['webhook-id']);
    // The deliveries were refreshed: the new attempt is listed as the API has it.
    const second = page.locator('[data-testid="delivery"][data-attempt="2"]');
    await second.waitFor();
    const logged = (await detailOf(orderId)).deliveries;
    expect(logged.map((d) => [d.attempt, d.trigger, d.statusCode])).toEqual([
      [1, 'forward', 200],
      [2, 'redeliver', 200],
    ]);
    await expect(second.getByTestId('delivery-trigger').innerText()).resolves.toBe('redeliver');
    await expect(second.getByTestId('delivery-status').innerText()).resolves.toBe('HTTP 200');
    await expect(second.innerText()).resolves.toContain(`${logged[1]!.durationMs} ms`);
    await expect(page.getByTestId('webhook-attempts').innerText()).resolves.toBe('2');
    // The request headers (no secret) and the answer's body.
    await second.getByText('Request headers of attempt 2').click();
    await expect(second.getByRole('table', { name: 'Request headers of attempt 2' }).innerText()).resolves.toContain('webhook-id');
    await second.getByText('Response body of attempt 2 (first 4 KiB)').click();
    await expect(second.getByTestId('delivery-body').innerText()).resolves.toBe('ok');

    // The webhook refuses: the API's 502 and its message, and attempt 3 with the receiver's answer.
    receiver.respondWith(answer(503, 'maintenance window'));
    await page.getByRole('button', { name: 'Redeliver' }).click();
    const refused = page.waitForResponse((r) => r.url().endsWith('/redeliver') && r.request().method() === 'POST');
    await dialog.getByRole('button', { name: 'Redeliver' }).click();
    expect((await refused).status()).toBe(502);
    const problem = (await (await refused).json()) as { message: string };
    await page
      .getByTestId('redeliver-outcome')
      .filter({ hasText: `Redelivery failed (502): ${problem.message}` })
      .waitFor();
    const third = page.locator('[data-testid="delivery"][data-attempt="3"]');
    await third.waitFor();
    await expect(third.getByTestId('delivery-status').innerText()).resolves.toBe('HTTP 503');
    await third.getByText('Response body of attempt 3 (first 4 KiB)').click();
    await expect(third.getByTestId('delivery-body').innerText()).resolves.toBe('maintenance window');

    expect(withoutExpected(errors, [502])).toEqual([]);
    await context.close();
  });

  it('an order without taxes: says so, and a redelivery shows the API’s 409', async () => {
    const failedId = `CONSOLE-${Date.now()}-FAILED`;
    expect((await t.http.post('/enrich-order', orderBody(failedId, NO_GROUP_STORE), { token })).status).toBe(422);
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, `/console/orders/${failedId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${failedId}` }).waitFor();
    await page.getByText('This order has no enriched payload').waitFor();
    await page.getByRole('button', { name: 'Redeliver' }).click();
    const answered = page.waitForResponse((r) => r.url().endsWith('/redeliver'));
    await page.getByRole('dialog').getByRole('button', { name: 'Redeliver' }).click();
    expect((await answered).status()).toBe(409);
    const problem = (await (await answered).json()) as { message: string };
    await page
      .getByTestId('redeliver-outcome')
      .filter({ hasText: `Redelivery failed (409): ${problem.message}` })
      .waitFor();
    // The payload as received is still there.
    await page.getByText('Payload as received (JSON)').click();
    await expect(page.getByRole('region', { name: 'Payload as received (JSON)' }).innerText()).resolves.toContain(
      `"orderId": "${failedId}"`,
    );
    expect(withoutExpected(errors, [409])).toEqual([]);
    await context.close();
  });

  it('shows the value of an order sent without a total: the sum of its lines and their modifiers', async () => {
    const bareId = `CONSOLE-${Date.now()}-NO-TOTAL`;
    // A store of no group: the order is stored as received, and the other tests' counts of STORE stay as they are.
    const body = orderBody(bareId, NO_GROUP_STORE);
    delete body.total;
    expect((await t.http.post('/enrich-order', body, { token })).status).toBe(422);
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, `/console/orders?orderId=${bareId}`);
    const row = page.getByTestId('orders-table').locator(`tbody tr[data-order-id="${bareId}"]`);
    await row.waitFor();
    // 51.80 (burger) + 7.00 + 1.50 (its two modifiers) + 6.00 (cola) + 10.00 (mystery box) = 76.30
    await expect(row.locator('[data-field="orderAmount"]').innerText()).resolves.toBe(`${money(76.3)}\nsum of the lines`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('empty, refused (400 at its field), unavailable (503 with retry), not found (404) and expired session (401)', async () => {
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/orders?storeId=nobody-sells-here');
    await page.getByText('No order matches these filters.').waitFor();

    // A bad link: the API's details sit at their fields.
    const query = { createdFrom: 'yesterday', minWebhookAttempts: '3', maxWebhookAttempts: '2' };
    const direct = await t.http.get<ErrorBody>('/admin/orders', { token, query });
    expect(direct.status).toBe(400);
    const problemOf = (field: string) => direct.body.details!.find((d) => d.field === field)!.problem;
    await page.goto(`${origin}/console/orders?${new URLSearchParams(query).toString()}`);
    await page.getByRole('alert').filter({ hasText: 'The API refused these filters' }).waitFor();
    const created = await inputError(page, 'Created from');
    expect(created.invalid).toBe('true');
    expect(created.described).toContain(problemOf('createdFrom'));
    const min = await inputError(page, 'Webhook attempts, at least');
    expect(min.invalid).toBe('true');
    expect(min.described).toContain(problemOf('minWebhookAttempts'));
    expect((await inputError(page, 'Store id')).invalid).not.toBe('true');

    // The service is unavailable: a retry, not a blank page.
    let unavailable = true;
    await page.route(/\/api\/admin\/orders(\?|$)/, (route) =>
      unavailable
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'UNAVAILABLE', message: 'Database down' }),
          })
        : route.fallback(),
    );
    await page.goto(`${origin}/console/orders?storeId=${STORE}`);
    await page.getByText('The service is unavailable right now.').waitFor({ timeout: 20_000 });
    unavailable = false;
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.getByTestId('orders-table').waitFor();
    await page.unroute(/\/api\/admin\/orders(\?|$)/);

    // Pages: newest first, the page in the URL.
    await page.goto(`${origin}/console/orders?storeId=${STORE}&pageSize=1`);
    await page.getByTestId('orders-summary').filter({ hasText: '2 orders, page 1 of 2' }).waitFor();
    const rows = page.getByTestId('orders-table').locator('tbody tr');
    await expect(rows.first().getAttribute('data-order-id')).resolves.toBe(orderId);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByTestId('orders-summary').filter({ hasText: '2 orders, page 2 of 2' }).waitFor();
    expect(Object.fromEntries(new URL(page.url()).searchParams)).toEqual({ storeId: STORE, pageSize: '1', page: '2' });
    await expect(rows.first().getAttribute('data-order-id')).resolves.toBe(olderOrderId);

    // An order too large for the API to send its payloads (payloadOmitted): said so, nothing breaks.
    const detailRoute = new RegExp(`/api/admin/orders/${orderId}$`);
    await page.route(detailRoute, async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...body, payload: null, enrichedPayload: null, payloadOmitted: 'ORDER_TOO_LARGE' } });
    });
    await page.goto(`${origin}/console/orders/${orderId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();
    await expect(page.getByText('The order’s JSON is over 32 MiB').count()).resolves.toBeGreaterThan(0);
    await page.getByText('Payload as received: Not available.').waitFor();
    await expect(page.getByTestId('tax-breakdown').count()).resolves.toBe(0);
    await page.unroute(detailRoute);

    await page.goto(`${origin}/console/orders/no-such-order`);
    await page.getByRole('heading', { level: 1, name: 'Order no-such-order not found.' }).waitFor();
    await page.getByRole('link', { name: 'Back to orders' }).waitFor();

    // The session ends (idle, signed out elsewhere): sign in again and come back to the same order.
    await page.goto(`${origin}/console/orders/${orderId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();
    await context.clearCookies();
    await page.reload();
    await page.getByText('Your session expired').waitFor();
    await page.locator('input[name="password"]').fill(DEVELOPMENT_ADMIN.password);
    await page.locator('form button[type="submit"]').click();
    await page.waitForURL(`${origin}/console/orders/${orderId}`);
    await page.getByRole('heading', { level: 1, name: `Order ${orderId}` }).waitFor();

    expect(withoutExpected(errors, [400, 401, 404, 503])).toEqual([]);
    await context.close();
  });

  it('has no serious accessibility violation; screenshots; no page-wide overflow at 390 px', async () => {
    for (const [viewport, suffix, locale] of [
      [DESKTOP, 'desktop', 'en-US'],
      [PHONE, 'phone', 'pt-BR'],
    ] as const) {
      const { page, errors, context } = await openConsole(browser, { viewport, locale, timezoneId: ZONE });
      await signIn(page, origin, `/console/orders?storeId=${STORE}`);
      await page.getByTestId('orders-table').locator('tbody tr').first().waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      if (locale === 'pt-BR') await page.getByRole('heading', { level: 1, name: 'Pedidos' }).waitFor();
      const listOverflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(listOverflow).toBeLessThanOrEqual(0);
      await screenshot(page, `orders-${suffix}`);

      await page.goto(`${origin}/console/orders/${orderDbId}`);
      await page.getByRole('table', { name: locale === 'pt-BR' ? 'Impostos da linha 1' : 'Taxes of line 1', exact: true }).waitFor();
      await page.locator('[data-testid="delivery"]').first().waitFor();
      if (locale === 'pt-BR') {
        // An accountant reads what each warning means in Portuguese; the service's English sentence follows, marked so.
        const shown = page.getByTestId('tax-warning');
        await expect(shown.count()).resolves.toBe(2);
        for (const text of await shown.allInnerTexts()) {
          expect(Object.values(taxBreakdownMessages['pt-BR'].warningText).some((explanation) => text.includes(explanation))).toBe(true);
        }
        await expect(shown.locator('[lang="en"]').count()).resolves.toBe(2);
      }
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      // Nothing wider than the screen: the tax tables scroll inside their own containers.
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `order-detail-${suffix}`);
      // With the JSON and a delivery's details open, still nothing serious.
      await page.locator('#order-payloads').locator('summary').first().click();
      await page.locator('[data-testid="delivery"] summary').first().click();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
