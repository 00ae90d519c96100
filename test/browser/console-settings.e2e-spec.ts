import type { Browser } from 'playwright-core';
import {
  describeWithBrowser,
  launchBrowser,
  openConsole,
  originOf,
  screenshot,
  seriousAccessibilityViolations,
  signIn,
  withoutExpected,
} from '../support/console-browser.js';
import { bootChannelsApp, channelsSteps, richRequest, type ChannelsApp } from '../support/channels.js';

/** The settings people manage that had no page: the status aliases (fiscal) and the store and channel configuration (admin). */
describeWithBrowser('console: status aliases and the store and channel configuration (Chromium)', () => {
  let app: ChannelsApp;
  let browser: Browser;
  let origin: string;
  const { post, read } = channelsSteps(() => app);
  const aliases = async () => {
    const answer = await app.t.http.get<{ aliases: { label: string; status: string }[] }>('/admin/status-aliases', { token: app.bearer });
    return answer.body.aliases;
  };

  beforeAll(async () => {
    app = await bootChannelsApp();
    origin = originOf(app.t.baseUrl);
    browser = await launchBrowser();
    expect((await post(richRequest())).status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.t.close();
  });

  it('edits the status aliases in pt-BR: a refused row is named, a saved table is what the API answers', async () => {
    const before = await aliases();
    const { page, errors, context } = await openConsole(browser, { locale: 'pt-BR' });
    await signIn(page, origin, '/console/status-aliases');
    await page.getByRole('heading', { name: 'Apelidos de status' }).waitFor();
    const table = page.getByRole('table', { name: 'Apelidos de status' });
    await expect(table.locator('tbody tr').count()).resolves.toBe(before.length);

    // A label that means the same as an existing one (case and accents aside) is refused, and nothing is stored.
    await page.getByRole('button', { name: 'Adicionar rótulo' }).click();
    const added = before.length + 1;
    await page.getByLabel(`Rótulo da linha ${added}`).fill(before[0]!.label.toUpperCase());
    await page.getByRole('button', { name: 'Salvar tabela' }).click();
    await page.getByRole('alert').filter({ hasText: 'Nada foi salvo' }).waitFor();
    await page.getByText(`Linha ${added}:`).waitFor();
    expect(await aliases()).toEqual(before);

    // Corrected, it saves; the status is chosen by its pt-BR name.
    await page.getByLabel(`Rótulo da linha ${added}`).fill('Listo para retirar');
    await page.getByLabel(`Status da linha ${added}`).selectOption({ label: 'Pronto' });
    await page.getByRole('button', { name: 'Salvar tabela' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Salvo: ${added} rótulos.` })
      .waitFor();
    // The API keeps the table in its own order (by label), so compare the rows whatever their order.
    const byLabel = (rows: { label: string; status: string }[]) => [...rows].sort((a, b) => a.label.localeCompare(b.label));
    expect(byLabel(await aliases())).toEqual(byLabel([...before, { label: 'Listo para retirar', status: 'READY' }]));

    // Removing a row and discarding puts the stored table back.
    await page.getByRole('button', { name: /^Remover a linha 1 / }).click();
    await expect(table.locator('tbody tr').count()).resolves.toBe(added - 1);
    await page.getByText('Alterações não salvas').waitFor();
    await page.getByRole('button', { name: 'Descartar alterações' }).click();
    await expect(table.locator('tbody tr').count()).resolves.toBe(added);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'status-aliases-pt-BR');
    expect(withoutExpected(errors, [400])).toEqual([]);
    await context.close();
  });

  it('shows the stores and channels, and replaces the configuration after naming what it deletes', async () => {
    const before = await read();
    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, '/console/channels');
    const stores = page.getByRole('table', { name: 'Stores', exact: true });
    await stores.locator('tbody tr').first().waitFor();
    await expect(stores.locator('tbody tr').count()).resolves.toBe(before.stores.length);
    const firstStore = (await stores.locator('tbody tr').first().locator('td').allInnerTexts()).map((text) => text.trim());
    expect(firstStore[0]).toBe(String(before.stores[0]!.storeId));
    expect(firstStore[5]).toBe('none: its orders are not taxed');

    // Leave the last channel out: the confirmation names it before anything changes.
    const editor = page.getByLabel('Configuration (JSON)');
    const edited = JSON.parse(await editor.inputValue()) as typeof before;
    expect(edited.stores.some((store) => 'fiscalGroupId' in store)).toBe(false);
    const dropped = edited.channels.at(-1)!.channelId;
    edited.channels = edited.channels.slice(0, -1);
    edited.stores = edited.stores.map((store) => ({
      ...store,
      storeChannels: store.storeChannels.filter((id) => id !== dropped),
      schedulesByChannel: store.schedulesByChannel.filter((entry) => entry.channelId !== dropped),
    }));
    await editor.fill(JSON.stringify(edited, null, 2));
    await page.getByRole('button', { name: 'Save configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace the configuration?' });
    await dialog.getByText(`Channels deleted: ${dropped}`).waitFor();
    expect((await read()).channels.length).toBe(before.channels.length);
    await dialog.getByRole('button', { name: 'Replace' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Configuration saved: ${before.stores.length} stores, ${before.channels.length - 1} channels.` })
      .waitFor();
    expect((await read()).channels.map((channel) => channel.channelId)).not.toContain(dropped);

    // Text that is not JSON cannot be saved.
    await editor.fill('{ "stores": [');
    await page.getByText(/^This is not a JSON object/).waitFor();
    await expect(page.getByRole('button', { name: 'Save configuration' }).isDisabled()).resolves.toBe(true);

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'channels-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });
});
