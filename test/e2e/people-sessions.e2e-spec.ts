import { declaredCodes, expectDeclaredError } from '../support/declared-errors.js';
import {
  asPerson,
  BOOTSTRAP_ADMIN,
  GOOD_PASSWORD,
  personWith,
  sessionCookieOf,
  signedInPerson,
  signIn,
  type SessionBody,
} from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

describe('People: sessions', () => {
  let t: TestApp;
  let addresses = 0;
  /** A client address of its own for each test (TRUSTED_PROXIES trusts the test's own connection), so that failure counts do not mix. */
  const from = () => ({ 'x-forwarded-for': `198.51.100.${++addresses}` });

  beforeAll(async () => {
    t = await bootTestApp({ TRUSTED_PROXIES: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t?.close());

  it('signs the development admin in with an HttpOnly, SameSite=Strict cookie and a CSRF token, and knows the session', async () => {
    const answer = await t.http.post<SessionBody>('/auth/session', BOOTSTRAP_ADMIN, { headers: from() });
    expect(answer.status).toBe(200);
    expect(answer.body.user).toMatchObject({ email: BOOTSTRAP_ADMIN.email, role: 'admin' });
    expect(answer.body.csrfToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    // Outside production: no __Host- prefix and no Secure (plain http on 127.0.0.1).
    const setCookie = answer.headers.getSetCookie().find((cookie) => cookie.startsWith('ots_session='))!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Secure/);
    const idle = Date.parse(answer.body.idleExpiresAt) - Date.now();
    const absolute = Date.parse(answer.body.expiresAt) - Date.now();
    expect(idle).toBeGreaterThan(29 * 60_000);
    expect(idle).toBeLessThanOrEqual(30 * 60_000);
    expect(absolute).toBeGreaterThan(11.9 * 3600_000);
    expect(absolute).toBeLessThanOrEqual(12 * 3600_000);

    const current = await t.http.get<SessionBody>('/auth/session', { headers: { cookie: sessionCookieOf(answer)! } });
    expect(current.status).toBe(200);
    expect(current.body.user.email).toBe(BOOTSTRAP_ADMIN.email);
    expect(current.body.csrfToken).toBe(answer.body.csrfToken);
  });

  it('answers every kind of failed sign-in with the same 401', async () => {
    const inactive = await personWith(t, 'support');
    await t.http.request('PATCH', `/admin/users/${inactive.id}`, { active: false }, { token: await t.adminToken() });
    const invited = await t.http.post(
      '/admin/users',
      { email: `invited-${process.pid}@example.com`, name: 'Invited', role: 'support' },
      { token: await t.adminToken() },
    );
    expect(invited.status).toBe(201);
    const attempts = [
      { email: BOOTSTRAP_ADMIN.email, password: 'not-the-password-at-all' },
      { email: `nobody-${process.pid}@example.com`, password: GOOD_PASSWORD },
      { email: inactive.email, password: inactive.password },
      { email: `invited-${process.pid}@example.com`, password: GOOD_PASSWORD },
    ];
    const bodies = [];
    for (const attempt of attempts) {
      const answer = await t.http.post('/auth/session', attempt, { headers: from() });
      expect(answer.status).toBe(401);
      expect(sessionCookieOf(answer)).toBeUndefined();
      bodies.push(answer.body);
    }
    expect(bodies[0]).toEqual({ error: 'UNAUTHORIZED', message: 'Wrong email or password' });
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it('refuses an account from one address with 429 after 5 failures there, even with the right password, while others still sign in', async () => {
    const person = await personWith(t, 'support');
    const address = from();
    for (let failure = 0; failure < 5; failure++) {
      expect(
        (await t.http.post('/auth/session', { email: person.email, password: 'wrong-password-123' }, { headers: address })).status,
      ).toBe(401);
    }
    const refused = await t.http.post(
      '/auth/session',
      { email: person.email.toUpperCase(), password: person.password },
      { headers: address },
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((refused.body as { error: string }).error).toBe('RATE_LIMITED');
    await expect(signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password, address)).resolves.toBeDefined();
  });

  it('refuses an address with 429 after 20 failures, whatever the email, while other addresses still sign in', async () => {
    const address = from();
    for (let failure = 0; failure < 20; failure++) {
      const answer = await t.http.post(
        '/auth/session',
        { email: `guess-${failure}@example.com`, password: 'wrong-password-123' },
        { headers: address },
      );
      expect(answer.status).toBe(401);
    }
    const refused = await t.http.post('/auth/session', BOOTSTRAP_ADMIN, { headers: address });
    expect(refused.status).toBe(429);
    expect((refused.body as { error: string }).error).toBe('RATE_LIMITED');
    await expect(signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password, from())).resolves.toBeDefined();
  });

  it('gives a new session id at every sign-in: a cookie held before sign-in is not the session after (no fixation)', async () => {
    const person = await personWith(t, 'support');
    // A cookie planted by someone else, then one of a real earlier session.
    const planted = await t.http.post(
      '/auth/session',
      { email: person.email, password: person.password },
      { headers: { ...from(), cookie: 'ots_session=attacker-chosen-value' } },
    );
    expect(planted.status).toBe(200);
    expect(sessionCookieOf(planted)).not.toBe('ots_session=attacker-chosen-value');
    const first = sessionCookieOf(planted)!;

    const again = await signIn(t.http, person.email, person.password, { ...from(), cookie: first });
    expect(again.cookie).not.toBe(first);
    expect((await t.http.get('/auth/session', { headers: { cookie: first } })).status).toBe(401);
    expect((await t.http.get('/auth/session', { headers: { cookie: again.cookie } })).status).toBe(200);
  });

  it('refuses a state-changing cookie request without the CSRF token or with a wrong one (403), and accepts it with the token', async () => {
    const admin = await signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password, from());
    const person = await personWith(t, 'support');
    for (const csrf of [false, 'not-the-token'] as const) {
      const answer = await t.http.request('PATCH', `/admin/users/${person.id}`, { name: 'Renamed' }, asPerson(admin, csrf));
      expect(answer.status).toBe(403);
      expect((answer.body as { error: string }).error).toBe('CSRF_TOKEN_INVALID');
      expect(declaredCodes('DELETE', '/api/auth/session', 403)).toContain('CSRF_TOKEN_INVALID');
    }
    expect((await t.http.delete('/auth/session', asPerson(admin, false))).status).toBe(403);
    const renamed = await t.http.request('PATCH', `/admin/users/${person.id}`, { name: 'Renamed' }, asPerson(admin));
    expect(renamed.status).toBe(200);
    expect((renamed.body as { name: string }).name).toBe('Renamed');
    // Reads need no token.
    expect((await t.http.get('/admin/users', asPerson(admin, false))).status).toBe(200);
  });

  it('ends the session on the server at sign-out: the same cookie replayed afterwards gets 401', async () => {
    const person = await signedInPerson(t, 'support');
    const out = await t.http.delete('/auth/session', asPerson(person));
    expect(out.status).toBe(204);
    expect(out.headers.getSetCookie().join()).toMatch(/ots_session=;/);
    for (const path of ['/auth/session', '/admin/orders']) {
      const replay = await t.http.get(path, asPerson(person));
      expect(replay.status).toBe(401);
      expect((replay.body as { error: string }).error).toBe('UNAUTHORIZED');
    }
  });

  it("refuses a deactivated person's open session at its next request with ACCESS_REMOVED", async () => {
    const person = await signedInPerson(t, 'support');
    expect((await t.http.get('/admin/orders', asPerson(person))).status).toBe(200);
    const admin = await signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password, from());
    expect((await t.http.request('PATCH', `/admin/users/${person.id}`, { active: false }, asPerson(admin))).status).toBe(200);
    // Told that the access was removed, not that the session expired: the console says so in the person's words.
    for (const path of ['/auth/session', '/admin/orders']) {
      const refused = await t.http.get(path, asPerson(person));
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ error: 'ACCESS_REMOVED' });
    }
    // Active again, the old session stays ended, now as any ended session.
    expect((await t.http.request('PATCH', `/admin/users/${person.id}`, { active: true }, asPerson(admin))).status).toBe(200);
    const ended = await t.http.get('/admin/orders', asPerson(person));
    expect(ended.status).toBe(401);
    expect(ended.body).toMatchObject({ error: 'UNAUTHORIZED' });
  });

  it("ends the person's other sessions at a password change; this one goes on under a new id", async () => {
    const person = await personWith(t, 'support');
    const here = await signIn(t.http, person.email, person.password, from());
    const elsewhere = await signIn(t.http, person.email, person.password, from());
    const newPassword = 'another-good-password-77';
    const changed = await t.http.put<SessionBody>(
      '/auth/session/password',
      { currentPassword: person.password, newPassword },
      asPerson(here),
    );
    expect(changed.status).toBe(200);
    const renewed = sessionCookieOf(changed)!;
    expect(renewed).not.toBe(here.cookie);
    expect(changed.body.csrfToken).not.toBe(here.csrfToken);
    expect((await t.http.get('/auth/session', { headers: { cookie: here.cookie } })).status).toBe(401);
    expect((await t.http.get('/auth/session', { headers: { cookie: elsewhere.cookie } })).status).toBe(401);
    expect((await t.http.get('/auth/session', { headers: { cookie: renewed } })).status).toBe(200);
    expect((await t.http.post('/auth/session', { email: person.email, password: person.password }, { headers: from() })).status).toBe(401);
    await expect(signIn(t.http, person.email, newPassword, from())).resolves.toBeDefined();
  });

  it('refuses a wrong current password and a new password that breaks the rules', async () => {
    const person = await signedInPerson(t, 'support');
    const wrong = await t.http.put(
      '/auth/session/password',
      { currentPassword: 'not-my-password', newPassword: 'another-good-password-77' },
      asPerson(person),
    );
    expect(wrong.status).toBe(400);
    const weak = await t.http.put('/auth/session/password', { currentPassword: GOOD_PASSWORD, newPassword: 'short' }, asPerson(person));
    expect(weak.status).toBe(400);
    expect(weak.body).toMatchObject({ error: 'PASSWORD_REJECTED', details: [{ field: 'newPassword', reason: 'TOO_SHORT' }] });
    expectDeclaredError('PUT', '/api/auth/session/password', weak as { status: number; body: object });
    const ownEmail = await t.http.put(
      '/auth/session/password',
      { currentPassword: GOOD_PASSWORD, newPassword: person.email },
      asPerson(person),
    );
    expect(ownEmail.body).toMatchObject({ error: 'PASSWORD_REJECTED', details: [{ field: 'newPassword', reason: 'PERSONAL' }] });
  });

  it('ends a session 30 minutes after its last request, and 12 hours after sign-in however busy', async () => {
    const idle = await signedInPerson(t, 'support');
    const busy = await signedInPerson(t, 'support');
    // Moved in the database rather than waited for.
    await t.dataSource.query(`UPDATE user_session SET last_seen_at = now() - interval '29 minutes' WHERE user_id = $1`, [idle.id]);
    expect((await t.http.get('/auth/session', asPerson(idle))).status).toBe(200);
    await t.dataSource.query(`UPDATE user_session SET last_seen_at = now() - interval '31 minutes' WHERE user_id = $1`, [idle.id]);
    expect((await t.http.get('/auth/session', asPerson(idle))).status).toBe(401);

    await t.dataSource.query(`UPDATE user_session SET created_at = now() - interval '11 hours 59 minutes' WHERE user_id = $1`, [busy.id]);
    expect((await t.http.get('/auth/session', asPerson(busy))).status).toBe(200);
    await t.dataSource.query(`UPDATE user_session SET created_at = now() - interval '12 hours 1 minute' WHERE user_id = $1`, [busy.id]);
    expect((await t.http.get('/auth/session', asPerson(busy))).status).toBe(401);
  });

  it('refuses a cookie whose signature does not check out, before and after the body is read', async () => {
    const person = await signedInPerson(t, 'fiscal');
    const forged = person.cookie.replace(/\.[^.]+$/, '.forgedsignature');
    expect((await t.http.get('/auth/session', { headers: { cookie: forged } })).status).toBe(401);
    const withBody = await t.http.post(
      '/admin/product-fiscal-categories',
      { productId: 'x', productName: 'x', ncm: '22021000' },
      asPerson({ cookie: forged, csrfToken: person.csrfToken }),
    );
    expect(withBody.status).toBe(401);
  });

  it('created the development admin at the first start, once', async () => {
    const count = await t.dataSource.query(`SELECT count(*)::int AS n FROM app_user WHERE email = $1`, [BOOTSTRAP_ADMIN.email]);
    expect(count[0].n).toBe(1);
    const second = await bootTestApp({}, { databaseUrl: t.databaseUrl });
    try {
      const again = await second.dataSource.query(`SELECT count(*)::int AS n FROM app_user WHERE role = 'admin' AND email = $1`, [
        BOOTSTRAP_ADMIN.email,
      ]);
      expect(again[0].n).toBe(1);
    } finally {
      await second.close();
    }
  });
});
