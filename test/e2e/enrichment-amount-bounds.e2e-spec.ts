import type { ErrorBody } from '../support/api.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * An order may not make the service do work of any size: numeric text for an amount, unit price or
 * quantity is refused beyond 20 digits before the decimal point and 30 after it, with a 400 naming
 * each such value, before anything multiplies it.
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
});
