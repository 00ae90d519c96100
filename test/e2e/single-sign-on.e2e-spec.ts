import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { OidcFlowCookie } from '../../src/single-sign-on/oidc-flow-cookie.js';
import { ManualBrowser, type BrowserResponse } from '../support/manual-browser.js';
import { bootWithTestProvider, OIDC_NAME, signInAtProvider, type SingleSignOnSetup } from '../support/single-sign-on.js';
import { bootTestApp, TEST_JWT_SECRET } from '../support/test-app.js';

const FAILED = '/console/sign-in?error=sso';

let setup: SingleSignOnSetup;
/** The people the service knows: Ana and Bruno active, Carla deactivated. */
const people: Record<'ana' | 'bruno' | 'carla', { id: string; email: string }> = {
  ana: { id: '', email: 'Ana@Example.com' },
  bruno: { id: '', email: 'bruno@example.com' },
  carla: { id: '', email: 'carla@example.com' },
};

beforeAll(async () => {
  setup = await bootWithTestProvider({
    // The provider writes Ana's email in another case than the service stores it.
    ana: { email: 'ana@example.com', emailVerified: true },
    unverified: { email: 'bruno@example.com', emailVerified: false },
    carla: { email: 'carla@example.com', emailVerified: true },
    stranger: { email: 'stranger@example.com', emailVerified: true },
  });
  const token = await setup.t.adminToken();
  for (const [name, person] of Object.entries(people)) {
    // Invited, no password set: single sign-on does not need one.
    const created = await setup.t.http.post<{ user: { id: string } }>(
      '/admin/users',
      { email: person.email, name, role: 'support' },
      { token },
    );
    if (created.status !== 201) throw new Error(`inviting ${person.email} answered ${created.status}: ${created.text}`);
    person.id = created.body.user.id;
  }
  const deactivated = await setup.t.http.request('PATCH', `/admin/users/${people.carla.id}`, { active: false }, { token });
  if (deactivated.status !== 200) throw new Error(`deactivating Carla answered ${deactivated.status}: ${deactivated.text}`);
});

afterAll(async () => {
  await setup?.close();
});

/** Who the session cookie the answer set belongs to, asked of the service; undefined when it set none. */
async function signedInAs(answer: BrowserResponse): Promise<string | undefined> {
  const cookie = answer.setCookies.find((line) => /^(__Host-)?ots_session=[^;]+/.test(line))?.split(';')[0];
  if (!cookie) return undefined;
  const session = await setup.t.http.get<{ user: { id: string } }>('/auth/session', { headers: { cookie } });
  expect(session.status).toBe(200);
  return session.body.user.id;
}

async function peopleCount(): Promise<number> {
  const list = await setup.t.http.get<{ total: number }>('/admin/users', { token: await setup.t.adminToken() });
  return list.body.total;
}

/** The audit log's single sign-on refusals, oldest first. */
async function refusals(): Promise<Array<{ target: string; reason: unknown; email: unknown }>> {
  const rows = await setup.t.dataSource.getRepository(AuditEventEntity).find({ where: { action: 'sign-in-failed' }, order: { id: 'ASC' } });
  return rows
    .filter((row) => row.changes.method?.after === 'single-sign-on')
    .map((row) => ({ target: row.targetId, reason: row.changes.reason?.after, email: row.changes.email?.after }));
}

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

  it('signs in the active person whose verified email the provider vouches for, with a new session', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const request = setup.provider.authorizationRequests.at(-1)!;
    // PKCE and nonce reached the provider, which requires PKCE of this client.
    expect(request.get('code_challenge_method')).toBe('S256');
    expect(request.get('nonce')).toBeTruthy();

    const answer = await browser.get(callback.href);
    expect(answer.status).toBe(302);
    expect(answer.location).toBe('/console/');
    expect(await signedInAs(answer)).toBe(people.ana.id);
    // The ID token's signature was checked against the published keys; this provider gives the email through userinfo only.
    expect(setup.provider.requestPaths).toContain('/jwks');
    expect(setup.provider.requestPaths.slice(setup.provider.requestPaths.lastIndexOf('/token'))).toContain('/me');
    // The sign-in under way is used up.
    expect(browser.cookie(setup.origin, 'ots_oidc')).toBeUndefined();
    const signIns = await setup.t.dataSource.getRepository(AuditEventEntity).find({ where: { action: 'sign-in', actorId: people.ana.id } });
    expect(signIns.map((event) => event.changes.method?.after)).toEqual(['single-sign-on']);
  });

  it('refuses an answer whose state is not the one the browser started with', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    callback.searchParams.set('state', 'a-state-of-another-sign-in');
    const answer = await browser.get(callback.href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
  });

  it('refuses an answer in a browser that started no sign-in (login CSRF)', async () => {
    const callback = await signInAtProvider(new ManualBrowser(), setup.origin, 'ana');
    const answer = await new ManualBrowser().get(callback.href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
  });

  it('refuses a replayed answer, even with the sign-in cookie it came with', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const flowCookie = browser.cookie(setup.origin, 'ots_oidc')!;
    expect(await signedInAs(await browser.get(callback.href))).toBe(people.ana.id);

    const again = await browser.get(callback.href);
    expect(again.location).toBe(FAILED);
    expect(await signedInAs(again)).toBeUndefined();
    browser.setCookie(setup.origin, 'ots_oidc', flowCookie);
    // The code was used once: the provider refuses it again.
    const replayed = await browser.get(callback.href);
    expect(replayed.location).toBe(FAILED);
    expect(await signedInAs(replayed)).toBeUndefined();
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
    const answer = await browser.get(callback.href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
  });

  it('refuses a sign-in cookie that is not signed by the service', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const genuine = browser.cookie(setup.origin, 'ots_oidc')!;
    browser.setCookie(setup.origin, 'ots_oidc', `${genuine.slice(0, genuine.lastIndexOf('.'))}.forged-signature`);
    const answer = await browser.get(callback.href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
  });

  it('refuses an email the provider has not verified, though an active person holds it', async () => {
    const before = (await refusals()).length;
    const browser = new ManualBrowser();
    const answer = await browser.get((await signInAtProvider(browser, setup.origin, 'unverified')).href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
    expect((await refusals()).slice(before)).toEqual([
      { target: 'bruno@example.com', reason: 'email-not-verified', email: 'bruno@example.com' },
    ]);
  });

  it('refuses a deactivated person', async () => {
    const browser = new ManualBrowser();
    const answer = await browser.get((await signInAtProvider(browser, setup.origin, 'carla')).href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
    expect((await refusals()).at(-1)).toEqual({ target: 'carla@example.com', reason: 'no-active-person', email: 'carla@example.com' });
  });

  it('refuses a verified email nobody holds, and creates nobody', async () => {
    const count = await peopleCount();
    const browser = new ManualBrowser();
    const answer = await browser.get((await signInAtProvider(browser, setup.origin, 'stranger')).href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
    expect(await peopleCount()).toBe(count);
    expect((await refusals()).at(-1)).toEqual({
      target: 'stranger@example.com',
      reason: 'no-active-person',
      email: 'stranger@example.com',
    });
  });

  it('refuses the provider’s error answer (the person declined)', async () => {
    const browser = new ManualBrowser();
    const callback = await signInAtProvider(browser, setup.origin, 'ana');
    const declined = new URL(callbackOf(setup.origin));
    declined.searchParams.set('error', 'access_denied');
    declined.searchParams.set('state', callback.searchParams.get('state')!);
    const answer = await browser.get(declined.href);
    expect(answer.location).toBe(FAILED);
    expect(await signedInAs(answer)).toBeUndefined();
  });
});

describe('a provider that puts the email in the ID token', () => {
  it('signs the person in from the ID token alone', async () => {
    const other = await bootWithTestProvider({ dora: { email: 'dora@example.com', emailVerified: true } }, { emailInIdToken: true });
    try {
      const token = await other.t.adminToken();
      const created = await other.t.http.post<{ user: { id: string } }>(
        '/admin/users',
        { email: 'dora@example.com', name: 'Dora', role: 'fiscal' },
        { token },
      );
      const browser = new ManualBrowser();
      const answer = await browser.get((await signInAtProvider(browser, other.origin, 'dora')).href);
      expect(answer.location).toBe('/console/');
      const cookie = answer.setCookies.find((line) => line.startsWith('ots_session='))!.split(';')[0]!;
      expect(
        (await other.t.http.get<{ user: { id: string; role: string } }>('/auth/session', { headers: { cookie } })).body.user,
      ).toMatchObject({
        id: created.body.user.id,
        role: 'fiscal',
      });
      expect(other.provider.requestPaths).not.toContain('/me');
    } finally {
      await other.close();
    }
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
