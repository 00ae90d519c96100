import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import type { Schemas } from '../support/api.js';
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
} from '../support/console-browser.js';
import { personWith } from '../support/people.js';

/** Money as the console writes it in each language (pt-BR puts a no-break space after R$). */
const money = (value: number, locale = 'en') => new Intl.NumberFormat(locale, { style: 'currency', currency: 'BRL' }).format(value);

const STORE = 'store-console-invoice';
const MATRIX = {
  '21069090': {
    NCM: '21069090',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 1.65,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
    CFOP: '5102',
  },
  // No CFOP here, and the group has no default CFOP: an item under this NCM cannot be printed.
  '22021000': {
    NCM: '22021000',
    CEST: '',
    CST_ICMS: '00',
    ICMS_rate: 18,
    CST_PIS: '01',
    PIS_rate: 1.65,
    CST_COFINS: '01',
    COFINS_rate: 7.6,
  },
};

/** A burger of 30.00 with a cheese of 10.00, and fries of 20.00 (items 60.00); the store's coupon of 6.00 and its delivery fee of 9.00. */
function printableOrder(orderId: string): Record<string, unknown> {
  return {
    orderId,
    source: 'console',
    store: { id: STORE, name: 'Invoice burgers' },
    order: {
      type: 'DELIVERY',
      products: [
        {
          productId: 'invoice-burger',
          name: 'Burger',
          quantity: 1,
          price: { totalPrice: { total: 30 } },
          modifierGroups: [
            {
              name: 'Extras',
              selectedModifiers: [{ productId: 'invoice-cheese', name: 'Cheese', quantity: 1, price: { totalPrice: { total: 10 } } }],
            },
          ],
        },
        { productId: 'invoice-fries', name: 'Fries', quantity: 1, price: { totalPrice: { total: 20 } } },
      ],
      discounts: [{ amount: 6, sponsor: 'MERCHANT', target: 'ITEMS', description: 'Cupom BEMVINDO' }],
      deliveryFee: { amount: 9, deliveredBy: 'MERCHANT' },
    },
  };
}

/** A soda whose rule has no CFOP, and a product with no fiscal category (no taxes): neither can be printed. */
function unprintableOrder(orderId: string): Record<string, unknown> {
  return {
    orderId,
    source: 'console',
    store: { id: STORE, name: 'Invoice burgers' },
    order: {
      type: 'TAKEOUT',
      products: [
        { productId: 'invoice-soda', name: 'Soda', quantity: 1, price: { totalPrice: { total: 8 } } },
        { productId: 'invoice-unknown', name: 'Mystery box', quantity: 1, price: { totalPrice: { total: 5 } } },
      ],
    },
  };
}

/*
 * By hand: the coupon and the fee are split over the items in proportion (30 : 10 : 20), the last taking the remainder:
 *   coupon 6.00 (vDesc):  burger 6 × 30/60 = 3.00, cheese 6 × 10/60 = 1.00, fries 6 − 3 − 1 = 2.00
 *   fee 9.00 (vFrete):    burger 9 × 30/60 = 4.50, cheese 9 × 10/60 = 1.50, fries 9 − 4.50 − 1.50 = 3.00
 *   ICMS base (vBC):      burger 30 − 3 + 4.50 = 31.50, cheese 10 − 1 + 1.50 = 10.50, fries 20 − 2 + 3 = 21.00
 *   vICMS 18 %:           burger 5.67, cheese 1.89, fries 3.78
 *   PIS/COFINS base = vBC − vICMS: burger 25.83, cheese 8.61, fries 17.22
 *   vPIS 1.65 %:          25.83 → 0.426195 → 0.43; 8.61 → 0.142065 → 0.14; 17.22 → 0.28413 → 0.28
 *   vCOFINS 7.6 %:        25.83 → 1.96308 → 1.96; 8.61 → 0.65436 → 0.65; 17.22 → 1.30872 → 1.31
 * Totals: vProd 60.00, vDesc 6.00, vFrete 9.00, vNF = 60 − 6 + 9 = 63.00; vBC 31.50 + 10.50 + 21.00 = 63.00;
 *   vICMS 5.67 + 1.89 + 3.78 = 11.34; vPIS 0.43 + 0.14 + 0.28 = 0.85; vCOFINS 1.96 + 0.65 + 1.31 = 3.92.
 */

/** The rows of a table named `name` (inside `scope`) as the texts of their cells. */
async function rowsOf(scope: Page | Locator, name: string): Promise<string[][]> {
  const table = scope.getByRole('table', { name, exact: true });
  await table.waitFor();
  const rows = await table.locator('tr').all();
  return Promise.all(rows.map(async (row) => (await row.locator('th, td').allTextContents()).map((text) => text.trim())));
}

describeWithBrowser('admin console: the invoice items of an order (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  const printable = `INVOICE-${Date.now()}`;
  const unprintable = `INVOICE-NO-${Date.now()}`;
  let printableDbId: string;
  let unprintableDbId: string;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    const token = await t.adminToken();
    const group = await t.http.post(
      '/admin/fiscal-groups',
      {
        name: 'Invoice SP',
        uf: 'SP',
        taxRegime: 'LUCRO_PRESUMIDO',
        stores: [{ store_id: STORE, store_name: 'Invoice burgers' }],
        taxMatrix: MATRIX,
      },
      { token },
    );
    expect(group.status).toBe(201);
    for (const [productId, ncm] of [
      ['invoice-burger', '21069090'],
      ['invoice-cheese', '21069090'],
      ['invoice-fries', '21069090'],
      ['invoice-soda', '22021000'],
    ] as const) {
      const category = await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token });
      expect(category.status).toBe(201);
    }
    const ordersToken = await t.tokenFor(['orders']);
    for (const [body, keep] of [
      [printableOrder(printable), (id: string) => (printableDbId = id)],
      [unprintableOrder(unprintable), (id: string) => (unprintableDbId = id)],
    ] as const) {
      const stored = await t.http.post<Schemas['EnrichOrderResponseDto']>('/enrich-order', body, { token: ordersToken });
      expect(stored.status).toBe(200);
      keep(stored.body.orderDbId!);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows the items, their taxes and the totals as the NFC-e prints them, and downloads the XML (English, 1280 px)', async () => {
    const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP });
    await signIn(page, origin, `/console/orders/${printableDbId}`);
    const section = page.getByRole('region', { name: 'Invoice items', exact: true });
    await section.getByRole('button', { name: 'Show the invoice items' }).click();

    const items = await rowsOf(section, 'Items (det)');
    expect(items[0]).toEqual([
      'Item',
      'Product (xProd, cProd)',
      'NCM',
      'CFOP',
      'Quantity (qCom)',
      'Unit price (vUnCom)',
      'Amount (vProd)',
      'Discount (vDesc)',
      'Freight (vFrete)',
      'Other charges (vOutro)',
    ]);
    expect(items.slice(1)).toEqual([
      ['1', 'Burgerinvoice-burger', '21069090', '5102', '1', money(30), money(30), money(3), money(4.5), '—'],
      ['2', 'Cheeseinvoice-cheese', '21069090', '5102', '1', money(10), money(10), money(1), money(1.5), '—'],
      ['3', 'Friesinvoice-fries', '21069090', '5102', '1', money(20), money(20), money(2), money(3), '—'],
    ]);

    const taxes = await rowsOf(section, 'Taxes of the items (imposto)');
    expect(taxes.slice(1, 4)).toEqual([
      ['1', 'ICMS', 'ICMS00', '00', money(31.5), '18 %', money(5.67)],
      ['', 'PIS', 'PISAliq', '01', money(25.83), '1.65 %', money(0.43)],
      ['', 'COFINS', 'COFINSAliq', '01', money(25.83), '7.6 %', money(1.96)],
    ]);
    expect(taxes.slice(4, 7).map((row) => row.slice(0, 2).concat(row.slice(4)))).toEqual([
      ['2', 'ICMS', money(10.5), '18 %', money(1.89)],
      ['', 'PIS', money(8.61), '1.65 %', money(0.14)],
      ['', 'COFINS', money(8.61), '7.6 %', money(0.65)],
    ]);
    expect(taxes[9]!.slice(4)).toEqual([money(17.22), '7.6 %', money(1.31)]);

    const totals = Object.fromEntries(await rowsOf(section, 'Invoice totals'));
    expect(totals).toMatchObject({
      'ICMS base (ICMSTot/vBC)': money(63),
      'ICMS (ICMSTot/vICMS)': money(11.34),
      'PIS (ICMSTot/vPIS)': money(0.85),
      'COFINS (ICMSTot/vCOFINS)': money(3.92),
      'Products (ICMSTot/vProd)': money(60),
      'Discounts (ICMSTot/vDesc)': money(6),
      'Freight (ICMSTot/vFrete)': money(9),
      'Other charges (ICMSTot/vOutro)': money(0),
      'Invoice total (ICMSTot/vNF)': money(63),
    });

    const downloading = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Download the XML' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`nfe-items-${printable}-65.xml`);
    const xml = await readFile((await download.path())!, 'utf8');
    expect(xml).toContain('<NFeItens xmlns="http://www.portalfiscal.inf.br/nfe">');
    expect(xml).toMatch(/<det nItem="3">/);
    expect(xml).toContain('<vICMS>11.34</vICMS>');
    expect(xml).toContain('<vNF>63.00</vNF>');

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'order-invoice-items-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('prints the freight share as vOutro for a model 55 when asked, and a support person reads it too (pt-BR, 390 px)', async () => {
    const support = await personWith(t, 'support');
    const { page, errors, context } = await openConsole(browser, { viewport: PHONE, locale: 'pt-BR' });
    await signIn(page, origin, `/console/orders/${printableDbId}`, support);
    const section = page.getByRole('region', { name: 'Itens da nota fiscal', exact: true });
    await section.getByRole('combobox', { name: 'Modelo' }).selectOption('55');
    await section.getByRole('combobox', { name: 'Rateio do frete impresso como' }).selectOption('vOutro');
    const answered = page.waitForResponse((response) => response.url().includes(`/api/orders/${printable}/nfe?`));
    await section.getByRole('button', { name: 'Mostrar os itens da nota' }).click();
    const query = new URL((await answered).url()).searchParams;
    expect([query.get('model'), query.get('freightAs')]).toEqual(['55', 'vOutro']);

    const items = await rowsOf(section, 'Itens (det)');
    // The burger's 4.50 of freight is printed as other charges.
    expect(items[1]!.slice(6)).toEqual([money(30, 'pt-BR'), money(3, 'pt-BR'), '—', money(4.5, 'pt-BR')]);
    const totals = Object.fromEntries(await rowsOf(section, 'Totais da nota fiscal'));
    expect(totals).toMatchObject({
      'Valor do frete (ICMSTot/vFrete)': money(0, 'pt-BR'),
      'Outras despesas (ICMSTot/vOutro)': money(9, 'pt-BR'),
      'Valor total da nota (ICMSTot/vNF)': money(63, 'pt-BR'),
      'Base de cálculo do ICMS (ICMSTot/vBC)': money(63, 'pt-BR'),
    });
    await section.getByText('Modelo 55, CRT 3, leiaute PL_010_V1.30').waitFor();

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'order-invoice-items-phone-pt');
    expect(errors).toEqual([]);
    await context.close();
  });

  for (const [locale, region, show, table, soda, mystery] of [
    [
      'en-US',
      'Invoice items',
      'Show the invoice items',
      'Why the items cannot be printed',
      'No CFOP: neither its tax rule nor the fiscal group’s default CFOP gives one.',
      'The line has no taxes (the engine left a warning on it), so it has no invoice item.',
    ],
    [
      'pt-BR',
      'Itens da nota fiscal',
      'Mostrar os itens da nota',
      'Por que os itens não podem ser impressos',
      'Sem CFOP: nem a regra do imposto nem o CFOP padrão do grupo fiscal informam um.',
      'A linha não tem impostos (o motor deixou um aviso nela), por isso não tem item na nota.',
    ],
  ] as const) {
    it(`says why each item of an order cannot be printed, in ${locale}`, async () => {
      const { page, errors, context } = await openConsole(browser, { viewport: DESKTOP, locale });
      await signIn(page, origin, `/console/orders/${unprintableDbId}`);
      const section = page.getByRole('region', { name: region, exact: true });
      const answered = page.waitForResponse((response) => response.url().includes(`/api/orders/${unprintable}/nfe`));
      await section.getByRole('button', { name: show }).click();
      const answer = await answered;
      expect(answer.status()).toBe(422);
      const body = (await answer.json()) as { error: string; details: { field: string; code: string }[] };
      expect(body.error).toBe('NFE_NOT_ISSUABLE');
      expect(body.details.map((detail) => [detail.field, detail.code])).toEqual([
        ['order.products[0]', 'NO_CFOP'],
        ['order.products[1]', 'NO_TAX'],
      ]);

      expect((await rowsOf(section, table)).slice(1)).toEqual([
        ['Sodaorder.products[0]', soda, 'NO_CFOP'],
        ['Mystery boxorder.products[1]', mystery, 'NO_TAX'],
      ]);
      expect(await section.getByRole('button', { name: /XML/ }).count()).toBe(0);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      expect(withoutExpected(errors, [422])).toEqual([]);
      await context.close();
    });
  }
});
