import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../auth/session';
import { answer, json, requestsOf, sessionDto } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import { ClientsPage } from './clients-page';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const EMPTY = json(200, { items: [], total: 0, page: 1, pageSize: 50, totalPages: 0 });

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('admin'));
});

describe('the API clients page', { timeout: 30_000 }, () => {
  it('says in the form that a store-limited client cannot have admin, and sends nothing', async () => {
    answer(fetchMock, { 'GET /api/admin/clients': EMPTY });
    renderPage(<ClientsPage />, '/clients');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'New client' }));
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'POS 162');
    await user.click(screen.getByRole('checkbox', { name: /^admin:/ }));
    await user.type(screen.getByRole('combobox', { name: /^Stores/ }), '162{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(
      await screen.findByText('A client limited to some stores cannot have the admin scope: remove the stores or the admin scope.'),
    ).toBeInTheDocument();
    expect(requestsOf(fetchMock).filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('creates a store-limited point of sale and shows its secret once', async () => {
    answer(fetchMock, {
      'GET /api/admin/clients': EMPTY,
      'POST /api/admin/clients': json(201, {
        clientId: 'pos-162',
        name: 'POS 162',
        scopes: ['orders'],
        stores: ['162'],
        active: true,
        createdAt: '2026-11-26T10:00:00.000Z',
        updatedAt: '2026-11-26T10:00:00.000Z',
        secret: 's3cr3t-value',
      }),
    });
    renderPage(<ClientsPage />, '/clients');
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'New client' }));
    await user.type(screen.getByRole('textbox', { name: /^Name/ }), 'POS 162');
    await user.type(screen.getByRole('combobox', { name: /^Stores/ }), '162{Enter}');
    await user.click(screen.getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('s3cr3t-value')).toBeInTheDocument();
    expect(screen.getByText('Shown this once: copy it now. It cannot be shown again.')).toBeInTheDocument();
    const post = requestsOf(fetchMock).find((request) => request.method === 'POST')!;
    expect(await post.json()).toEqual({ name: 'POS 162', scopes: ['orders'], stores: ['162'] });
  });
});
