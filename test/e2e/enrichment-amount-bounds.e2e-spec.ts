import type { ErrorBody } from '../support/api.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * An order may not make the service do work of any size: numeric text for an amount, unit price or
 * quantity is refused beyond 20 digits before the decimal point and 30 after it, with a 400 naming
 * each such value, before anything multiplies it. And its totals must stay exact: amounts adding up
 * past Number.MAX_SAFE_INTEGER cents are a 422, nothing stored.
 */
describe('bounds on the amounts of an order (e2e)', () => {
  let t: TestApp;
  let token: string;
  const storeId = unique('bounds-store');
  const TEXT_DIGITS = 'has more digits than numeric text may have: at most 20 before the decimal point and 30 after it';

  beforeAll(async () => {
    // A receiver nobody listens on: the refused orders never reach it.
    t = await bootTestApp({ ORDER_WEBHOOK_URL: 'http://127.0.0.1:9/orders' });
    await seedFiscalData(t.http, await t.adminToken(), storeId);
    token = await t.tokenFor(['orders']);
  });
  afterAll(() => t.close());

  /** The order of `orderFor` with a burger priced per unit added as its third line. */
  const withPerUnitLine = (orderId: string, line: Record<string, unknown>) => {
    const order = orderFor(orderId, storeId) as unknown as { order: { products: unknown[] } };
    order.order.products.push({ productId: 'rel-burger', ...line });
    return order;
  };

  it('a unit price and quantity of 300,000 digits each (within the body limit): 400 naming both, nothing stored', async () => {
    const orderId = unique('bounds-long-text');
    const digits = 300_000;
    const body = withPerUnitLine(orderId, {
      quantity: `0.${'3'.repeat(digits)}`,
      price: { unitPrice: { total: `1.${'7'.repeat(digits)}` } },
    });
    const response = await t.http.post<ErrorBody>('/enrich-order', body, { token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      error: 'VALIDATION_FAILED',
      message: expect.any(String),
      details: [
        { field: 'order.products[2].price.unitPrice.total', problem: TEXT_DIGITS },
        { field: 'order.products[2].quantity', problem: TEXT_DIGITS },
      ],
    });
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
  });

  it('the same bound on a line total, an order-level amount and an iFood quantity', async () => {
    const longTotal = orderFor(unique('bounds-total'), storeId) as unknown as { order: { products: Array<Record<string, unknown>> } };
    longTotal.order.products[0]!.price = { totalPrice: { total: `25.9${'0'.repeat(30)}` } }; // 31 decimals
    const total = await t.http.post<ErrorBody>('/enrich-order', longTotal, { token, query: { dryRun: true } });
    expect([total.status, total.body.details]).toEqual([
      400,
      [{ field: 'order.products[0].price.totalPrice.total', problem: TEXT_DIGITS }],
    ]);

    const discounted = orderFor(unique('bounds-discount'), storeId) as unknown as { order: Record<string, unknown> };
    discounted.order.discounts = [{ amount: '1'.repeat(21), sponsor: 'MERCHANT', target: 'ITEMS' }];
    const discount = await t.http.post<ErrorBody>('/enrich-order', { payload: discounted }, { token, query: { dryRun: true } });
    expect([discount.status, discount.body.details]).toEqual([400, [{ field: 'payload.order.discounts[0].amount', problem: TEXT_DIGITS }]]);

    const ifood = {
      id: unique('bounds-ifood'),
      merchant: { id: storeId },
      items: [{ id: 'w', externalCode: 'rel-burger', quantity: `0.${'3'.repeat(100_000)}`, unitPrice: 478.78 }],
    };
    const mapped = await t.http.post<ErrorBody>('/enrich-order', ifood, { token, query: { dryRun: true, profile: 'ifood' } });
    expect([mapped.status, mapped.body.details]).toEqual([400, [{ field: 'items[0].quantity', problem: TEXT_DIGITS }]]);
  });

  it('takes text up to the bound: 20 digits before the point, 30 after it', async () => {
    // 0.350000…0 (30 decimals) × 12.99 = 4.5465 → 4.55; ICMS 18 % = 0.819 → 0.82
    const body = withPerUnitLine(unique('bounds-within'), { quantity: `0.35${'0'.repeat(28)}`, price: { unitPrice: { total: '12.99' } } });
    const response = await t.http.post<{ payload: { order: { products: Array<{ tax: Record<string, unknown> }> } } }>(
      '/enrich-order',
      body,
      { token, query: { dryRun: true } },
    );
    expect(response.status).toBe(200);
    expect(response.body.payload.order.products[2]!.tax).toMatchObject({ ICMS_base: 4.55, ICMS_value: 0.82 });
  });

  /** The burger (18 % ICMS) nine times at 9999999999999.99 and once at `last`. */
  const largeOrder = (orderId: string, last: number) => {
    const order = orderFor(orderId, storeId) as unknown as { order: { products: unknown[] } };
    const line = (total: number) => ({ productId: 'rel-burger', quantity: 1, price: { totalPrice: { total } } });
    order.order.products = [...Array.from({ length: 9 }, () => line(9999999999999.99)), line(last)];
    return order;
  };

  it('amounts adding up past 2^53 − 1 cents: 422 ORDER_TOO_LARGE naming the reason, nothing stored or forwarded', async () => {
    // 9 × 999999999999999 cents = 8999999999999991; + 7199254741002 = 9007199254740993 cents, past 9007199254740991
    const orderId = unique('bounds-totals');
    const response = await t.http.post<ErrorBody>('/enrich-order', largeOrder(orderId, 71992547410.02), { token });
    expect([response.status, response.body]).toEqual([
      422,
      {
        error: 'ORDER_TOO_LARGE',
        message: expect.stringContaining('add up to more than 90071992547409.91'),
        details: [{ field: 'order.products', problem: 'its amounts add up to more than 90071992547409.91' }],
      },
    ]);
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
    // The forward refuses it before sending (the receiver is unreachable: a send would be a 502).
    const forwarded = await t.http.post<ErrorBody>('/enrich-order-forward', { payload: largeOrder(orderId, 71992547410.02) }, { token });
    expect([forwarded.status, forwarded.body.error, forwarded.body.details]).toEqual([
      422,
      'ORDER_TOO_LARGE',
      [{ field: 'payload.order.products', problem: 'its amounts add up to more than 90071992547409.91' }],
    ]);
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
  });

  it('amounts adding up to exactly 2^53 − 1 cents are taxed', async () => {
    // 8999999999999991 + 7199254741000 = 9007199254740991 cents
    const response = await t.http.post<{ payload: { taxSummary: { totals: { base: number } } } }>(
      '/enrich-order',
      largeOrder(unique('bounds-at-limit'), 71992547410),
      { token, query: { dryRun: true } },
    );
    expect(response.status).toBe(200);
    expect(response.body.payload.taxSummary.totals.base).toBe(Number.MAX_SAFE_INTEGER / 100);
  });
});
