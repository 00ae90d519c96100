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
import { bootFulfillmentApp, fulfillmentSteps, MOEMA, ORDER, PINHEIROS, type FulfillmentApp } from '../support/fulfillment.js';
import { unique } from '../support/orders.js';

const money = (value: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'BRL' }).format(value);

/**
 * What a point-of-sale system did to an order, as support staff see it in the console: the transfer
 * between stores (the codes the POS sent and the stores they resolved to), the taxes of the new
 * store's fiscal group, and the pickup dispatch.
 */
describeWithBrowser("console: an order's transfers and dispatches (Chromium)", () => {
  let f: FulfillmentApp;
  let browser: Browser;
  let origin: string;
  const { row, enrichedOrder, setStatus } = fulfillmentSteps(() => f);

  beforeAll(async () => {
    f = await bootFulfillmentApp();
    origin = originOf(f.t.baseUrl);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await f?.t.close();
  });

  it('shows the transfer as sent and as resolved, the new group taxes, and the dispatch', async () => {
    const orderId = unique('console-xfer');
    await enrichedOrder(orderId, PINHEIROS, {
      order: { type: 'takeout', products: [{ productId: 'f-burger', quantity: 1, price: { totalPrice: { total: 25.9 } } }] },
    });
    await setStatus(orderId, 'ACCEPTED');
    const transfer = await f.t.http.put(
      `${ORDER}/transfer`,
      {
        order: orderId,
        from_store: 'BN-PIN',
        to_store: 'BN-MOE',
        processed_by: 'Carla Mendes',
        transfer_reason: 'Oven out of order',
        shipping_address: { street: 'Av. Ibirapuera', number: '2927' },
      },
      { token: f.orders },
    );
    expect(transfer.status).toBe(200);
    await setStatus(orderId, 'READY');
    const dispatch = await f.t.http.post(
      `${ORDER}/dispatched`,
      { codigo_app: orderId, id_transaccion: 'TX-CONSOLE-1' },
      { token: f.orders },
    );
    expect(dispatch.status).toBe(200);
    const { id } = await row(orderId);

    const { page, errors, context } = await openConsole(browser);
    await signIn(page, origin, `/console/orders/${id}`);

    const transfers = page.getByRole('table', { name: 'Store transfers', exact: true });
    await transfers.locator('tbody tr').first().waitFor();
    const cells = (await transfers.locator('tbody tr').first().locator('td').allInnerTexts()).map((text) => text.replace(/\s+/g, ' '));
    // at, from, to, processed by, reason, taxes recalculated, client, shipping address
    expect(cells[1]).toBe(`BN-PIN resolved as ${PINHEIROS}`);
    expect(cells[2]).toBe(`BN-MOE resolved as ${MOEMA}`);
    expect(cells.slice(3, 6)).toEqual(['Carla Mendes', 'Oven out of order', 'yes']);
    expect(cells[6]).toBe(f.ordersClient);
    await expect(transfers.locator('tbody tr').count()).resolves.toBe(1);

    const dispatches = page.getByRole('table', { name: 'Pickup dispatches', exact: true });
    await dispatches.locator('tbody tr').first().waitFor();
    const dispatched = await dispatches.locator('tbody tr').first().locator('td').allInnerTexts();
    expect(dispatched.slice(1, 3)).toEqual(['TX-CONSOLE-1', f.ordersClient]);

    // Moema's group charges 12 %: 25.90 × 12 % = 3.108 → 3.11 (it was 4.66 at Pinheiros' 18 %).
    const totals = page.getByTestId('tax-totals');
    await expect(totals.locator('tr[data-tax="ICMS"] [data-field="value"]').innerText()).resolves.toBe(money(3.11));

    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'order-detail-fulfillment-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });
});
