import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { Shell } from '../layout/shell';
import { answer, json, requestsOf, sessionDto } from '../testing/api-stub';
import { renderPage } from '../testing/render-with-query';
import { RequireRole, RequireSession } from './require-session';
import { session } from './session';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

/** The app's routes with stand-in pages: what matters here is who reaches them. */
function renderConsoleAt(path: string) {
  renderPage(
    <Routes>
      <Route path="/sign-in" element={<p>Sign-in page</p>} />
      <Route
        element={
          <RequireSession>
            <Shell />
          </RequireSession>
        }
      >
        <Route index element={<RequireRole role="support">Dashboard page</RequireRole>} />
        <Route path="fiscal-groups" element={<RequireRole role="fiscal">Fiscal groups page</RequireRole>} />
        <Route path="people" element={<RequireRole role="admin">People page</RequireRole>} />
      </Route>
    </Routes>,
    path,
  );
}

const navLinks = () =>
  within(screen.getByRole('navigation'))
    .getAllByRole('link')
    .map((link) => link.textContent);

beforeEach(() => {
  fetchMock.mockReset();
  session.reset();
});

describe('what each role sees', { timeout: 30_000 }, () => {
  it('support: orders and the dashboard; a fiscal page by its URL says it is not for this role', () => {
    session.signIn(sessionDto('support'));
    renderConsoleAt('/fiscal-groups');

    expect(navLinks()).toEqual(['Dashboard', 'Orders']);
    expect(screen.getByRole('heading', { name: 'Not available for your role' })).toBeInTheDocument();
    expect(screen.getByText(/needs the Fiscal role; you are signed in as Support/)).toBeInTheDocument();
    expect(screen.queryByText('Fiscal groups page')).not.toBeInTheDocument();
  });

  it('fiscal: adds fiscal groups, product categories, the calculator and the status aliases, not the admin pages', () => {
    session.signIn(sessionDto('fiscal'));
    renderConsoleAt('/people');

    expect(navLinks()).toEqual([
      'Dashboard',
      'Orders',
      'Fiscal groups',
      'Product categories',
      'Tax calculator',
      'Status aliases',
      'Reports',
    ]);
    expect(screen.getByRole('heading', { name: 'Not available for your role' })).toBeInTheDocument();
    expect(screen.queryByText('People page')).not.toBeInTheDocument();
  });

  it('admin: every page, and their name and role in the navigation', () => {
    session.signIn(sessionDto('admin'));
    renderConsoleAt('/people');

    expect(navLinks()).toEqual([
      'Dashboard',
      'Orders',
      'Fiscal groups',
      'Product categories',
      'Tax calculator',
      'Status aliases',
      'Reports',
      'People',
      'API clients',
      'Stores and channels',
      'Audit log',
      'Personal data',
      'Sign-in settings',
    ]);
    expect(screen.getByText('People page')).toBeInTheDocument();
    expect(screen.getByText('Signed in as Ana Souza (Admin)')).toBeInTheDocument();
  });

  it('waits for the session check, then sends a signed-out visitor to sign-in', () => {
    renderConsoleAt('/people');
    expect(screen.getByRole('status')).toHaveTextContent('Loading');

    act(() => session.expire());
    expect(screen.getByText('Sign-in page')).toBeInTheDocument();
  });

  it('sign-out ends the session on the server with the CSRF token, then forgets it', async () => {
    answer(fetchMock, { 'DELETE /api/auth/session': json(204, null) });
    session.signIn(sessionDto('support'));
    renderConsoleAt('/');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByText('Sign-in page')).toBeInTheDocument();
    const [signOut] = requestsOf(fetchMock);
    expect(signOut!.method).toBe('DELETE');
    expect(signOut!.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(session.state()).toEqual({ status: 'signed-out', expired: false });
  });

  it('keeps the session when the service could not end it, and says so', async () => {
    answer(fetchMock, { 'DELETE /api/auth/session': json(503, { error: 'SERVICE_UNAVAILABLE', message: 'Database unavailable' }) });
    session.signIn(sessionDto('support'));
    renderConsoleAt('/');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-out failed: Database unavailable');
    expect(session.state().status).toBe('signed-in');
  });
});
