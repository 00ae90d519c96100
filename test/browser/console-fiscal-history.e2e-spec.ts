import type { Browser, Page } from 'playwright-core';
import type { Schemas } from '../support/api.js';
import { eventually } from '../support/eventually.js';
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

type Group = Schemas['FiscalGroupResponseDto'];
type Revision = Schemas['FiscalGroupRevisionDto'];

const PREPARED_FOOD = '21069090';
/** Prepared food at `icmsRate` % ICMS, PIS 0.65 %, COFINS 3 % (CSTs 01: charged on the document). */
const preparedFood = (icmsRate: number) => ({
  NCM: PREPARED_FOOD,
  CEST: '',
  CST_ICMS: '00',
  ICMS_rate: icmsRate,
  CST_PIS: '01',
  PIS_rate: 0.65,
  CST_COFINS: '01',
  COFINS_rate: 3,
  CFOP: '5102',
});
/** Bakery products by their heading: the brownie's NCM 19059090 falls back to it. */
const BAKERY = { NCM: '1905', CEST: '', CST_ICMS: '00', ICMS_rate: 18, CST_PIS: '01', PIS_rate: 0.65, CST_COFINS: '01', COFINS_rate: 3 };

const ZONE = 'America/Sao_Paulo'; // UTC−03:00 all year since 2019: a wall-clock time there is known in UTC

/** A midnight `days` ahead in São Paulo, as the schedule input takes it and as the API answers it. */
function midnightAhead(days: number): { local: string; iso: string } {
  const date = new Date(Date.now() - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
  return { local: `${date}T00:00`, iso: `${date}T03:00:00.000Z` };
}

describeWithBrowser('admin console: fiscal group revisions, scheduled changes and the impact preview (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  let token: string;
  let sequence = 0;

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    token = await t.adminToken();
    for (const [productId, ncm] of [
      ['h-burger', PREPARED_FOOD],
      ['h-brownie', '19059090'],
    ])
      expect((await t.http.post('/admin/product-fiscal-categories', { productId, productName: productId, ncm }, { token })).status).toBe(
        201,
      );
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /**
   * A group made at 12 %, its revision 1, raised to 18 %, its revision 2, and an order of its store taxed by
   * revision 2: burger 25.90 and brownie 12.50.
   */
  async function scenario(): Promise<{ group: Group; orderDbId: string; storeId: string }> {
    const storeId = `store-history-${++sequence}`;
    const created = await t.http.post<Group>(
      '/admin/fiscal-groups',
      {
        name: `History group ${sequence}`,
        uf: 'SP',
        stores: [{ store_id: storeId, store_name: 'History store' }],
        taxMatrix: { [PREPARED_FOOD]: preparedFood(12), '1905': BAKERY },
      },
      { token },
    );
    expect(created.status).toBe(201);
    const raised = await t.http.put<Group>(
      `/admin/fiscal-groups/${created.body.id}`,
      { taxMatrix: { [PREPARED_FOOD]: preparedFood(18), '1905': BAKERY } },
      { token },
    );
    expect(raised.body.revision).toBe(2);
    const orderId = `ORD-HISTORY-${sequence}`;
    const products = [
      { productId: 'h-burger', name: 'Burger', quantity: 1, price: { totalPrice: { total: 25.9 } } },
      { productId: 'h-brownie', name: 'Brownie', quantity: 1, price: { totalPrice: { total: 12.5 } } },
    ];
    const order = await t.http.post<{ id?: string }>(
      '/enrich-order',
      { orderId, source: 'ifood', store: { id: storeId, name: 'History store' }, order: { type: 'DELIVERY', products } },
      { token },
    );
    expect(order.status).toBe(200);
    const stored = await t.http.get<Schemas['OrderPageDto']>('/admin/orders', { token, query: { orderId } });
    return { group: raised.body, orderDbId: stored.body.items[0]!.id, storeId };
  }

  const revisionsOf = async (groupId: string) =>
    (await t.http.get<{ items: Revision[] }>(`/admin/fiscal-groups/${groupId}/revisions`, { token })).body.items;

  /** The matrix rows of the diff as their cells' text. */
  async function matrixDiffRows(page: Page): Promise<string[][]> {
    const table = page.getByTestId('revision-diff').getByRole('table', { name: /Tax matrix|Matriz tributária/ });
    await table.waitFor();
    const rows = await table.locator('tbody tr').all();
    return Promise.all(rows.map((row) => row.locator('td').allTextContents()));
  }

  it('links the order to the revision that taxed it, and shows that revision against the one before it, or any other', async () => {
    const { group, orderDbId } = await scenario();
    const { page, errors, context } = await openConsole(browser, { timezoneId: ZONE });
    await signIn(page, origin, `/console/orders/${orderDbId}`);
    const link = page.getByTestId('fiscal-revision');
    await expect(link.textContent()).resolves.toBe('Revision 2 of its fiscal group');
    await link.click();
    await page.waitForURL(`${origin}/console/fiscal-groups/${group.id}?tab=revisions&revision=2`);
    await page.getByRole('heading', { name: 'From revision 1 to revision 2' }).waitFor();
    expect(await matrixDiffRows(page)).toEqual([[PREPARED_FOOD, 'Changed', 'ICMS rate (ICMS_rate)', '12', '18']]);

    // The list: newest first, who wrote each (the API client of the token), which one is in force.
    const table = page.getByRole('table', { name: 'Revisions of the group' });
    await expect(table.getByTestId('revision-2').locator('td').nth(5).textContent()).resolves.toBe('In force');
    await expect(table.getByTestId('revision-1').locator('td').nth(1).textContent()).resolves.toBe('Created');
    await expect(table.getByTestId('revision-1').locator('td').nth(5).textContent()).resolves.toBe('Past');

    // Any two: revision 1 against nothing lists every cell and the store as added.
    await page.getByRole('button', { name: 'Compare revision 1 with the one before' }).click();
    await page.getByRole('heading', { name: 'Revision 1, compared with nothing' }).waitFor();
    const added = await matrixDiffRows(page);
    expect(added).toContainEqual(['1905', 'Added', 'ICMS rate (ICMS_rate)', '—', '18']);
    expect(added).toContainEqual([PREPARED_FOOD, 'Added', 'ICMS rate (ICMS_rate)', '—', '12']);
    const stores = page.getByTestId('revision-diff').getByRole('table', { name: 'Stores: changes' });
    await expect(stores.locator('tbody tr td').first().textContent()).resolves.toMatch(/^store-history-/);
    // Backwards: from 2 to 1 undoes the raise.
    await page.getByLabel('From revision').selectOption('2');
    await page.getByRole('heading', { name: 'From revision 2 to revision 1' }).waitFor();
    expect(await matrixDiffRows(page)).toEqual([[PREPARED_FOOD, 'Changed', 'ICMS rate (ICMS_rate)', '18', '12']]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('schedules an edited matrix for a date, shows it in a banner and the list, and cancels it', async () => {
    const { group } = await scenario();
    const { page, errors, context } = await openConsole(browser, { timezoneId: ZONE });
    await signIn(page, origin, `/console/fiscal-groups/${group.id}`);
    const icms = page.getByLabel(`ICMS rate for NCM ${PREPARED_FOOD}`, { exact: true });
    await icms.fill('20');

    // A store change cannot be scheduled: the button says why.
    await page.getByRole('button', { name: 'Add store' }).click();
    const scheduleButton = page.getByRole('button', { name: 'Schedule for…' });
    await expect(scheduleButton.isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId('schedule-blocked').textContent()).resolves.toContain('The stores were changed.');
    await page
      .getByRole('button', { name: /^Remove store/ })
      .last()
      .click();
    await expect(scheduleButton.isEnabled()).resolves.toBe(true);

    const due = midnightAhead(30);
    await scheduleButton.click();
    const dialog = page.getByRole('dialog', { name: 'Schedule this change' });
    const instant = dialog.getByLabel('Takes effect at');
    await expect(instant.getAttribute('type')).resolves.toBe('datetime-local');
    await instant.fill(due.local);
    const sent = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes(`/api/admin/fiscal-groups/${group.id}?`));
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    // The wall-clock time goes out with the browser's offset.
    expect(new URL((await sent).url()).searchParams.get('effectiveFrom')).toBe(`${due.local}:00-03:00`);
    await page.getByRole('status').filter({ hasText: 'Scheduled: revision 3 takes effect on' }).waitFor();
    const banner = page.getByTestId('scheduled-3');
    await expect(banner.textContent()).resolves.toContain('Scheduled by');
    // Until then the editor shows the group in force.
    await expect(icms.inputValue()).resolves.toBe('18');

    const stored = (await t.http.get<Group>(`/admin/fiscal-groups/${group.id}`, { token })).body;
    expect(stored.revision).toBe(2);
    expect(stored.scheduled).toMatchObject([{ revision: 3, effectiveFrom: due.iso }]);
    expect(stored.taxMatrix[PREPARED_FOOD]?.ICMS_rate).toBe(18);

    // The banner's link shows what changes.
    await banner.getByRole('link', { name: 'See what changes' }).click();
    await page.getByRole('heading', { name: 'From revision 2 to revision 3' }).waitFor();
    expect(await matrixDiffRows(page)).toEqual([[PREPARED_FOOD, 'Changed', 'ICMS rate (ICMS_rate)', '18', '20']]);
    // The list is read again after the write: wait for it rather than read the cell once.
    await page
      .getByTestId('revision-3')
      .locator('td')
      .nth(5)
      .filter({ hasText: /^Scheduled$/ })
      .waitFor();

    // Cancel, after confirmation.
    await banner.getByRole('button', { name: 'Cancel this change' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel the scheduled change?' });
    await confirm.getByRole('button', { name: 'Cancel the change' }).click();
    await page.getByText('Revision 3 was cancelled.').waitFor();
    await banner.waitFor({ state: 'detached' });
    await page
      .getByTestId('revision-3')
      .locator('td')
      .nth(5)
      .filter({ hasText: /^Cancelled/ })
      .waitFor();
    expect((await revisionsOf(group.id)).find((r) => r.revision === 3)?.status).toBe('cancelled');

    // A change gone meanwhile (cancelled elsewhere here; a change that took effect answers the same 409): said plainly.
    const later = midnightAhead(60);
    const other = await t.http.put(
      `/admin/fiscal-groups/${group.id}`,
      { name: 'Renamed later' },
      { token, query: { effectiveFrom: later.iso } },
    );
    expect(other.status).toBe(200);
    await page.reload();
    await page.getByTestId('scheduled-4').getByRole('button', { name: 'Cancel this change' }).click();
    expect((await t.http.delete(`/admin/fiscal-groups/${group.id}/revisions/4`, { token })).status).toBe(204);
    await page.getByRole('dialog', { name: 'Cancel the scheduled change?' }).getByRole('button', { name: 'Cancel the change' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Revision 4 can no longer be cancelled: it took effect (or was cancelled) meanwhile.' })
      .waitFor();
    await page.getByTestId('scheduled-4').waitFor({ state: 'detached' });

    expect(withoutExpected(errors, [409])).toEqual([]);
    await context.close();
  });

  it('previews the impact of the edited matrix on the recent orders, with links to them', async () => {
    const { group, orderDbId } = await scenario();
    const { page, errors, context } = await openConsole(browser, { timezoneId: ZONE });
    await signIn(page, origin, `/console/fiscal-groups/${group.id}`);
    await page.getByLabel(`ICMS rate for NCM ${PREPARED_FOOD}`, { exact: true }).fill('20');
    await page.getByRole('button', { name: 'Remove NCM 1905' }).click();
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/admin/fiscal-groups/${group.id}/impact`));
    await page.getByRole('button', { name: 'Preview impact' }).click();
    const body = (await posted).postDataJSON() as { hours: number; taxMatrix: Record<string, { ICMS_rate: number }> };
    expect(body.hours).toBe(24);
    expect(Object.keys(body.taxMatrix)).toEqual([PREPARED_FOOD]);
    expect(body.taxMatrix[PREPARED_FOOD]?.ICMS_rate).toBe(20);

    const preview = page.getByTestId('impact-preview');
    await preview.waitFor();
    await expect(preview.getByTestId('impact-changed').textContent()).resolves.toBe('1 order · 2 lines');
    // Burger 25.90 at 18 %: ICMS 4.66, PIS (25.90 − 4.66) × 0.65 % = 0.14, COFINS 21.24 × 3 % = 0.64, total 5.44;
    // at 20 %: ICMS 5.18, PIS 20.72 × 0.65 % = 0.13, COFINS 20.72 × 3 % = 0.62, total 5.93 (+0.49).
    // Brownie 12.50 at 18 %: ICMS 2.25, PIS 10.25 × 0.65 % = 0.07, COFINS 10.25 × 3 % = 0.31, total 2.63, lost (−2.63).
    // Total tax: 5.44 + 2.63 = 8.07 now, 5.93 edited, change 0.49 − 2.63 = −2.14.
    const totals = preview.getByRole('table', { name: 'Tax totals before and after' });
    await expect(
      totals
        .getByRole('row', { name: /^Total tax/ })
        .locator('td')
        .allTextContents(),
    ).resolves.toEqual(['Total tax', 'R$8.07', 'R$5.93', '−R$2.14']);
    await expect(preview.getByTestId('impact-losing').textContent()).resolves.toContain('1 line of 1 order would lose its taxes');
    const lost = preview.getByRole('table', { name: 'Lines that would lose their taxes' });
    await expect(lost.locator('tbody tr td').nth(1).textContent()).resolves.toBe('Item 2');
    await expect(lost.locator('tbody tr td').nth(4).textContent()).resolves.toContain('NCM_NOT_IN_MATRIX');
    const largest = preview.getByRole('table', { name: 'The lines with the largest change of total tax' });
    await expect(largest.locator('tbody tr').first().locator('td').allTextContents()).resolves.toEqual([
      `ORD-HISTORY-${sequence}`,
      'Item 2',
      'Brownieh-brownie',
      'R$2.63',
      'untaxed',
      '−R$2.63',
    ]);
    // A wider window asks again.
    const again = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/impact'));
    await page.getByLabel('Orders received in the last').selectOption('168');
    expect(((await again).postDataJSON() as { hours: number }).hours).toBe(168);
    await preview.waitFor();
    // Nothing was saved.
    expect((await t.http.get<Group>(`/admin/fiscal-groups/${group.id}`, { token })).body.revision).toBe(2);

    await largest.getByRole('link').first().click();
    await page.waitForURL(`${origin}/console/orders/${orderDbId}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('has no serious accessibility violation in pt-BR and English at 1280 and 390 px', async () => {
    const { group } = await scenario();
    const due = midnightAhead(45);
    const scheduled = await t.http.put(
      `/admin/fiscal-groups/${group.id}`,
      { taxMatrix: { [PREPARED_FOOD]: preparedFood(20), '1905': BAKERY } },
      { token, query: { effectiveFrom: due.iso } },
    );
    expect(scheduled.status).toBe(200);
    const words = {
      'pt-BR': { preview: 'Prever o impacto', cancel: 'Cancelar esta alteração', keep: 'Manter', diff: 'Da revisão 2 para a revisão 3' },
      'en-US': { preview: 'Preview impact', cancel: 'Cancel this change', keep: 'Keep it', diff: 'From revision 2 to revision 3' },
    } as const;
    for (const [viewport, suffix, locale] of [
      [DESKTOP, '1280', 'pt-BR'],
      [PHONE, '390', 'pt-BR'],
      [DESKTOP, '1280', 'en-US'],
      [PHONE, '390', 'en-US'],
    ] as const) {
      const { page, errors, context } = await openConsole(browser, { viewport, locale, timezoneId: ZONE });
      const text = words[locale];
      await signIn(page, origin, `/console/fiscal-groups/${group.id}?tab=revisions&revision=3`);
      await page.getByRole('heading', { name: text.diff }).waitFor();
      await page.getByTestId('revision-diff').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth'));
      expect(overflow).toBeLessThanOrEqual(0);
      await screenshot(page, `console-fiscal-revisions-${locale}-${suffix}`);

      await page.goto(`${origin}/console/fiscal-groups/${group.id}`);
      await page.getByTestId('scheduled-3').waitFor();
      await page.getByRole('button', { name: text.preview }).click();
      await page.getByTestId('impact-preview').waitFor();
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await screenshot(page, `console-fiscal-impact-${locale}-${suffix}`);

      await page.getByTestId('scheduled-3').getByRole('button', { name: text.cancel }).click();
      const dialog = page.getByRole('dialog');
      await dialog.waitFor();
      // Checked once its opening transition has ended: colours measured mid-fade are not the dialog's.
      await eventually(async () => {
        const settled = await page.evaluate(
          `[...document.querySelectorAll('.mantine-Modal-content')].every((el) => getComputedStyle(el).opacity === '1')`,
        );
        expect(settled).toBe(true);
      });
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: text.keep }).click();
      expect(errors).toEqual([]);
      await context.close();
    }
    // Kept: every dialog was dismissed.
    expect((await t.http.get<Group>(`/admin/fiscal-groups/${group.id}`, { token })).body.scheduled).toHaveLength(1);
    // Four pages, each with a preview (a worker thread at the lowest priority) and three accessibility checks.
  }, 180_000);
});
