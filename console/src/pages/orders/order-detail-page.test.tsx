import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Schemas } from '../../api/client';
import { session } from '../../auth/session';
import { answer, json, requestsOf, sessionDto } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import { OrderDetailPage } from './order-detail-page';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const ORDER_DB_ID = '5c2b9a8e-1f0d-4e3c-9b7a-6d5e4f3a2b1c';

function orderDetail(status: Schemas['OrderDetailDto']['status']): Schemas['OrderDetailDto'] {
  return {
    id: ORDER_DB_ID,
    orderId: 'ORD-1',
    status,
    payload: { orderId: 'ORD-1', store: { id: '164' } },
    enrichedPayload: null,
    webhookAttempts: 1,
    storeId: '164',
    source: 'ifood',
    marketplaceOrderNumber: '3813',
    webhookLastResponse: null,
    createdAt: '2026-11-26T10:00:00.000000Z',
    updatedAt: '2026-11-26T10:05:00.000000Z',
    fiscalRevision: { fiscalGroupId: null, revision: null, taxInstant: null },
    history: [],
    tracking: [],
    transfers: [],
    dispatches: [],
    deliveries: [],
  };
}

function showOrder(status: Schemas['OrderDetailDto']['status']) {
  answer(fetchMock, {
    [`GET /api/admin/orders/${ORDER_DB_ID}`]: json(200, orderDetail(status)),
    [`POST /api/admin/orders/${ORDER_DB_ID}/redeliver`]: json(200, {
      message: 'Order ORD-1 redelivered: the webhook answered 200 (attempt 2)',
      webhookStatusCode: 200,
      attempt: 2,
    }),
  });
  renderPage(
    <Routes>
      <Route path="/orders/:id" element={<OrderDetailPage />} />
    </Routes>,
    `/orders/${ORDER_DB_ID}`,
  );
}

const redeliveries = () => requestsOf(fetchMock).filter((request) => request.method === 'POST');

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('admin'));
});

describe('the order page’s redeliver button', { timeout: 30_000 }, () => {
  it.each(['DELIVERED', 'CANCELLED', 'REJECTED'] as const)(
    'on a %s order asks to confirm the redelivery of a closed order, and sends only once confirmed',
    async (status) => {
      showOrder(status);
      const user = userEvent.setup({ delay: null });

      await user.click(await screen.findByRole('button', { name: 'Redeliver' }));
      expect(screen.getByText('Send a closed order to the webhook again?')).toBeInTheDocument();
      expect(screen.getByTestId('redeliver-closed-warning')).toHaveTextContent(/^Order ORD-1 is closed \(/);
      expect(redeliveries()).toEqual([]);

      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(redeliveries()).toEqual([]);

      await user.click(screen.getByRole('button', { name: 'Redeliver' }));
      await user.click(screen.getByRole('button', { name: 'Redeliver the closed order' }));
      expect(await screen.findByTestId('redeliver-outcome')).toHaveTextContent('Redelivered: the webhook answered 200 (attempt 2)');
      expect(redeliveries().map((request) => new URL(request.url).pathname)).toEqual([`/api/admin/orders/${ORDER_DB_ID}/redeliver`]);
    },
  );

  it('names the closed status in Portuguese', async () => {
    await i18next.changeLanguage('pt-BR');
    showOrder('DELIVERED');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Reenviar' }));
    expect(screen.getByText('Enviar um pedido encerrado ao webhook de novo?')).toBeInTheDocument();
    expect(screen.getByTestId('redeliver-closed-warning')).toHaveTextContent('O pedido ORD-1 está encerrado (Entregue).');
    expect(screen.getByRole('button', { name: 'Reenviar o pedido encerrado' })).toBeInTheDocument();
  });

  it('on an open order keeps the plain confirmation, without the closed order’s warning', async () => {
    showOrder('FORWARD_FAILED');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Redeliver' }));
    expect(screen.getByText('Send this order to the webhook again?')).toBeInTheDocument();
    expect(screen.queryByTestId('redeliver-closed-warning')).toBeNull();
    expect(redeliveries()).toEqual([]);
    const buttons = screen.getAllByRole('button', { name: 'Redeliver' });
    await user.click(buttons[buttons.length - 1]!);
    expect(await screen.findByTestId('redeliver-outcome')).toHaveTextContent('Redelivered:');
    expect(redeliveries()).toHaveLength(1);
  });

  it("says the redelivery's outcome and the webhook's answer in pt-BR, without the service's English", async () => {
    await i18next.changeLanguage('pt-BR');
    try {
      const refusedOrder = {
        ...orderDetail('FORWARD_FAILED'),
        webhookLastResponse: {
          statusCode: null,
          body: null,
          durationMs: 12,
          error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
          attemptedAt: '2026-11-26T10:05:00.000Z',
        },
      };
      let calls = 0;
      answer(fetchMock, {
        [`GET /api/admin/orders/${ORDER_DB_ID}`]: json(200, refusedOrder),
        [`POST /api/admin/orders/${ORDER_DB_ID}/redeliver`]: () =>
          ++calls === 1
            ? json(200, { message: 'Order ORD-1 redelivered: the webhook answered 202 (attempt 2)', webhookStatusCode: 202, attempt: 2 })
            : json(502, {
                error: 'WEBHOOK_DELIVERY_FAILED',
                message: 'Order ORD-1 was not accepted by the order webhook: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9 (attempt 3)',
              }),
      });
      renderPage(
        <Routes>
          <Route path="/orders/:id" element={<OrderDetailPage />} />
        </Routes>,
        `/orders/${ORDER_DB_ID}`,
      );
      const user = userEvent.setup({ delay: null });

      expect(await screen.findByText('sem resposta em 12 ms')).toBeInTheDocument();
      expect(screen.queryByText(/ECONNREFUSED/)).toBeNull();
      await user.click(await screen.findByRole('button', { name: 'Reenviar' }));
      await user.click(screen.getAllByRole('button', { name: 'Reenviar' }).at(-1)!);
      expect(await screen.findByTestId('redeliver-outcome')).toHaveTextContent('Reenviado: o webhook respondeu 202 (tentativa 2)');

      await user.click(screen.getAllByRole('button', { name: 'Reenviar' })[0]!);
      await user.click(screen.getAllByRole('button', { name: 'Reenviar' }).at(-1)!);
      await vi.waitFor(() =>
        expect(screen.getByTestId('redeliver-outcome')).toHaveTextContent(
          'O reenvio falhou (502): O webhook de pedidos não aceitou o pedido.',
        ),
      );
      expect(screen.getByTestId('redeliver-outcome')).not.toHaveTextContent(/accepted|ECONNREFUSED/);
    } finally {
      await i18next.changeLanguage('en');
    }
  });
});
