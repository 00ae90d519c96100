import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, json, requestsOf, sessionDto } from '../testing/api-stub';
import { session } from '../auth/session';
import { restoreSession } from '../auth/restore-session';
import { api } from './client';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

beforeEach(() => {
  fetchMock.mockReset();
  session.reset();
});

describe('the API client with a session cookie', () => {
  it('sends the CSRF token on state-changing requests only, and the cookie with each', async () => {
    session.signIn(sessionDto('admin'));
    answer(fetchMock, {
      'GET /api/admin/users': json(200, { items: [], total: 0, page: 1, pageSize: 50, totalPages: 0 }),
      'PATCH /api/admin/users/u-2': json(200, {}),
      'DELETE /api/auth/session': json(204, null),
    });

    await api.GET('/api/admin/users');
    await api.PATCH('/api/admin/users/{id}', { params: { path: { id: 'u-2' } }, body: { active: false } });
    await api.DELETE('/api/auth/session');

    const [list, patch, signOut] = requestsOf(fetchMock);
    expect(list!.headers.get('x-csrf-token')).toBeNull();
    expect(patch!.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(signOut!.headers.get('x-csrf-token')).toBe('csrf-1');
    expect([list, patch, signOut].map((request) => request!.credentials)).toEqual(['same-origin', 'same-origin', 'same-origin']);
    expect(patch!.headers.get('authorization')).toBeNull();
  });

  it('a 401 on any call ends the session as expired; a refused sign-in does not', async () => {
    answer(fetchMock, {
      'POST /api/auth/session': json(401, { error: 'UNAUTHORIZED', message: 'Wrong email or password' }),
      'GET /api/admin/orders': json(401, { error: 'UNAUTHORIZED', message: 'No session' }),
    });
    session.signIn(sessionDto('support'));

    await api.POST('/api/auth/session', { body: { email: 'ana@example.com', password: 'x' } });
    expect(session.state().status).toBe('signed-in');

    await api.GET('/api/admin/orders');
    expect(session.state()).toEqual({ status: 'signed-out', expired: true });
    expect(session.csrfToken()).toBeNull();
  });

  it('on load, takes the session the cookie still holds', async () => {
    answer(fetchMock, { 'GET /api/auth/session': json(200, sessionDto('fiscal')) });

    await restoreSession();

    expect(session.current()?.user.role).toBe('fiscal');
  });

  it('on load without a session: a first visit is a plain sign-in, a reload after an expiry says so', async () => {
    answer(fetchMock, { 'GET /api/auth/session': json(401, { error: 'UNAUTHORIZED', message: 'No session' }) });

    await restoreSession();
    expect(session.state()).toEqual({ status: 'signed-out', expired: false });

    // This tab had a session, which ended before the reload.
    session.signIn(sessionDto('fiscal'));
    session.reset();
    await restoreSession();
    expect(session.state()).toEqual({ status: 'signed-out', expired: true });
  });

  it('on load with the service unreachable: sign-in, without claiming an expiry', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));

    await restoreSession();

    expect(session.state()).toEqual({ status: 'signed-out', expired: false });
  });
});
