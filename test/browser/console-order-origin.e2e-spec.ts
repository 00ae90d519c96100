import type { Browser, Page } from 'playwright-core';
import { fiscalGroup, productCategory, taxMatrixWith } from '../factories/index.js';
import { personWith } from '../support/people.js';
import { platformOrder, testCustomer } from '../support/personal-data.js';
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
} from '../support/console-browser.js';

/** Money as the console writes it in each language (pt-BR puts a no-break space after R$). */
const money = (value: number, locale = 'en') => new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' }).format(value);

const STORE = 'store-console-origin';
const SHORT_NUMBER = '7351';

/** iFood's order details: a cart benefit of 11.00, 6.00 the store's and 5.00 iFood's, delivered by the store. */
function ifoodOrder(id: string) {
  return {
    id,
    displayId: SHORT_NUMBER,
    orderType: 'DELIVERY',
    merchant: { id: STORE, name: 'Origin burgers' },
    delivery: { mode: 'DEFAULT', deliveredBy: 'MERCHANT' },
    items: [
      { index: 1, id: 'item-burger', name: 'Burger', externalCode: 'origin-burger', quantity: 2, unitPrice: 30, price: 60, totalPrice: 60 },
    ],
    benefits: [
      {
        value: 11,
        target: 'CART',
        sponsorshipValues: [
          { name: 'MERCHANT', value: 6 },
          { name: 'IFOOD', value: 5 },
        ],
      },
    ],
    total: { subTotal: 60, deliveryFee: 0, benefits: 11, additionalFees: 0, orderAmount: 49 },
  };
}

/** The texts of the marketplace cell of the row of `orderId`. */
async function marketplaceCell(page: Page, orderId: string): Promise<string[]> {
  const cell = page.locator(`tr[data-order-id="${orderId}"] [data-field="marketplace"]`);
  await cell.waitFor();
  return (await cell.evaluate((element) => [...element.childNodes].map((node) => node.textContent ?? ''))).filter((part) => part !== '');
}

const listedOrderIds = (page: Page) =>
  page.locator('tr[data-order-id]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-order-id')));

async function search(page: Page, text: string, button: string): Promise<void> {
  const answered = page.waitForResponse((response) => response.url().includes('/api/admin/orders?') && response.url().includes('q='));
  await page.locator('input[name="q"]').fill(text);
  await page.getByRole('button', { name: button, exact: true }).click();
  await answered;
}

describeWithBrowser('admin console: where an order came from, and the search box (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  const ifoodId = `5d0f3a71-2c4b-4e8a-9f61-${String(Date.now()).slice(-12)}`;
  const platformId = `ORIGIN-SITE-${Date.now()}`;
  const customer = testCustomer(`origin${process.pid}`);

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    await fiscalGroup(t.dataSource, { stores: [STORE], taxMatrix: taxMatrixWith(18) });
    await productCategory(t.dataSource, { productId: 'origin-burger' });
    const orders = await t.tokenFor(['orders']);
    const ifood = await t.http.post('/enrich-order?profile=ifood', ifoodOrder(ifoodId), { token: orders });
    const platform = await t.http.post('/enrich-order', platformOrder(platformId, STORE, customer), { token: orders });
    expect([ifood.status, platform.status]).toEqual([200, 200]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists the marketplace and its number, searches by the short number and the customer, filters by marketplace (English, admin)', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, '/console/orders');
    await page.getByTestId('orders-table').waitFor();
    expect(await marketplaceCell(page, ifoodId)).toEqual(['iFood', `No. ${SHORT_NUMBER}`]);
    expect(await marketplaceCell(page, platformId)).toEqual(['The platform', 'Source “site”']);
    await page.getByText('or the customer’s e-mail, phone or CPF/CNPJ', { exact: false }).waitFor();

    await search(page, SHORT_NUMBER, 'Filter');
    expect(new URL(page.url()).searchParams.get('q')).toBe(SHORT_NUMBER);
    await page.getByTestId('orders-summary').getByText('1 order,', { exact: false }).waitFor();
    expect(await listedOrderIds(page)).toEqual([ifoodId]);

    await search(page, customer.email, 'Filter');
    await page.locator(`tr[data-order-id="${platformId}"]`).waitFor();
    expect(await listedOrderIds(page)).toEqual([platformId]);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('combobox', { name: 'Marketplace' }).selectOption('ifood');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('source') === 'ifood');
    await page.locator(`tr[data-order-id="${platformId}"]`).waitFor({ state: 'detached' });
    expect(await listedOrderIds(page)).toEqual([ifoodId]);

    await page.getByRole('link', { name: `Open order ${ifoodId}` }).click();
    const originSection = page.getByRole('region', { name: 'Where it came from' });
    await originSection.waitFor();
    expect(await page.getByTestId('order-marketplace').textContent()).toBe('iFood');
    expect(await page.getByTestId('marketplace-order-number').textContent()).toBe(SHORT_NUMBER);
    await originSection.getByText('Given by the store', { exact: true }).waitFor();
    expect(await page.getByTestId('sponsor-store').textContent()).toBe(money(6));
    await originSection.getByText('Paid back by the platform', { exact: true }).waitFor();
    expect(await page.getByTestId('sponsor-platform').textContent()).toBe(money(5));

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'order-origin-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says the same in Portuguese at 390 px, nothing wider than the screen', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: PHONE, locale: 'pt-BR' });
    await signIn(page, origin, '/console/orders');
    await page.getByTestId('orders-table').waitFor();
    expect(await marketplaceCell(page, ifoodId)).toEqual(['iFood', `Nº ${SHORT_NUMBER}`]);
    expect(await marketplaceCell(page, platformId)).toEqual(['A plataforma', 'Origem “site”']);
    await search(page, SHORT_NUMBER, 'Filtrar');
    expect(await listedOrderIds(page)).toEqual([ifoodId]);
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    await page.goto(`${origin}/console/orders/${encodeURIComponent(ifoodId)}`);
    const originSection = page.getByRole('region', { name: 'De onde veio' });
    await originSection.waitFor();
    await originSection.getByText('Número do pedido no marketplace', { exact: true }).waitFor();
    expect(await page.getByTestId('marketplace-order-number').textContent()).toBe(SHORT_NUMBER);
    await originSection.getByText('Dados pela loja', { exact: true }).waitFor();
    expect(await page.getByTestId('sponsor-store').textContent()).toBe(money(6, 'pt-BR'));
    await originSection.getByText('Reembolsados pela plataforma', { exact: true }).waitFor();
    expect(await page.getByTestId('sponsor-platform').textContent()).toBe(money(5, 'pt-BR'));

    await page.goto(`${origin}/console/orders/${encodeURIComponent(platformId)}`);
    await page.getByTestId('order-marketplace').getByText('A plataforma (pedido dela)', { exact: true }).waitFor();
    expect(await page.getByTestId('marketplace-order-number').textContent()).toBe('nenhum');

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'order-origin-phone-pt');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a support person's search box does not look at customers, and says so", async () => {
    const support = await personWith(t, 'support');
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, '/console/orders', support);
    await page.getByTestId('orders-table').waitFor();
    const describedBy = await page.locator('input[name="q"]').getAttribute('aria-describedby');
    const hint = await page.locator(`[id="${describedBy}"]`).textContent();
    expect(hint).toBe('The exact order id, internal id, marketplace order number (such as iFood’s short number) or store id');

    await search(page, customer.email, 'Filter');
    await page.getByText('No order matches these filters.', { exact: true }).waitFor();
    await search(page, SHORT_NUMBER, 'Filter');
    await page.locator(`tr[data-order-id="${ifoodId}"]`).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
