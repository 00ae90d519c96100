import type { ErrorBody } from '../support/api.js';
import { orderFor, seedFiscalData, unique } from '../support/orders.js';
import { orderRow } from '../support/rows.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/**
 * An amount the tax engine cannot read to the exact cent is refused, naming its JSON path, instead
 * of being taxed on another amount: JSON.parse reads 90071992547409.91 as 90071992547409.9. The
 * bodies are sent as raw text, since a JavaScript number cannot hold the amounts under test.
 */
describe('amounts beyond exact precision (e2e)', () => {
  let t: TestApp;
  let token: string;
  const storeId = unique('precision-store');

  beforeAll(async () => {
    // A receiver nobody listens on: the refused orders never reach it.
    t = await bootTestApp({ ORDER_WEBHOOK_URL: 'http://127.0.0.1:9/orders' });
    const admin = await t.adminToken();
    await seedFiscalData(t.http, admin, storeId);
    token = await t.tokenFor(['orders']);
  });
  afterAll(() => t.close());

  /** The order of `orderFor` with the burger's amount written as `burgerAmount`, verbatim. */
  const rawOrder = (orderId: string, burgerAmount: string, options: { wrapped?: boolean; modifierAmount?: string } = {}) => {
    const order = orderFor(orderId, storeId) as unknown as { order: { products: Record<string, unknown>[] } };
    if (options.modifierAmount !== undefined) {
      order.order.products[1]!.modifierGroups = [{ selectedModifiers: [{ productId: 'rel-cola', price: { totalPrice: { total: 0 } } }] }];
    }
    let text = JSON.stringify(options.wrapped ? { payload: order } : order).replace('"total":25.9', `"total":${burgerAmount}`);
    if (options.modifierAmount !== undefined) text = text.replace('"total":0', `"total":${options.modifierAmount}`);
    return text;
  };
  const send = (path: string, raw: string) =>
    t.http.post<ErrorBody>(path, undefined, { token, raw, headers: { 'content-type': 'application/json' } });

  it.each([
    ['90071992547409.91', 'order.products[0].price.totalPrice.total'],
    ['25.900000000000000001', undefined], // same cents as 25.9: accepted
    ['0.0049999999999999999', 'order.products[0].price.totalPrice.total'], // JSON.parse makes 0.005: 1 cent instead of 0
    ['100000000000000000', 'order.products[0].price.totalPrice.total'], // past 2^53 cents
    ['1e400', 'order.products[0].price.totalPrice.total'], // Infinity once parsed
  ])('%s: a 400 naming %s (none: taxed, its cents are exact)', async (amount, field) => {
    const orderId = unique('precision');
    const response = await send('/enrich-order', rawOrder(orderId, amount));
    if (field === undefined) {
      expect(response.status).toBe(200);
      return;
    }
    expect([response.status, response.body.error, response.body.details]).toEqual([
      400,
      'VALIDATION_FAILED',
      [{ field, problem: expect.stringContaining('exact precision') }],
    ]);
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
  });

  it('names the path under payload, and a selected modifier', async () => {
    const orderId = unique('precision-wrapped');
    const response = await send('/enrich-order', rawOrder(orderId, '25.9', { wrapped: true, modifierAmount: '90071992547409.91' }));
    expect([response.status, response.body.details]).toEqual([
      400,
      [
        {
          field: 'payload.order.products[1].modifierGroups[0].selectedModifiers[0].price.totalPrice.total',
          problem: expect.any(String),
        },
      ],
    ]);
  });

  it('refuses it on enrich-order-forward too, before forwarding', async () => {
    const orderId = unique('precision-forward');
    const response = await send('/enrich-order-forward', rawOrder(orderId, '90071992547409.91'));
    expect([response.status, response.body.details?.[0]?.field]).toEqual([400, 'order.products[0].price.totalPrice.total']);
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
  });

  /**
   * The order of `orderFor` plus a cola priced per unit (`quantity` and `unitPrice` written verbatim) and a store
   * discount of `discountAmount`, written verbatim too.
   */
  const rawAdjustedOrder = (orderId: string, quantity: string, unitPrice: string, discountAmount: string, wrapped = false) => {
    const order = orderFor(orderId, storeId) as unknown as { order: Record<string, unknown> & { products: unknown[] } };
    order.order.products.push({ productId: 'rel-cola', quantity: 777001, price: { unitPrice: { total: 777002 } } });
    order.order.discounts = [{ amount: 777003, sponsor: 'MERCHANT', target: 'ITEMS' }];
    return JSON.stringify(wrapped ? { payload: order } : order)
      .replace('777001', quantity)
      .replace('777002', unitPrice)
      .replace('777003', discountAmount);
  };

  it('refuses a per-unit quantity or unit price read as another decimal, and an order-level amount read as other cents', async () => {
    const orderId = unique('precision-adjusted');
    // 2.0000000000000000001 is read as 2, 0.33333333333333333 as 0.3333333333333333, 0.0049999999999999999 as 0.005.
    const response = await send(
      '/enrich-order',
      rawAdjustedOrder(orderId, '2.0000000000000000001', '0.33333333333333333', '0.0049999999999999999', true),
    );
    expect([response.status, response.body.error, response.body.details]).toEqual([
      400,
      'VALIDATION_FAILED',
      [
        { field: 'payload.order.products[2].price.unitPrice.total', problem: expect.stringContaining('exact precision') },
        { field: 'payload.order.products[2].quantity', problem: expect.stringContaining('exact precision') },
        { field: 'payload.order.discounts[0].amount', problem: expect.stringContaining('exact precision') },
      ],
    ]);
    expect(await orderRow(t.dataSource, orderId)).toBeNull();
  });

  it('taxes a per-unit line whose numbers are written with other digits but the same decimals', async () => {
    const response = await send('/enrich-order', rawAdjustedOrder(unique('precision-per-unit'), '2.0', '3.250', '1.00'));
    expect(response.status).toBe(200);
  });

  it('takes the largest amounts that stay exact, as numbers and as text', async () => {
    // 9999999999999.99 has 15 significant digits: JSON.parse keeps it to the cent.
    expect((await send('/enrich-order', rawOrder(unique('precision-max'), '9999999999999.99'))).status).toBe(200);
    // As text, every digit is kept. With the cola's 6.00 the order totals 90071992547409.91, the most its totals may reach
    // (see the amount bounds' tests); as a number the burger would be read as 90071992547403.9 and refused.
    expect((await send('/enrich-order', rawOrder(unique('precision-text'), '"90071992547403.91"'))).status).toBe(200);
    expect((await send('/enrich-order', rawOrder(unique('precision-text-number'), '90071992547403.91'))).status).toBe(400);
  });
});
