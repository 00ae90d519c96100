import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEventDto } from './audit-model';
import { session } from '../../auth/session';
import { answer, json, requestsOf, sessionDto } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import { AuditPage } from './audit-page';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const event: AuditEventDto = {
  id: 'e-1',
  at: '2026-11-26T10:00:00.000Z',
  actor: { type: 'user', id: 'u-1', name: 'Ana Souza' },
  action: 'client.update',
  target: { type: 'client', id: 'pos-162' },
  changes: { stores: { before: ['162'], after: ['162', '163'] } },
  requestId: 'req-1',
  address: '203.0.113.7',
};

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('admin'));
});
afterEach(async () => {
  await i18next.changeLanguage('en');
});

const orderEvent: AuditEventDto = {
  id: 'e-2',
  at: '2026-11-26T10:00:00.000Z',
  actor: { type: 'client', id: 'pos-162', name: 'POS 162' },
  action: 'change-status',
  target: { type: 'order', id: 'ORD-9' },
  changes: { status: { before: 'ACCEPTED', after: 'CANCELLED' } },
  requestId: 'req-2',
  address: null,
};

describe('the audit log page', { timeout: 30_000 }, () => {
  it("lists the events with their changes as before → after, and pages through the API's pages", async () => {
    answer(fetchMock, { 'GET /api/admin/audit-events': json(200, { items: [event], total: 120, page: 1, pageSize: 50, totalPages: 3 }) });
    renderPage(<AuditPage />, '/audit');

    const table = await screen.findByRole('table', { name: 'Audit events' });
    expect(within(table).getByText('Ana Souza')).toBeInTheDocument();
    expect(within(table).getByText(/\["162"\] → \["162","163"\]/)).toBeInTheDocument();
    expect(screen.getByText('120 in all, page 1 of 3')).toBeInTheDocument();

    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Next page' }));
    await vi.waitFor(() => expect(requestsOf(fetchMock).map((request) => new URL(request.url).searchParams.get('page'))).toContain('2'));
  });

  it("sends the filters under the API's names, dates with the browser's offset", async () => {
    answer(fetchMock, { 'GET /api/admin/audit-events': json(200, { items: [], total: 0, page: 1, pageSize: 50, totalPages: 0 }) });
    renderPage(<AuditPage />, '/audit');
    const user = userEvent.setup({ delay: null });

    await screen.findByText('No event yet.');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Target type' }), 'fiscal-group');
    await user.type(screen.getByRole('textbox', { name: 'Target id' }), 'g-1');
    await user.type(screen.getByLabelText('From'), '2026-11-20T09:30:00');
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    expect(await screen.findByText('No event matches these filters.')).toBeInTheDocument();
    const last = new URL(requestsOf(fetchMock).at(-1)!.url).searchParams;
    // America/Sao_Paulo is UTC−03:00 (setup.ts).
    expect(Object.fromEntries(last)).toEqual({ targetType: 'fiscal-group', targetId: 'g-1', from: '2026-11-20T09:30:00-03:00' });
  });

  it("reads like a history in pt-BR: the browser's zone named, actions, targets and statuses in words", async () => {
    await i18next.changeLanguage('pt-BR');
    answer(fetchMock, {
      'GET /api/admin/audit-events': json(200, { items: [orderEvent], total: 1, page: 1, pageSize: 20, totalPages: 1 }),
    });
    renderPage(<AuditPage />, '/audit');

    const table = await screen.findByRole('table', { name: 'Eventos de auditoria' });
    // America/Sao_Paulo (setup.ts): 10:00 UTC is 07:00 there.
    expect(within(table).getByRole('columnheader', { name: 'Quando (America/Sao_Paulo)' })).toBeInTheDocument();
    expect(screen.getByText('Horários em America/Sao_Paulo, o fuso horário deste navegador.')).toBeInTheDocument();
    expect(within(table).getByText(/26\/11\/2026,? 07:00:00/)).toBeInTheDocument();
    expect(within(table).getByText('Mudança de status')).toBeInTheDocument();
    expect(within(table).getByText('Pedido')).toBeInTheDocument();
    expect(within(table).getByText(/Aceito → Cancelado/)).toBeInTheDocument();
    expect(within(table).queryByText(/CANCELLED|change-status/)).toBeNull();
    expect(within(table).getByRole('link', { name: 'Só este alvo: Pedido ORD-9' })).toHaveAttribute(
      'href',
      '/audit?targetType=order&targetId=ORD-9',
    );
  });

  it("downloads the filtered log as CSV from the API's export, with the list's filters and without its page", async () => {
    answer(fetchMock, {
      'GET /api/admin/audit-events': json(200, { items: [orderEvent], total: 30, page: 2, pageSize: 20, totalPages: 2 }),
      'GET /api/admin/audit-events.csv': new Response('id,at\r\n', { status: 200, headers: { 'content-type': 'text/csv' } }),
    });
    const createObjectURL = vi.fn(() => 'blob:audit');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    renderPage(<AuditPage />, '/audit?targetType=order&targetId=ORD-9&action=change-status&page=2');

    await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name: 'Download CSV' }));

    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const exported = requestsOf(fetchMock).find((request) => new URL(request.url).pathname === '/api/admin/audit-events.csv')!;
    expect(Object.fromEntries(new URL(exported.url).searchParams)).toEqual({
      targetType: 'order',
      targetId: 'ORD-9',
      action: 'change-status',
    });
  });
});
