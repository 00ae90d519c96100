import type { ErrorBody } from '../support/api.js';
import { asPerson, GOOD_PASSWORD, personWith, sessionCookieOf, signIn } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const WRONG = 'wrong-password-123';

/**
 * Failed sign-ins once counted per account alone: five wrong passwords from any address made the person's
 * right password answer 429 for 15 minutes, on every instance, so anyone could lock the real admin out. And a
 * wrong current password on a password change was never limited at all (a taken session could guess freely).
 */
describe('People: failed password checks cannot lock a person out, and a password change cannot be guessed', () => {
  let t: TestApp;
  let addresses = 0;
  /** A client address of its own (TRUSTED_PROXIES trusts the test's own connection). */
  const from = () => ({ 'x-forwarded-for': `203.0.113.${++addresses}` });
  const attempt = (email: string, password: string, address: Record<string, string>) =>
    t.http.post<ErrorBody>('/auth/session', { email, password }, { headers: address });

  beforeAll(async () => {
    t = await bootTestApp({ TRUSTED_PROXIES: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t?.close());

  it('lets the right password in from an address without failures, after many failures for the account from other addresses', async () => {
    const person = await personWith(t, 'admin');
    const attacker = from();
    const attackerStatuses = [];
    for (let guess = 0; guess < 8; guess++) attackerStatuses.push((await attempt(person.email, WRONG, attacker)).status);
    // The attacker's own address is stopped after 5 failures for the account...
    expect(attackerStatuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // ...and failures spread over other addresses count against those addresses only.
    for (let other = 0; other < 5; other++) expect((await attempt(person.email, WRONG, from())).status).toBe(401);

    const signedIn = await signIn(t.http, person.email, person.password, from());
    expect(signedIn.session.user.email).toBe(person.email);
    // The attacker's address stays refused, right password or not.
    expect((await attempt(person.email, person.password, attacker)).status).toBe(429);
  });

  it('counts an IPv6 /64 as one address: its 2^64 addresses cannot take 5 guesses each', async () => {
    const person = await personWith(t, 'support');
    const network = (host: number) => ({ 'x-forwarded-for': `2001:db8:0:7::${host.toString(16)}` });
    const statuses = [];
    for (let host = 1; host <= 6; host++) statuses.push((await attempt(person.email, WRONG, network(host))).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await attempt(person.email, person.password, network(0xffff))).status).toBe(429);
    // Another network is another client.
    expect((await attempt(person.email, person.password, { 'x-forwarded-for': '2001:db8:0:8::1' })).status).toBe(200);
  });

  it('limits wrong current passwords on a password change as failed sign-ins: 429 after 5, even with the right one', async () => {
    const person = await personWith(t, 'support');
    const address = from();
    const session = await signIn(t.http, person.email, person.password, address);
    const change = (currentPassword: string) =>
      t.http.put<ErrorBody>(
        '/auth/session/password',
        { currentPassword, newPassword: 'violet-harbor-lantern-93' },
        { headers: { ...asPerson(session).headers, ...address } },
      );
    const statuses = [];
    for (let guess = 0; guess < 6; guess++) statuses.push((await change(`${WRONG}-${guess}`)).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
    const refused = await change(person.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-ins; retry in \d+ s$/) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The same address's sign-ins for the person share the count.
    expect((await attempt(person.email, person.password, address)).status).toBe(429);
  });

  it('takes back the count of a right current password: changes that know it are never limited', async () => {
    const person = await personWith(t, 'support');
    const address = from();
    let session = await signIn(t.http, person.email, person.password, address);
    let current = person.password;
    for (let change = 0; change < 7; change++) {
      const next = `${GOOD_PASSWORD}-${change}`;
      const answer = await t.http.put<{ csrfToken: string }>(
        '/auth/session/password',
        { currentPassword: current, newPassword: next },
        { headers: { ...asPerson(session).headers, ...address } },
      );
      expect(answer.status).toBe(200);
      session = { ...session, cookie: sessionCookieOf(answer)!, csrfToken: answer.body.csrfToken };
      current = next;
    }
  });
});
