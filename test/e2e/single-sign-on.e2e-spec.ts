import type { FastifyReply } from 'fastify';
import { OidcFlowCookie } from '../../src/single-sign-on/oidc-flow-cookie.js';
import { SingleSignOnPeople, type SignInCandidate } from '../../src/single-sign-on/single-sign-on-people.js';
import { ManualBrowser } from '../support/manual-browser.js';
import { bootWithTestProvider, OIDC_NAME, signInAtProvider, type SingleSignOnSetup } from '../support/single-sign-on.js';
import { bootTestApp, TEST_JWT_SECRET } from '../support/test-app.js';

const FAILED = '/console/sign-in?error=sso';

let setup: SingleSignOnSetup;
/** The people the service knows, by email; what single sign-on asked and started. */
const activePeople = new Map<string, string>();
const lookedUp: string[] = [];
const started: string[] = [];

beforeAll(async () => {
  setup = await bootWithTestProvider({
    ana: { email: 'Ana@Example.com', emailVerified: true },
    unverified: { email: 'bruno@example.com', emailVerified: false },
    stranger: { email: 'stranger@example.com', emailVerified: true },
  });
  activePeople.set('ana@example.com', 'person-ana');
  activePeople.set('bruno@example.com', 'person-bruno');
  // The people's module answers through this interface: here, a directory of two people.
  const people: Pick<SingleSignOnPeople, keyof SingleSignOnPeople> = {
    findActivePersonByEmail: (email: string): Promise<SignInCandidate | undefined> => {
      lookedUp.push(email);
      const id = activePeople.get(email.toLowerCase());
      return Promise.resolve(id ? { id } : undefined);
    },
    startSession: (personId: string, _request: unknown, reply: FastifyReply): Promise<void> => {
      started.push(personId);
      reply.header('set-cookie', [
        ...[reply.getHeader('set-cookie') ?? []].flat().map(String),
        `ots_session=for-${personId}; Path=/; HttpOnly; SameSite=Strict`,
      ]);
      return Promise.resolve();
    },
  };
  Object.assign(setup.t.app.get(SingleSignOnPeople), people);
});

afterAll(async () => {
  await setup?.close();
});

beforeEach(() => {
  lookedUp.length = 0;
  started.length = 0;
});

const callbackOf = (origin: string) => `${origin}/api/auth/oidc/callback`;

describe('single sign-on through an OpenID Connect provider', () => {
  it('offers the provider on the sign-in page', async () => {
    const answer = await setup.t.http.get('/auth/sign-in-options');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ password: true, singleSignOn: { name: OIDC_NAME, url: '/api/auth/oidc/start' } });
  });

  it('sends the browser to the provider with the code flow, PKCE S256, state and nonce, and keeps them in a Lax cookie', async () => {
    const browser = new ManualBrowser();
    const start = await browser.get(`${setup.origin}/api/auth/oidc/start`);
    expect(start.status).toBe(302);
    const location = new URL(start.location!);
    expect(location.origin).toBe(setup.provider.issuer);
    const query = location.searchParams;
    expect(query.get('response_type')).toBe('code');
    expect(query.get('client_id')).toBe('order-tax-console');
    expect(query.get('redirect_uri')).toBe(callbackOf(setup.origin));
    expect(query.get('scope')!.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
    expect(query.get('code_challenge_method')).toBe('S256');
    expect(query.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(query.get('state')!.length).toBeGreaterThanOrEqual(22);
    expect(query.get('nonce')!.length).toBeGreaterThanOrEqual(22);
    expect(query.get('state')).not.toBe(query.get('nonce'));

    const cookie = start.setCookies.find((line) => line.startsWith('ots_oidc='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=600/);
    // Neither the verifier nor the nonce is readable in the URL the provider saw besides the nonce itself.
    expect(start.location).not.toContain(browser.cookie(setup.origin, 'ots_oidc')!);
  });

  it('signs in the active person whose verified email the provider vouches for', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const request = setup.provider.authorizationRequests.at(-1)!;
    // PKCE and nonce reached the provider, which requires PKCE of this client.
    expect(request.get('code_challenge_method')).toBe('S256');
    expect(request.get('nonce')).toBeTruthy();

    const answer = await browser.get(callback.href);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/console/');
    expect(lookedUp).toEqual(['Ana@Example.com']);
    expect(started).toEqual(['person-ana']);
    expect(answer.setCookies.some((line) => line.startsWith('ots_session=for-person-ana'))).toBe(true);
    // The sign-in under way is used up.
    expect(browser.cookie(setup.origin, 'ots_oidc')).toBeUndefined();
  });

  it('refuses an answer whose state is not the one the browser started with', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    callback.searchParams.set('state', 'a-state-of-another-sign-in');
    const answer = await browser.get(callback.href);
    expect(answer.location).toBe(FAILED);
    expect(started).toEqual([]);
  });

  it('refuses an answer in a browser that started no sign-in (login CSRF)', async () => {
    const victim = new ManualBrowser();
    const callback = await signInAtProvider(new ManualBrowser(), setup.origin, 'ana');
    const answer = await victim.get(callback.href);
    expect(answer.location).toBe(FAILED);
    expect(started).toEqual([]);
  });

  it('refuses a replayed answer, even with the sign-in cookie it came with', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const flowCookie = browser.cookie(setup.origin, 'ots_oidc')!;
    expect((await browser.get(callback.href)).location).toBe('/console/');
    expect(started).toEqual(['person-ana']);

    expect((await browser.get(callback.href)).location).toBe(FAILED);
    browser.setCookie(setup.origin, 'ots_oidc', flowCookie);
    // The code was used once: the provider refuses it again.
    expect((await browser.get(callback.href)).location).toBe(FAILED);
    expect(started).toEqual(['person-ana']);
  });

  it('refuses an ID token whose nonce is not the sign-in’s', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const cookies = new OidcFlowCookie(TEST_JWT_SECRET, false);
    const flow = cookies.read({ headers: { cookie: `ots_oidc=${browser.cookie(setup.origin, 'ots_oidc')!}` } } as never)!;
    expect(flow.state).toBe(callback.searchParams.get('state'));
    // The same sign-in, signed with the service's key, but expecting another nonce.
    const forged = cookies.serialize({ ...flow, nonce: 'another-nonce-another-nonce' });
    browser.setCookie(setup.origin, 'ots_oidc', /^ots_oidc=([^;]+)/.exec(forged)![1]!);
    expect((await browser.get(callback.href)).location).toBe(FAILED);
    expect(started).toEqual([]);
  });

  it('refuses a sign-in cookie that is not signed by the service', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const genuine = browser.cookie(setup.origin, 'ots_oidc')!;
    browser.setCookie(setup.origin, 'ots_oidc', `${genuine.slice(0, genuine.lastIndexOf('.'))}.forged-signature`);
    expect((await browser.get(callback.href)).location).toBe(FAILED);
    expect(started).toEqual([]);
  });

  it('refuses an email the provider has not verified, without looking for the person', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'unverified');
    expect((await browser.get(callback.href)).location).toBe(FAILED);
    expect(lookedUp).toEqual([]);
    expect(started).toEqual([]);
  });

  it('refuses a verified email no active person holds', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'stranger');
    expect((await browser.get(callback.href)).location).toBe(FAILED);
    expect(lookedUp).toEqual(['stranger@example.com']);
    expect(started).toEqual([]);
  });

  it('refuses the provider’s error answer (the person declined)', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const declined = new URL(callbackOf(setup.origin));
    declined.searchParams.set('error', 'access_denied');
    declined.searchParams.set('state', callback.searchParams.get('state')!);
    expect((await browser.get(declined.href)).location).toBe(FAILED);
    expect(started).toEqual([]);
  });
});

describe('without a provider configured', () => {
  it('offers password sign-in only, and the single sign-on routes are not found', async () => {
    const t = await bootTestApp();
    try {
      expect((await t.http.get('/auth/sign-in-options')).body).toEqual({ password: true, singleSignOn: null });
      const start = await new ManualBrowser().get(`${t.baseUrl}/auth/oidc/start`);
      expect(start.status).toBe(404);
      expect(JSON.parse(start.text)).toEqual({ error: 'NOT_FOUND', message: 'Single sign-on is not configured' });
      expect((await new ManualBrowser().get(`${t.baseUrl}/auth/oidc/callback?code=x&state=y`)).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
