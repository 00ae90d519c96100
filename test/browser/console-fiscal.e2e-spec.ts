import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import type { ErrorBody, Schemas } from '../support/api.js';
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

const RULE_22021000 = {
  NCM: '22021000',
  CEST: '0300700',
  CST_ICMS: '60',
  ICMS_rate: 18,
  CST_PIS: '04',
  PIS_rate: 0.65,
  CST_COFINS: '04',
  COFINS_rate: 3,
  CFOP: '5405',
};

describeWithBrowser('admin console: fiscal groups and product fiscal categories (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let token: string;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    token = await t.adminToken();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function createGroup(body: Record<string, unknown>): Promise<{ id: string; name: string }> {
    const response = await t.http.post<Schemas['FiscalGroupResponseDto']>('/admin/fiscal-groups', body, { token });
    expect(response.status).toBe(201);
    return response.body;
  }

  async function inputError(page: Page, label: string | RegExp): Promise<{ invalid: string | null; described: string }> {
    // The field itself, not a suggestion list labelled by the same label (the NCM field's).
    const fields = page.locator('input, textarea, select');
    const input = (typeof label === 'string' ? page.getByLabel(label, { exact: true }) : page.getByLabel(label)).and(fields);
    const invalid = await input.getAttribute('aria-invalid');
    const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/).filter(Boolean);
    const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
    return { invalid, described: texts.join(' ') };
  }

  it('creates a group through the matrix table; a bad cell shows the API problem on that cell', async () => {
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/fiscal-groups/new?storeId=store-fg-1');
    await page.getByRole('heading', { level: 1, name: 'New fiscal group' }).waitFor();
    // The dashboard's link prefills the store.
    await expect(page.getByLabel('Store id, row 1', { exact: true }).inputValue()).resolves.toBe('store-fg-1');

    await page.getByLabel(/^Name( \*)?$/).fill('Restaurants SP');
    await page.getByLabel(/^External id( \*)?$/).fill('ERP-FG-1');
    await page.getByLabel(/^State \(UF\)( \*)?$/).selectOption('SP');
    // The regime offers the known regimes and CRT codes, found by their description too.
    const regime = page.getByRole('combobox', { name: 'Tax regime' });
    await regime.fill('presumido');
    await page.getByRole('option', { name: /^LUCRO_PRESUMIDO/ }).click();
    await expect(regime.inputValue()).resolves.toBe('LUCRO_PRESUMIDO');
    // The invoice settings: a checkbox and a choice, each with its sentence on when to change it.
    await page.getByRole('checkbox', { name: 'Discounts paid by the platform reduce the bases' }).check();
    await page.getByRole('combobox', { name: 'Delivery fee on the invoice' }).selectOption('ALWAYS');
    await page.getByRole('button', { name: 'Add store' }).click();
    await page.getByLabel('Store id, row 2', { exact: true }).fill('store-fg-2');
    await page.getByLabel('Store name, row 2', { exact: true }).fill('Burger House Paulista');

    await page.getByRole('button', { name: 'Add NCM row' }).click();
    await page.getByRole('button', { name: 'Add NCM row' }).click();
    await page.getByLabel('NCM for new row 1', { exact: true }).fill('22021000');
    await page.getByLabel('NCM for new row 2', { exact: true }).fill('1905');
    const fill = async (ncm: string, values: Record<string, string>) => {
      for (const [label, value] of Object.entries(values)) await page.getByLabel(`${label} for NCM ${ncm}`, { exact: true }).fill(value);
    };
    await fill('22021000', {
      CEST: '0300700',
      'ICMS CST': '60',
      'ICMS rate': '18.123456', // more than 4 decimals: refused by the API
      'PIS CST': '04',
      'PIS rate': '0.65',
      'COFINS CST': '04',
      'COFINS rate': '3',
      CFOP: '5405',
    });
    await fill('1905', {
      'ICMS CST': '20',
      'ICMS rate': '12',
      'ICMS base reduction': '33.33',
      'FCP rate': '2',
      'PIS CST': '01',
      'PIS rate': '1,65', // decimal comma accepted
      'COFINS CST': '01',
      'COFINS rate': '7.6',
      'IBS/CBS CST': '000',
      cClassTrib: '000001',
      'State IBS rate': '0.1',
      'Municipal IBS rate': '0',
      'CBS rate': '0.9',
    });

    const refused = page.waitForResponse((r) => r.url().endsWith('/api/admin/fiscal-groups') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Create' }).click();
    const body = (await (await refused).json()) as { details: { field: string; problem: string }[] };
    expect((await refused).status()).toBe(400);
    const detail = body.details.find((d) => d.field === 'taxMatrix.22021000.ICMS_rate');
    expect(detail?.problem).toBeTruthy();
    await page.getByText(detail!.problem).first().waitFor();
    const cell = await inputError(page, 'ICMS rate for NCM 22021000');
    expect(cell.invalid).toBe('true');
    expect(cell.described).toContain(detail!.problem);
    // The other cells are not marked.
    expect((await inputError(page, 'ICMS rate for NCM 1905')).invalid).not.toBe('true');

    await fill('22021000', { 'ICMS rate': '18' });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/console\/fiscal-groups\/[0-9a-f-]{36}$/);
    await page.getByText('Fiscal group created.').waitFor();
    const id = page.url().split('/').pop()!;

    const stored = await t.http.get<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${id}`, { token });
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({
      name: 'Restaurants SP',
      externalId: 'ERP-FG-1',
      uf: 'SP',
      taxRegime: 'LUCRO_PRESUMIDO',
      settings: {
        includeIcmsInPisCofinsBase: false,
        platformDiscountsReduceBase: true,
        deliveryFeeOnInvoice: 'ALWAYS',
        serviceChargeInIcmsBase: false,
      },
    });
    expect(stored.body.stores).toEqual([
      { store_id: 'store-fg-1', store_name: '' },
      { store_id: 'store-fg-2', store_name: 'Burger House Paulista' },
    ]);
    expect(stored.body.taxMatrix).toEqual({
      '1905': {
        NCM: '1905',
        CEST: '',
        CST_ICMS: '20',
        ICMS_rate: 12,
        CST_PIS: '01',
        PIS_rate: 1.65,
        CST_COFINS: '01',
        COFINS_rate: 7.6,
        CST_IBSCBS: '000',
        cClassTrib: '000001',
        IBS_UF_rate: 0.1,
        IBS_Mun_rate: 0,
        CBS_rate: 0.9,
        ICMS_base_reduction: 33.33,
        FCP_rate: 2,
      },
      '22021000': RULE_22021000,
    });
    // The editor shows what was stored.
    await expect(page.getByLabel('ICMS base reduction for NCM 1905', { exact: true }).inputValue()).resolves.toBe('33.33');

    // The list shows it, with its rule count, and filters by store through the URL.
    await page.goto(`${origin}/console/fiscal-groups?storeId=store-fg-2`);
    const row = page.getByRole('row', { name: /Restaurants SP/ });
    await row.waitFor();
    await expect(row.getByTestId('rule-count').textContent()).resolves.toBe('2');
    await expect(page.getByLabel('Store id', { exact: true }).inputValue()).resolves.toBe('store-fg-2');
    await page.goto(`${origin}/console/fiscal-groups?storeId=nobody`);
    await page.getByText('No fiscal group matches these filters.').waitFor();
    await page.getByRole('link', { name: 'New group for store nobody' }).click();
    await page.waitForURL(`${origin}/console/fiscal-groups/new?storeId=nobody`);
    await expect(page.getByLabel('Store id, row 1', { exact: true }).inputValue()).resolves.toBe('nobody');

    expect(withoutExpected(errors, [400])).toEqual([]);
    await context.close();
  });

  it('shows a store held by another group as a conflict naming that group, with a link to it', async () => {
    const holder = await createGroup({
      name: 'Holder group RJ',
      uf: 'RJ',
      stores: [{ store_id: 'store-held-1', store_name: 'Held' }],
      taxMatrix: {},
    });
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/fiscal-groups/new?storeId=store-held-1');
    await page.getByLabel(/^Name( \*)?$/).fill('Newcomer');
    await page.getByLabel(/^State \(UF\)( \*)?$/).selectOption('RJ');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/admin/fiscal-groups') && r.request().method() === 'POST');
    // The holder comes from the 409's STORE_IN_ANOTHER_GROUP details: the console asks nothing more.
    const lookups: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/admin/fiscal-groups?') && request.url().includes('storeId=')) lookups.push(request.url());
    });
    await page.getByRole('button', { name: 'Create' }).click();
    expect((await answer).status()).toBe(409);
    const conflicts = page.getByTestId('store-conflicts');
    await conflicts.waitFor();
    await expect(conflicts.textContent()).resolves.toContain('Store store-held-1 already belongs to the fiscal group');
    expect(lookups).toEqual([]);
    const link = conflicts.getByRole('link', { name: 'Holder group RJ' });
    await expect(link.getAttribute('href')).resolves.toBe(`/console/fiscal-groups/${holder.id}`);
    expect((await inputError(page, 'Store id, row 1')).invalid).toBe('true');
    // Nothing was created.
    const list = await t.http.get<Schemas['FiscalGroupPageDto']>('/admin/fiscal-groups', { token, query: { storeId: 'store-held-1' } });
    expect(list.body.items.map((g) => g.id)).toEqual([holder.id]);
    await link.click();
    await page.getByRole('heading', { level: 1, name: 'Fiscal group Holder group RJ' }).waitFor();
    expect(withoutExpected(errors, [409])).toEqual([]);
    await context.close();
  });

  it('imports a CSV (errors by line number, then a good file dropped) and exports the matrix', async () => {
    const group = await createGroup({
      name: 'CSV group',
      uf: 'MG',
      stores: [{ store_id: 'store-csv-1', store_name: 'CSV store' }],
      taxMatrix: { '22021000': RULE_22021000 },
    });
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, `/console/fiscal-groups/${group.id}`);
    await page.getByRole('heading', { level: 1, name: 'Fiscal group CSV group' }).waitFor();

    const header = 'NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP';
    const bad = `${header}\r\n21069090,,00,18,01,0.65,01,3,5102\r\n1905,,00,150,01,0.65,01,3,5102\r\n`;
    // What the API says about this file, asked directly.
    const direct = await t.http.put<ErrorBody>(`/admin/fiscal-groups/${group.id}/tax-matrix`, undefined, {
      token,
      raw: bad,
      headers: { 'content-type': 'text/csv' },
    });
    expect(direct.status).toBe(400);
    const badLine = direct.body.details?.find((d) => d.line === 3 && d.column === 'ICMS_rate');
    expect(badLine).toBeDefined();

    const picker = page.getByLabel('Choose a CSV file to import');
    await expect(picker.getAttribute('type')).resolves.toBe('file');
    await expect(picker.getAttribute('accept')).resolves.toBe('.csv,text/csv');
    await picker.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const list = page.getByTestId('csv-errors');
    await list.waitFor();
    const items = await list.locator('li').allTextContents();
    expect(items.some((item) => item.startsWith('Line 3:') && item.includes(badLine!.problem))).toBe(true);
    // Nothing changed.
    expect(
      Object.keys((await t.http.get<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${group.id}`, { token })).body.taxMatrix),
    ).toEqual(['22021000']);

    // A good file, dropped on the drop zone.
    const good = `${header}\r\n21069090,,00,12,01,0.65,01,3,5102\r\n1905,,00,7,01,0.65,01,3,\r\n`;
    // A DataTransfer built in the page (the test's TypeScript has no DOM types: the code is a string).
    const transfer = await page.evaluateHandle(
      `(() => { const data = new DataTransfer(); data.items.add(new File([${JSON.stringify(good)}], 'good.csv', { type: 'text/csv' })); return data; })()`,
    );
    await page.getByTestId('csv-drop-zone').dispatchEvent('dragenter', { dataTransfer: transfer });
    await page.getByTestId('csv-drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    await page.getByText('Imported good.csv: 2 NCM rules.').waitFor();
    await expect(page.getByLabel('ICMS rate for NCM 21069090', { exact: true }).inputValue()).resolves.toBe('12');
    await expect(page.getByLabel('ICMS rate for NCM 1905', { exact: true }).inputValue()).resolves.toBe('7');
    expect(await page.getByLabel('ICMS rate for NCM 22021000', { exact: true }).count()).toBe(0);
    const stored = (await t.http.get<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${group.id}`, { token })).body.taxMatrix;
    expect(Object.keys(stored).sort()).toEqual(['1905', '21069090']);
    expect(stored['21069090']?.ICMS_rate).toBe(12);

    // Export: a download whose content is the API's CSV, the token never in a URL.
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.url()).not.toMatch(/eyJ|token/i);
    expect(download.suggestedFilename()).toBe(`tax-matrix-${group.id}.csv`);
    const content = await readFile((await download.path())!, 'utf8');
    const exported = await t.http.get(`/admin/fiscal-groups/${group.id}/tax-matrix.csv`, { token });
    expect(exported.status).toBe(200);
    expect(content).toBe(exported.text);
    expect(content).toContain('21069090,,00,12,');

    expect(withoutExpected(errors, [400])).toEqual([]);
    await context.close();
  });

  it('deletes a group after confirmation', async () => {
    const group = await createGroup({
      name: 'Doomed group',
      uf: 'BA',
      stores: [{ store_id: 'store-doomed', store_name: '' }],
      taxMatrix: {},
    });
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, `/console/fiscal-groups/${group.id}`);
    await page.getByRole('button', { name: 'Delete group' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this fiscal group?' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(`${origin}/console/fiscal-groups`);
    await expect(
      t.http.get<Schemas['FiscalGroupResponseDto']>(`/admin/fiscal-groups/${group.id}`, { token }).then((r) => r.status),
    ).resolves.toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('product fiscal categories: create, search, edit (field errors), delete with confirmation', async () => {
    await t.http.post(
      '/admin/product-fiscal-categories',
      { productId: 'prod-bread', productName: 'Pão francês', ncm: '19059090' },
      { token },
    );
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/categories');
    await page.getByRole('cell', { name: 'prod-bread', exact: true }).waitFor();

    await page.getByRole('button', { name: 'New category' }).click();
    const createDialog = page.getByRole('dialog', { name: 'New product fiscal category' });
    await createDialog.getByLabel(/^Product id( \*)?$/).fill('prod-cola-350');
    await createDialog.getByLabel(/^Product name( \*)?$/).fill('Coca-Cola lata 350 ml');
    await createDialog.getByLabel(/^NCM( \*)?$/).fill('2202');
    await createDialog.getByLabel(/^External product id( \*)?$/).fill('SKU-778899');
    await createDialog.getByRole('button', { name: 'Create' }).click();
    // The API's problem sits at the NCM field.
    await createDialog.getByText('must be an NCM code of 8 digits', { exact: true }).waitFor();
    const ncmError = await inputError(page, /^NCM( \*)?$/);
    expect(ncmError.invalid).toBe('true');
    expect(ncmError.described).toContain('must be an NCM code of 8 digits');
    await createDialog.getByLabel(/^NCM( \*)?$/).fill('22021000');
    await createDialog.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Category prod-cola-350 created.').waitFor();
    const created = await t.http.get('/admin/product-fiscal-categories/prod-cola-350', { token });
    expect(created.body).toMatchObject({ productName: 'Coca-Cola lata 350 ml', ncm: '22021000', externalProductId: 'SKU-778899' });

    await page.getByLabel(/^Search( \*)?$/).fill('cola');
    await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(`${origin}/console/categories?q=cola`);
    await page.getByRole('cell', { name: 'prod-cola-350', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'prod-bread', exact: true }).count()).toBe(0);
    // The search survives a reload (it is in the URL).
    await page.reload();
    await page.getByRole('cell', { name: 'prod-cola-350', exact: true }).waitFor();
    expect(await page.getByRole('cell', { name: 'prod-bread', exact: true }).count()).toBe(0);

    await page.getByRole('button', { name: 'Edit prod-cola-350' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit category of prod-cola-350' });
    await editDialog.getByLabel(/^Product name( \*)?$/).fill('Coca-Cola lata 350 ml (zero)');
    await editDialog.getByLabel(/^NCM( \*)?$/).fill('22029900');
    await editDialog.getByLabel(/^External product id( \*)?$/).fill('');
    await editDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Category prod-cola-350 saved.').waitFor();
    const edited = await t.http.get('/admin/product-fiscal-categories/prod-cola-350', { token });
    expect(edited.body).toMatchObject({ productName: 'Coca-Cola lata 350 ml (zero)', ncm: '22029900', externalProductId: null });
    await page.getByRole('cell', { name: 'Coca-Cola lata 350 ml (zero)', exact: true }).waitFor();

    // The history lists the NCM change first, then the creation, both by the person signed in.
    await page.getByRole('button', { name: 'History of prod-cola-350' }).click();
    const historyDialog = page.getByRole('dialog', { name: 'History of prod-cola-350' });
    const entries = historyDialog.getByTestId('category-history-entry');
    await entries.first().getByText('NCM: 22021000 → 22029900').waitFor();
    expect(await entries.count()).toBe(2);
    expect(await entries.nth(1).textContent()).toMatch(/^Created · .*NCM: none → 22021000$/);
    expect(await historyDialog.getByText(/no actor/).count()).toBe(0);
    await historyDialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Delete prod-cola-350' }).click();
    const deleteDialog = page.getByRole('dialog', { name: 'Delete this category?' });
    await deleteDialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await t.http.get('/admin/product-fiscal-categories/prod-cola-350', { token })).status).toBe(200);
    await page.getByRole('button', { name: 'Delete prod-cola-350' }).click();
    await deleteDialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Category prod-cola-350 deleted.').waitFor();
    expect((await t.http.get('/admin/product-fiscal-categories/prod-cola-350', { token })).status).toBe(404);
    await page.getByText('No category matches “cola”.').waitFor();

    expect(withoutExpected(errors, [400])).toEqual([]);
    await context.close();
  });

  it('has no serious accessibility violation; screenshots at 1280 and 390 px', async () => {
    const group = await createGroup({
      name: 'Screenshot group SP',
      externalId: 'ERP-SHOT',
      uf: 'SP',
      taxRegime: 'SIMPLES_NACIONAL',
      stores: [{ store_id: 'store-shot', store_name: 'Shot store' }],
      taxMatrix: { '22021000': RULE_22021000 },
    });
    for (const [viewport, suffix, locale] of [
      [DESKTOP, '1280', 'en-US'],
      [PHONE, '390', 'pt-BR'],
    ] as const) {
      const { page, errors, context } = await openConsole(browser, { viewport, locale });
      await signIn(page, origin, '/console/fiscal-groups');
      await page.getByRole('row', { name: /Screenshot group SP/ }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-fiscal-groups-${suffix}`);

      await page.goto(`${origin}/console/fiscal-groups/${group.id}`);
      await page.getByRole('heading', { level: 1, name: /Screenshot group SP/ }).waitFor();
      await page.locator('input[aria-label*="22021000"]').first().waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      // Nothing wider than the screen but the matrix, which scrolls inside its container.
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `console-fiscal-group-edit-${suffix}`);

      await page.goto(`${origin}/console/categories`);
      await page.getByRole('cell', { name: 'prod-bread', exact: true }).waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-categories-${suffix}`);
      if (locale === 'pt-BR') await page.getByRole('heading', { level: 1, name: 'Categorias fiscais de produtos' }).waitFor();
      expect(errors).toEqual([]);
      await context.close();
    }
  });
});
