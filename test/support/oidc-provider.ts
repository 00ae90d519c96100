import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

/** A person known to the test provider, by the login typed into its sign-in form. */
export interface TestOidcAccount {
  email: string;
  emailVerified: boolean;
}

export interface TestOidcProviderOptions {
  clientId: string;
  clientSecret: string;
  /** Where the provider may send the browser back (the service's `<PUBLIC_BASE_URL>/api/auth/oidc/callback`). */
  redirectUris: string[];
  /** Login → account. The development sign-in form takes any password. */
  accounts: Record<string, TestOidcAccount>;
  /**
   * Put the email in the ID token, as most providers do. Otherwise the provider follows OpenID Connect Core 5.4
   * to the letter: claims asked for by scope are given by its userinfo endpoint only.
   */
  emailInIdToken?: boolean;
}

export interface TestOidcProvider {
  /** The issuer URL, for `OIDC_ISSUER`. */
  issuer: string;
  /** The query of every authorization request the provider received, in order. */
  authorizationRequests: URLSearchParams[];
  /** The path of every request the provider received, in order (`/me` is its userinfo endpoint). */
  requestPaths: string[];
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 and a free port, with one
 * confidential client that must use PKCE and its development interactions: a sign-in form (any
 * password) and a consent form. For the service's single sign-on tests and the console's browser test.
 */
export async function startTestOidcProvider(options: TestOidcProviderOptions): Promise<TestOidcProvider> {
  const authorizationRequests: URLSearchParams[] = [];
  const requestPaths: string[] = [];
  // The provider needs its issuer, which needs the port: listen first, hand requests over once it exists.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    conformIdTokenClaims: !options.emailInIdToken,
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['test-oidc-provider-cookie-key-0123456789'] },
    // A signing key of its own per start: the ID tokens' signatures are checked against the published one.
    jwks: {
      keys: [{ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), kid: 'test-key', use: 'sig' }],
    },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    findAccount: (_context, accountId) => {
      const account = options.accounts[accountId];
      if (!account) return undefined;
      return { accountId, claims: () => ({ sub: accountId, email: account.email, email_verified: account.emailVerified }) };
    },
  };
  const provider = new Provider(issuer, configuration);
  // Its remaining warnings (the in-memory storage, the development interactions) say what this harness is.
  provider.on('server_error', (_context, error) => console.error('test OpenID provider:', error));
  const handle = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', issuer);
    requestPaths.push(url.pathname);
    if (url.pathname === '/auth') authorizationRequests.push(url.searchParams);
    void handle(request, response);
  });

  return {
    issuer,
    authorizationRequests,
    requestPaths,
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
