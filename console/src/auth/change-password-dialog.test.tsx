import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, json, requestsOf, sessionDto } from '../testing/api-stub';
import { renderPage } from '../testing/render-with-query';
import { ChangePasswordDialog } from './change-password-dialog';
import { session } from './session';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

async function change(current: string, next: string) {
  const user = userEvent.setup({ delay: null });
  await user.type(screen.getByLabelText(/^Current password/), current);
  await user.type(screen.getByLabelText(/^New password \*|^New password$/), next);
  await user.type(screen.getByLabelText(/^New password again/), next);
  await user.click(screen.getByRole('button', { name: 'Change password' }));
}

beforeEach(() => {
  fetchMock.mockReset();
  session.signIn(sessionDto('support'));
});

describe('the change-password dialog', { timeout: 30_000 }, () => {
  it('changes the password and goes on with the renewed CSRF token', async () => {
    answer(fetchMock, { 'PUT /api/auth/session/password': json(200, { ...sessionDto('support'), csrfToken: 'csrf-2' }) });
    renderPage(<ChangePasswordDialog onClose={() => undefined} />);

    await change('the old passphrase', 'a brand new passphrase');

    expect(await screen.findByText('Your password is changed; your other sessions ended.')).toBeInTheDocument();
    const put = requestsOf(fetchMock)[0]!;
    expect(put.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(await put.json()).toEqual({ currentPassword: 'the old passphrase', newPassword: 'a brand new passphrase' });
    expect(session.csrfToken()).toBe('csrf-2');
  });

  it('says at its field that the current password is wrong, and keeps the session', async () => {
    answer(fetchMock, {
      'PUT /api/auth/session/password': json(400, {
        error: 'VALIDATION_FAILED',
        message: 'The current password is wrong',
        details: [{ field: 'currentPassword', problem: 'The current password is wrong' }],
      }),
    });
    renderPage(<ChangePasswordDialog onClose={() => undefined} />);

    await change('not my password', 'a brand new passphrase');

    expect(await screen.findByLabelText(/^Current password/)).toHaveAccessibleDescription('The current password is wrong');
    expect(session.state().status).toBe('signed-in');
  });
});
