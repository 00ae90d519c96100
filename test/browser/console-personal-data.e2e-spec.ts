import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { OrderEntity } from '../../src/orders/order.entity.js';
import {
  describeWithBrowser,
  launchBrowser,
  openConsole,
  originOf,
  seriousAccessibilityViolations,
  signIn,
  withoutExpected,
} from '../support/console-browser.js';
import { personWith } from '../support/people.js';
import { platformOrder, taxedStore, testCustomer } from '../support/personal-data.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * The console by role: `support` sees the customer's e-mail, phone and CPF masked, `fiscal` does not see them, an
 * `admin` sees them masked and reveals them (audited), and answers a data subject from the personal-data page: search,
 * download the copy, erase with a reason.
 */
describeWithBrowser('console: a customer’s personal data by role (browser e2e)', () => {
  let t: TestApp;
  let browser: Browser;
  let origin: string;
  const tag = `cpd${process.pid}`;
  const customer = testCustomer(tag);
  const orderId = `cpd-order-${tag}`;
  const email = customer.email.toUpperCase(); // as platformOrder stores it
  const maskedEmail = `${email[0]}***@EXAMPLE.COM.BR`;
  const maskedCpf = '***.982.247-**';

  beforeAll(async () => {
    t = await bootTestApp();
    origin = originOf(t.baseUrl);
    browser = await launchBrowser();
    await taxedStore(t, `cpd-store-${process.pid}`);
    const sent = await t.http.post('/enrich-order', platformOrder(orderId, `cpd-store-${process.pid}`, customer), {
      token: await t.tokenFor(['orders']),
    });
    expect(sent.status).toBe(200);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  /** The order's page with its payload opened: the text a person reads there. */
  async function orderPageText(page: Page): Promise<string> {
    await page.goto(`${origin}/console/orders/${orderId}`);
    await page.getByRole('heading', { name: `Order ${orderId}` }).waitFor();
    await page.locator('summary', { hasText: 'Payload as received' }).click();
    await page.locator('pre').first().waitFor();
    return page.locator('main').innerText();
  }

  it('support sees the e-mail and the CPF masked, and cannot reveal them', async () => {
    const { context, page, errors } = await openConsole(browser);
    await signIn(page, origin, '/console/', await personWith(t, 'support'));
    const text = await orderPageText(page);
    expect(text).toContain(maskedEmail);
    expect(text).toContain(maskedCpf);
    expect(text).toContain(customer.name);
    expect([email, customer.documentNumber, customer.phone].filter((value) => text.includes(value))).toEqual([]);
    expect(await page.getByRole('button', { name: 'Reveal personal data' }).count()).toBe(0);
    expect(await page.locator('nav a', { hasText: 'Personal data' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fiscal does not see them at all', async () => {
    const { context, page, errors } = await openConsole(browser);
    await signIn(page, origin, '/console/', await personWith(t, 'fiscal'));
    const text = await orderPageText(page);
    expect([email, customer.documentNumber, customer.phone, maskedEmail, maskedCpf].filter((value) => text.includes(value))).toEqual([]);
    expect(text).toContain(customer.name);
    expect(await page.getByRole('button', { name: 'Reveal personal data' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('admin reveals them on the order (audited), then searches, downloads the copy and erases with a reason', async () => {
    const admin = await personWith(t, 'admin');
    const { context, page, errors } = await openConsole(browser);
    await signIn(page, origin, '/console/', admin);
    const text = await orderPageText(page);
    expect(text).toContain(maskedEmail);
    expect(text).not.toContain(email);

    await page.getByRole('button', { name: 'Reveal personal data' }).click();
    const revealed = page.getByRole('table', { name: 'Customer’s personal data' });
    await revealed.getByText(email).first().waitFor();
    expect(await revealed.innerText()).toContain(customer.documentNumber);
    const reveals = await t.dataSource.getRepository(AuditEventEntity).findBy({ action: 'order.personal-data.reveal', targetId: orderId });
    expect(reveals.map((event) => event.actorId)).toEqual([admin.id]);
    expect(JSON.stringify(reveals[0]!.changes)).not.toContain(email);

    await page.locator('nav a', { hasText: 'Personal data' }).click();
    await page.getByRole('heading', { name: 'Personal data' }).waitFor();
    await page.getByLabel('Value').fill(customer.email);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 orders hold this person’s data.').waitFor();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download the copy (JSON)' }).click();
    const copy = JSON.parse(await readFile((await (await downloading).path())!, 'utf8')) as { orders: Array<{ orderId: string }> };
    expect(copy.orders.map((order) => order.orderId)).toEqual([orderId]);
    expect(JSON.stringify(copy)).toContain(email);

    await page.getByRole('button', { name: 'Erase this person’s data' }).click();
    const dialog = page.getByRole('dialog');
    const confirm = dialog.getByRole('button', { name: 'Erase', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Reason (kept in the audit log)').fill('LGPD request #cpd-1');
    await confirm.click();
    await page.getByTestId('erasure-outcome').waitFor();
    expect(await page.getByTestId('erasure-outcome').innerText()).toContain('Erased: 1 of 1 orders changed');
    await page.getByText('No stored order holds this person’s data.').waitFor();

    const row = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ orderId });
    expect(JSON.stringify(row.payload)).not.toContain(email);
    const erasures = await t.dataSource.getRepository(AuditEventEntity).findBy({ action: 'order.personal-data.erase', targetId: orderId });
    expect(erasures.map((event) => event.changes.reason?.after)).toEqual(['LGPD request #cpd-1']);
    expect(withoutExpected(errors, [])).toEqual([]);
    await context.close();
  });
});
