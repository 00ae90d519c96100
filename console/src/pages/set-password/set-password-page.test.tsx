import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { answer, json, requestsOf } from '../../testing/api-stub';
import { renderPage } from '../../testing/render-with-query';
import { SetPasswordPage } from './set-password-page';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

function SignIn() {
  const state = useLocation().state as { passwordSet?: boolean } | null;
  return <p>Sign-in page{state?.passwordSet ? ', password set' : ''}</p>;
}

function renderAt(path: string) {
  renderPage(
    <Routes>
      <Route path="/set-password" element={<SetPasswordPage />} />
      <Route path="/sign-in" element={<SignIn />} />
    </Routes>,
    path,
  );
}

const LINK = json(200, { email: 'bia@example.com', name: 'Bia Lima', expiresAt: '2026-11-27T12:00:00.000Z' });

async function typePasswords(password: string, confirm = password) {
  const user = userEvent.setup({ delay: null });
  await user.type(screen.getByLabelText(/^New password$|^New password \*/), password);
  await user.type(screen.getByLabelText(/^New password again/), confirm);
  await user.click(screen.getByRole('button', { name: 'Set password' }));
}

beforeEach(() => {
  fetchMock.mockReset();
});

describe('the set-password page', { timeout: 30_000 }, () => {
  it('reads the link from the fragment, explains the rules, sets the password and goes to sign-in', async () => {
    answer(fetchMock, { 'GET /api/auth/password-links/tok-1': LINK, 'POST /api/auth/password-links/tok-1': json(204, null) });
    renderAt('/set-password#tok-1');

    expect(await screen.findByText(/For Bia Lima \(bia@example.com\)/)).toBeInTheDocument();
    expect(screen.getByText(/at least 12 characters, and hard to guess: not a commonly used password/)).toBeInTheDocument();
    await typePasswords('correct horse battery');

    expect(await screen.findByText('Sign-in page, password set')).toBeInTheDocument();
    const post = requestsOf(fetchMock).find((request) => request.method === 'POST')!;
    expect(await post.json()).toEqual({ password: 'correct horse battery' });
  });

  it('refuses a short password or a mistyped second one before sending', async () => {
    answer(fetchMock, { 'GET /api/auth/password-links/tok-1': LINK });
    renderAt('/set-password#tok-1');
    await screen.findByText(/For Bia Lima/);

    await typePasswords('short', 'shorter');

    expect(screen.getByText('At least 12 characters')).toBeInTheDocument();
    expect(screen.getByText('The two passwords differ')).toBeInTheDocument();
    expect(requestsOf(fetchMock).filter((request) => request.method === 'POST')).toEqual([]);
  });

  it("shows the service's reasons for refusing a password", async () => {
    answer(fetchMock, {
      'GET /api/auth/password-links/tok-1': LINK,
      'POST /api/auth/password-links/tok-1': json(400, {
        error: 'PASSWORD_REJECTED',
        message: 'The password is refused',
        details: [{ field: 'password', problem: 'is a common password', reason: 'COMMON' }],
      }),
    });
    renderAt('/set-password#tok-1');
    await screen.findByText(/For Bia Lima/);

    await typePasswords('password1234');

    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The service refused this password:This is a commonly used password: choose another.',
    );
  });

  it.each([
    ['en', 'GUESSABLE', 'Too easy to guess (a repeated character, a sequence, a keyboard row or common words): add more unrelated words.'],
    ['en', 'PERSONAL', 'Too easy to guess from your email or name: choose a password without them.'],
    ['pt-BR', 'GUESSABLE', 'Fácil demais de adivinhar (um caractere repetido, uma sequência, uma fileira do teclado ou palavras comuns)'],
    ['pt-BR', 'PERSONAL', 'Fácil demais de adivinhar a partir do seu e-mail ou nome: escolha uma senha sem eles.'],
  ])('says in %s why a %s password was refused', async (language, reason, sentence) => {
    await i18next.changeLanguage(language);
    try {
      answer(fetchMock, {
        'GET /api/auth/password-links/tok-1': LINK,
        'POST /api/auth/password-links/tok-1': json(400, {
          error: 'PASSWORD_REJECTED',
          message: 'The password is refused',
          details: [{ field: 'password', problem: 'the service sentence', reason }],
        }),
      });
      renderAt('/set-password#tok-1');
      await screen.findByText(/Bia Lima/);
      const user = userEvent.setup({ delay: null });
      for (const input of screen.getAllByLabelText(/senha|password/i, { selector: 'input' })) await user.type(input, 'aaaaaaaaaaaa');
      await user.click(screen.getByRole('button', { name: language === 'en' ? 'Set password' : /senha/i }));

      expect(await screen.findByRole('alert')).toHaveTextContent(sentence);
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('says a used, expired or unknown link cannot be used', async () => {
    answer(fetchMock, { 'GET /api/auth/password-links/old': json(404, { error: 'LINK_NOT_FOUND', message: 'No such link' }) });
    renderAt('/set-password#old');

    expect(await screen.findByText(/This link cannot be used: it was already used, it expired/)).toBeInTheDocument();
    expect(screen.queryByLabelText(/^New password/)).not.toBeInTheDocument();
  });

  it('without a token in the address, says to open the whole link', () => {
    renderAt('/set-password');
    expect(screen.getByText('This address has no link in it. Open the whole link you were sent.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
