import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
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
});
