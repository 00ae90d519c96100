import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18next from 'i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInConsole } from '../testing/render';
import { session } from './session';
import { SignInPage } from './sign-in-page';

// The API client takes `fetch` when it is created, on import: the stub is in place before any import.
const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<typeof fetch>();
  vi.stubGlobal('fetch', mock);
  return mock;
});

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

function OrdersPage() {
  const location = useLocation();
  return <p>Orders page {location.search}</p>;
}

/** The sign-in page as a signed-out user reaches it: sent there from the orders' second page. */
function renderSignIn() {
  renderInConsole(
    <MemoryRouter initialEntries={[{ pathname: '/sign-in', state: { from: '/orders?page=2' } }]}>
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/orders" element={<OrdersPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

async function signInAs(clientId: string, clientSecret: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: /Client id/ }), clientId);
  await user.type(screen.getByLabelText(/Client secret/), clientSecret);
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
}

beforeEach(() => {
  fetchMock.mockReset();
});

describe('the sign-in page', () => {
  it("sends the client's credentials as HTTP Basic, keeps the token and returns to the page the user came from", async () => {
    fetchMock.mockResolvedValue(json(200, { access_token: 'token-1', token_type: 'Bearer', expires_in: 3600, scope: 'orders admin' }));
    renderSignIn();

    await signInAs('caixa-1', 'pão');

    expect(await screen.findByText('Orders page ?page=2')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const request = fetchMock.mock.calls[0]![0] as Request;
    expect(request.method).toBe('POST');
    expect(new URL(request.url).pathname).toBe('/api/domain-cliente/token');
    // "caixa-1:pão" as UTF-8 is 63 61 69 78 61 2d 31 3a 70 c3 a3 6f, base64 "Y2FpeGEtMTpww6Nv"
    // (Latin-1, one byte e3 for "ã", would give "Y2FpeGEtMTpw428=").
    expect(request.headers.get('authorization')).toBe('Basic Y2FpeGEtMTpww6Nv');
    expect(await request.json()).toEqual({ grant_type: 'client_credentials' });
    expect(session.token()).toBe('token-1');
    expect(session.clientId()).toBe('caixa-1');
    expect(session.scopes()).toEqual(['orders', 'admin']);
  });

  it('refuses a client without the admin scope and keeps no token', async () => {
    fetchMock.mockResolvedValue(json(200, { access_token: 'token-2', token_type: 'Bearer', expires_in: 3600, scope: 'orders' }));
    renderSignIn();

    await signInAs('pdv-1', 'secret');

    expect(await screen.findByRole('alert')).toHaveTextContent('This client does not have the admin scope.');
    expect(screen.queryByText(/Orders page/)).not.toBeInTheDocument();
    expect(session.token()).toBeNull();
  });

  it("shows the service's reason when the credentials are refused", async () => {
    fetchMock.mockResolvedValue(
      json(401, { error: 'invalid_client', error_description: 'Client authentication failed' }, { 'www-authenticate': 'Basic' }),
    );
    renderSignIn();

    await signInAs('caixa-1', 'wrong');

    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in failed: Client authentication failed');
    expect(session.token()).toBeNull();
    // A refused sign-in is not an expired session.
    expect(session.expired()).toBe(false);
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('says so when the service cannot be reached', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    renderSignIn();

    await signInAs('caixa-1', 'secret');

    expect(await screen.findByRole('alert')).toHaveTextContent('Sign-in failed: Failed to fetch');
  });

  it('says why after an expired session, with the client id filled in', () => {
    session.signIn('old-token', 'caixa-1', ['admin']);
    session.expire();
    renderSignIn();

    expect(screen.getByRole('status')).toHaveTextContent('Your session expired. Sign in again to go back where you were.');
    expect(screen.getByRole('textbox', { name: /Client id/ })).toHaveValue('caixa-1');
    expect(screen.getByLabelText(/Client secret/)).toHaveValue('');
  });

  it('speaks Portuguese when that is the language chosen', async () => {
    await i18next.changeLanguage('pt-BR');
    renderSignIn();

    expect(screen.getByRole('heading', { name: 'Entrar' })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Id do cliente/ })).toBeInTheDocument();
    expect(screen.getByLabelText(/Segredo do cliente/)).toBeInTheDocument();
  });
});
