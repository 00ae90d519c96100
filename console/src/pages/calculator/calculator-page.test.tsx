import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { answer, json, requestsOf, sessionDto } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import { CalculatorPage } from './calculator-page';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

/** A dry run's answer: the order sent back with an empty summary (the breakdown's own tests cover what it shows). */
const enriched = (body: Record<string, unknown>) =>
  json(200, {
    message: 'Order enriched',
    orderDbId: null,
    orderId: 'CALC-0001',
    payload: {
      ...body,
      taxSummary: {
        fiscalGroupId: '0b6f3c1e-2a4d-4c5e-9f10-1a2b3c4d5e6f',
        externalId: null,
        uf: 'SP',
        taxRegime: null,
        totals: { base: 0, ICMS_value: 0, PIS_value: 0, COFINS_value: 0, total_tax: 0 },
        warnings: [],
        engineVersion: '1.2.0',
        calculatedAt: '2026-11-26T10:00:00Z',
      },
    },
  });

const sent = async () => {
  const request = requestsOf(fetchMock).find((r) => r.method === 'POST')!;
  return { url: new URL(request.url), body: (await request.clone().json()) as Record<string, unknown> };
};

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('fiscal'));
});

describe('the tax calculator', { timeout: 30_000 }, () => {
  it("sends the form's discounts, delivery fee and service charge under the order", async () => {
    answer(fetchMock, { 'POST /api/enrich-order': async (request) => enriched((await request.clone().json()) as Record<string, unknown>) });
    renderPage(<CalculatorPage />, '/calculator?storeId=store-9');
    const user = userEvent.setup({ delay: null });

    await user.click(screen.getByRole('button', { name: 'Add a discount' }));
    const coupon = screen.getByRole('group', { name: 'Discount 1' });
    await user.type(within(coupon).getByRole('textbox', { name: 'Amount' }), '6,00');
    await user.type(within(coupon).getByRole('textbox', { name: 'Description' }), 'BEMVINDO');
    await user.click(screen.getByRole('button', { name: 'Add a discount' }));
    const platform = screen.getByRole('group', { name: 'Discount 2' });
    await user.type(within(platform).getByRole('textbox', { name: 'Amount' }), '5');
    await user.selectOptions(within(platform).getByRole('combobox', { name: 'Paid by' }), 'PLATFORM');
    await user.selectOptions(within(platform).getByRole('combobox', { name: 'Applies to' }), 'ITEM');
    // The example's second line, French fries.
    await user.selectOptions(within(platform).getByRole('combobox', { name: 'Line' }), '2. French fries');
    const fee = screen.getByRole('group', { name: 'Delivery fee' });
    await user.type(within(fee).getByRole('textbox', { name: /^Amount/ }), '9');
    const service = screen.getByRole('group', { name: 'Service charge' });
    await user.type(within(service).getByRole('textbox', { name: /^Amount/ }), '10.01');
    await user.click(screen.getByRole('button', { name: 'Calculate taxes' }));

    await screen.findByTestId('tax-breakdown');
    const { url, body } = await sent();
    expect(url.searchParams.get('dryRun')).toBe('true');
    expect(url.searchParams.has('profile')).toBe(false);
    expect(body.store).toEqual({ id: 'store-9', name: 'Store' });
    const order = body.order as Record<string, unknown>;
    expect((order.products as unknown[]).length).toBe(3);
    expect(order.discounts).toEqual([
      { amount: 6, sponsor: 'MERCHANT', target: 'ITEMS', description: 'BEMVINDO' },
      { amount: 5, sponsor: 'PLATFORM', target: 'ITEM', productIndex: 1 },
    ]);
    expect(order.deliveryFee).toEqual({ amount: 9, deliveredBy: 'MERCHANT' });
    expect(order.serviceCharge).toEqual({ amount: 10.01 });
    expect(order.otherCharges).toBeUndefined();
  });

  it('computes an iFood order with ?profile=ifood, on the store typed for merchant.id, without the form', async () => {
    answer(fetchMock, { 'POST /api/enrich-order': async (request) => enriched((await request.clone().json()) as Record<string, unknown>) });
    renderPage(<CalculatorPage />, '/calculator');
    const user = userEvent.setup({ delay: null });

    await user.click(screen.getByRole('radio', { name: 'iFood order' }));
    expect(screen.getByTestId('calculator-ifood-hint')).toHaveTextContent('GET /order/v1.0/orders/{id}');
    expect(screen.queryByRole('button', { name: 'Add a discount' })).not.toBeInTheDocument();
    const store = screen.getByRole('textbox', { name: 'Store id' });
    await user.clear(store);
    await user.type(store, 'loja-7');
    await user.click(screen.getByRole('button', { name: 'Calculate taxes' }));

    await screen.findByTestId('tax-breakdown');
    const { url, body } = await sent();
    expect(url.searchParams.get('profile')).toBe('ifood');
    expect(url.searchParams.get('dryRun')).toBe('true');
    expect(body.merchant).toEqual({ id: 'loja-7', name: 'Store' });
    expect(body.benefits).toEqual([
      {
        value: 10,
        target: 'CART',
        sponsorshipValues: [
          { name: 'IFOOD', value: 5 },
          { name: 'MERCHANT', value: 5 },
        ],
      },
    ]);
    expect(body.order).toBeUndefined();

    // Back to the platform's order: its text was kept.
    await user.click(screen.getByRole('radio', { name: 'Order' }));
    expect(screen.getByRole('textbox', { name: 'Store id' })).toHaveValue('demo-store-1');
  });

  it("shows the API's 400 at the discount it names, and every detail above", async () => {
    answer(fetchMock, {
      'POST /api/enrich-order': json(400, {
        error: 'VALIDATION_ERROR',
        message: 'The order is invalid',
        details: [{ field: 'order.discounts[0].amount', problem: 'must be greater than 0' }],
      }),
    });
    renderPage(<CalculatorPage />, '/calculator');
    const user = userEvent.setup({ delay: null });

    await user.click(screen.getByRole('button', { name: 'Add a discount' }));
    await user.type(within(screen.getByRole('group', { name: 'Discount 1' })).getByRole('textbox', { name: 'Amount' }), '0');
    await user.click(screen.getByRole('button', { name: 'Calculate taxes' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The order was refused: The order is invalid');
    expect(alert).toHaveTextContent('order.discounts[0].amount: must be greater than 0');
    const amount = within(screen.getByRole('group', { name: 'Discount 1' })).getByRole('textbox', { name: 'Amount' });
    expect(amount).toHaveAccessibleDescription('must be greater than 0');
    expect((await sent()).body.order).toMatchObject({ discounts: [{ amount: 0, sponsor: 'MERCHANT', target: 'ITEMS' }] });
  });
});
