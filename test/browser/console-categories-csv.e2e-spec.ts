import type { Browser } from 'playwright-core';
import { ProductFiscalCategoryEntity } from '../../src/product-categories/product-fiscal-category.entity.js';
import { productCategory } from '../factories/product-category.factory.js';
import { fixtureNcmTableFile } from '../support/ncm-table.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { describeWithBrowser, launchBrowser, openConsole, originOf, screenshot, signIn } from '../support/console-browser.js';

// The NCM table is test/fixtures/ncm/ncm-fixture.json: a fixture, its descriptions marked "[fixture]".
describeWithBrowser('admin console: product categories from CSV and NCM suggestions (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    t = await bootTestApp({ NCM_TABLE_FILE: fixtureNcmTableFile() });
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('checks a file first, row by row, and applies it only when no row has an error', async () => {
    await productCategory(t.dataSource, { productId: 'csv-cola', productName: 'Coca-Cola', ncm: '22021000' });
    const { page, errors } = await openConsole(browser);
    await signIn(page, origin, '/console/categories');
    // The list shows each NCM's description from the table.
    await page.getByText('[fixture] Refrigerantes & águas aromatizadas').waitFor();

    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import product categories from CSV' });
    const bad = 'productId;productName;ncm\r\ncsv-cola;Coca-Cola lata;22021000\r\ncsv-beef;Carne;2013000\r\n';
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'categorias.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    const report = dialog.getByRole('table', { name: 'What the file would change, row by row' });
    await report.waitFor();
    await dialog.getByText('categorias.csv: 0 to create, 1 to change, 0 unchanged, 1 with errors.').waitFor();
    const rows = report.locator('tbody tr');
    const cells = async (index: number) => (await rows.nth(index).locator('td').allTextContents()).map((text) => text.trim());
    expect(await cells(0)).toEqual(['2', 'csv-cola', 'Changed', 'Product name: Coca-Cola → Coca-Cola lata']);
    expect(await cells(1)).toEqual([
      '3',
      'csv-beef',
      'Error',
      'The NCM has 7 digits: the spreadsheet dropped its leading zero. Write 02013000 (format the column as text).',
    ]);
    expect(await dialog.getByRole('button', { name: /^Apply/ }).isDisabled()).toBe(true);
    expect((await t.dataSource.getRepository(ProductFiscalCategoryEntity).findOneByOrFail({ productId: 'csv-cola' })).productName).toBe(
      'Coca-Cola',
    );

    const good = 'productId;productName;ncm\r\ncsv-cola;Coca-Cola lata;22021000\r\ncsv-beef;Carne;02013000\r\n';
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'categorias.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await dialog.getByText('categorias.csv: 1 to create, 1 to change, 0 unchanged, 0 with errors.').waitFor();
    // 02013000 is not in the fixture table: a warning, not an error.
    await dialog.getByText('Warning: this NCM is not in the NCM table.').waitFor();
    await dialog.getByRole('button', { name: 'Apply 2 changes' }).click();
    await page.getByText('Import applied: 1 created, 1 changed.').waitFor();
    const stored = await t.dataSource.getRepository(ProductFiscalCategoryEntity).findOneByOrFail({ productId: 'csv-beef' });
    expect(stored.ncm).toBe('02013000');
    await page.getByText('Not in the NCM table').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('suggests NCMs from the table as a person types, and flags a code the table lacks', async () => {
    const { page, errors } = await openConsole(browser);
    await signIn(page, origin, '/console/categories');
    await page.getByRole('button', { name: 'New category' }).click();
    const dialog = page.getByRole('dialog', { name: 'New product fiscal category' });
    const ncm = dialog.getByLabel(/^NCM( \*)?$/).and(dialog.locator('input'));
    await ncm.fill('refrig');
    await page.getByRole('option', { name: '22021000 — [fixture] Refrigerantes & águas aromatizadas' }).click();
    expect(await ncm.inputValue()).toBe('22021000');
    await dialog.getByTestId('ncm-description').getByText('[fixture] Refrigerantes & águas aromatizadas').waitFor();
    await ncm.fill('22021001');
    await dialog.getByTestId('ncm-description').getByText('Not in the NCM table', { exact: true }).waitFor();
    expect(errors).toEqual([]);
  });

  it('reads in Portuguese, screenshots included', async () => {
    const { page, errors } = await openConsole(browser, { locale: 'pt-BR' });
    await signIn(page, origin, '/console/categories');
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Importar categorias de produtos de um CSV' });
    const file =
      'productId;productName;ncm\r\ncsv-cola;Coca-Cola lata 350 ml;22021000\r\ncsv-novo;Café;09012100\r\ncsv-erro;Carne;2013000\r\n';
    await dialog.getByLabel('Arquivo CSV').setInputFiles({ name: 'categorias.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await dialog
      .getByText('A NCM tem 7 dígitos: a planilha removeu o zero inicial. Escreva 02013000 (formate a coluna como texto).')
      .waitFor();
    await screenshot(page, 'console-categories-csv-import-pt-BR');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Nova categoria' }).click();
    const create = page.getByRole('dialog', { name: 'Nova categoria fiscal de produto' });
    await create
      .getByLabel(/^NCM( \*)?$/)
      .and(create.locator('input'))
      .fill('cafe');
    await page.getByRole('option', { name: '09012100 — [fixture] Café torrado, não descafeinado' }).waitFor();
    await screenshot(page, 'console-categories-ncm-suggestion-pt-BR');
    expect(errors).toEqual([]);
  });
});
