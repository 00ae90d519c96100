import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInConsole } from '../testing/render';
import { answer, json, requestsOf, sessionDto } from '../testing/api-stub';
import { session } from './session';
import { SignInPage } from './sign-in-page';

// The API client takes `fetch` when it is created, on import: the stub is in place before any import.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const NO_SINGLE_SIGN_ON = json(200, { password: true, singleSignOn: null });

function OrdersPage() {
  const location = useLocation();
  return <p>Orders page {location.search}</p>;
}

/** The sign-in page as a signed-out user reaches it: sent there from the orders' second page. */
function renderSignIn(search = '') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderInConsole(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[{ pathname: '/sign-in', search, state: { from: '/orders?page=2' } }]}>
        <Routes>
          <Route path="/sign-in" element={<SignInPage />} />
          <Route path="/orders" element={<OrdersPage />} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function signInAs(email: string, password: string, submit = 'Sign in') {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: /Email|E-mail/ }), email);
  await user.type(screen.getByLabelText(/Password|Senha/), password);
  await user.click(screen.getByRole('button', { name: submit }));
}

beforeEach(() => {
  fetchMock.mockReset();
  session.reset();
});

// Typing is slow in jsdom on a shared machine: more than vitest's default 5 s.
describe('the sign-in page', { timeout: 30_000 }, () => {
  it('sends the email and password, keeps the session in memory only and returns to the page the user came from', async () => {
    answer(fetchMock, { 'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON, 'POST /api/auth/session': json(200, sessionDto('support')) });
    renderSignIn();

    await signInAs(' ana@example.com ', 'a long enough pass');

    expect(await screen.findByText('Orders page ?page=2')).toBeInTheDocument();
    const post = requestsOf(fetchMock).find((request) => request.method === 'POST')!;
    expect(new URL(post.url).pathname).toBe('/api/auth/session');
    expect(post.credentials).toBe('same-origin');
    expect(await post.json()).toEqual({ email: 'ana@example.com', password: 'a long enough pass' });
    expect(session.current()?.user.role).toBe('support');
    expect(session.csrfToken()).toBe('csrf-1');
    // The cookie is the session: nothing a script could steal is stored.
    expect(JSON.stringify({ ...sessionStorage })).not.toContain('csrf-1');
    expect(localStorage.length).toBe(0);
  });

  it("shows the service's one message for every refused sign-in, and is not an expired session", async () => {
    answer(fetchMock, {
      'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON,
      'POST /api/auth/session': json(401, { error: 'UNAUTHORIZED', message: 'Wrong email or password' }),
    });
    renderSignIn();

    await signInAs('ana@example.com', 'wrong password!');

    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong email or password.');
    expect(session.current()).toBeNull();
    expect(session.expired()).toBe(false);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it("says a refused sign-in and an unreachable service in pt-BR in the console's words, not the service's English", async () => {
    await i18next.changeLanguage('pt-BR');
    try {
      answer(fetchMock, {
        'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON,
        'POST /api/auth/session': json(401, { error: 'UNAUTHORIZED', message: 'Wrong email or password' }),
      });
      renderSignIn();
      await signInAs('ana@example.com', 'wrong password!', 'Entrar');
      expect(await screen.findByRole('alert')).toHaveTextContent('E-mail ou senha incorretos.');
      expect(screen.getByRole('alert')).not.toHaveTextContent('Wrong');

      fetchMock.mockReset();
      fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
      await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Entrar' }));
      expect(await screen.findByRole('alert')).toHaveTextContent('Falha ao entrar: Não foi possível falar com o serviço.');
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('says how long to wait after too many failures', async () => {
    answer(fetchMock, {
      'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON,
      'POST /api/auth/session': json(429, { error: 'RATE_LIMITED', message: 'Too many attempts' }, { 'retry-after': '120' }),
    });
    renderSignIn();

    await signInAs('ana@example.com', 'a long enough pass');

    expect(await screen.findByRole('alert')).toHaveTextContent('Too many failed attempts. Try again in 120 seconds.');
  });

  it('says so when the service cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderSignIn();

    await signInAs('ana@example.com', 'secret');

    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in failed: Failed to fetch');
  });

  it('says why after an expired session, with the email filled in', () => {
    answer(fetchMock, { 'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON });
    session.signIn(sessionDto('fiscal'));
    session.expire();
    renderSignIn();

    expect(screen.getByRole('status')).toHaveTextContent('Your session expired. Sign in again to go back where you were.');
    expect(screen.getByRole('textbox', { name: /Email/ })).toHaveValue('ana@example.com');
    expect(screen.getByLabelText(/Password/)).toHaveValue('');
  });

  it('offers single sign-on when the service has a provider, as a link to its start', async () => {
    answer(fetchMock, {
      'GET /api/auth/sign-in-options': json(200, { password: true, singleSignOn: { name: 'Acme ID', url: '/api/auth/oidc/start' } }),
    });
    renderSignIn();

    const link = await screen.findByRole('link', { name: 'Sign in with Acme ID' });
    expect(link).toHaveAttribute('href', '/api/auth/oidc/start');
  });

  it('offers no single sign-on without a provider', async () => {
    answer(fetchMock, { 'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON });
    renderSignIn();

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
  });

  it('explains a single sign-on that found nobody (?error=sso)', () => {
    answer(fetchMock, { 'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON });
    renderSignIn('?error=sso');

    expect(screen.getByRole('alert')).toHaveTextContent('no active person here has the email it confirmed');
  });

  it('speaks Portuguese when that is the language chosen', async () => {
    answer(fetchMock, { 'GET /api/auth/sign-in-options': NO_SINGLE_SIGN_ON });
    await i18next.changeLanguage('pt-BR');
    renderSignIn();

    expect(screen.getByRole('heading', { name: 'Entrar' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /E-mail/ })).toBeInTheDocument();
    expect(screen.getByLabelText(/Senha/)).toBeInTheDocument();
  });
});
