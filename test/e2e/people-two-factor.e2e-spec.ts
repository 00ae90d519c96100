import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { UserRecoveryCodeEntity } from '../../src/users/two-factor/user-recovery-code.entity.js';
import { UserTotpEntity } from '../../src/users/two-factor/user-totp.entity.js';
import { ok } from '../support/api.js';
import { asPerson, GOOD_PASSWORD, personWith, sessionCookieOf, signIn, signedInPerson, type SessionBody } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { codeOf, enrol, passwordStep, signedInBy, type EnrolmentBody } from '../support/two-factor.js';

interface ErrorBody {
  error: string;
  message: string;
}

describe('People: two-factor sign-in with TOTP and recovery codes', () => {
  let t: TestApp;
  let addresses = 0;
  /** A client address of its own per test (TRUSTED_PROXIES trusts the test's connection), so that failure counts do not mix. */
  const from = () => ({ 'x-forwarded-for': `203.0.113.${++addresses}` });
  const auditOf = (targetId: string) => t.dataSource.getRepository(AuditEventEntity).find({ where: { targetId }, order: { id: 'ASC' } });

  beforeAll(async () => {
    t = await bootTestApp({ TRUSTED_PROXIES: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t?.close());

  it('enrols: the secret and its otpauth URI once, a wrong code refused, then ten recovery codes once; only ciphertext and hashes are stored', async () => {
    const person = await signedInPerson(t, 'support');
    const started = await t.http.post<EnrolmentBody>('/auth/two-factor/enrolment', {}, asPerson(person));
    expect(started.status).toBe(200);
    const { secret, otpauthUri } = started.body;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(otpauthUri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Order Tax Console:${person.email}`);
    expect(uri.searchParams.get('secret')).toBe(secret);
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');

    const wrong = await t.http.post<ErrorBody>(
      '/auth/two-factor/enrolment/confirm',
      { code: '000000' === codeOf(secret) ? '111111' : '000000' },
      asPerson(person),
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('TWO_FACTOR_CODE_INVALID');
    expect((await t.http.get<{ enabled: boolean }>('/auth/two-factor', asPerson(person))).body.enabled).toBe(false);

    const confirmed = await t.http.post<{ recoveryCodes: string[] }>(
      '/auth/two-factor/enrolment/confirm',
      { code: codeOf(secret) },
      asPerson(person),
    );
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    const status = await t.http.get('/auth/two-factor', asPerson(person));
    expect(status.body).toMatchObject({ enabled: true, recoveryCodesLeft: 10, requiredForRole: false, enabledAt: expect.any(String) });
    // Never answered again: neither the status nor a new start gives the secret.
    expect(JSON.stringify(status.body)).not.toContain(secret);
    const again = await t.http.post<ErrorBody>('/auth/two-factor/enrolment', {}, asPerson(person));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('TWO_FACTOR_ALREADY_ENABLED');

    const stored = await t.dataSource.getRepository(UserTotpEntity).findOneByOrFail({ userId: person.id });
    expect(stored.secretCiphertext).not.toContain(secret);
    const hashes = (await t.dataSource.getRepository(UserRecoveryCodeEntity).findBy({ userId: person.id })).map((row) => row.codeHash);
    expect(hashes).toHaveLength(10);
    for (const code of confirmed.body.recoveryCodes) {
      expect(hashes).not.toContain(code);
      expect(hashes.join()).not.toContain(code.replace('-', ''));
    }
    const events = await auditOf(person.id);
    expect(events.map((event) => event.action)).toContain('enable-two-factor');
    const audited = JSON.stringify(events);
    expect(audited).not.toContain(secret);
    for (const code of confirmed.body.recoveryCodes) expect(audited).not.toContain(code);
  });

  it('asks for a code after the right password, with a challenge that is no session; takes each code once', async () => {
    const person = await signedInPerson(t, 'fiscal');
    const { secret } = await enrol(t.http, person);
    const address = from();

    const first = await t.http.post<{ challenge: string; next: string; expiresAt: string }>(
      '/auth/session',
      { email: person.email, password: GOOD_PASSWORD },
      { headers: address },
    );
    expect(first.status).toBe(202);
    expect(first.body.next).toBe('totp');
    expect(sessionCookieOf(first)).toBeUndefined();
    const expiresIn = Date.parse(first.body.expiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000);
    // The challenge opens nothing by itself.
    expect((await t.http.get('/auth/session', { headers: { cookie: `ots_session=${first.body.challenge}` } })).status).toBe(401);

    // The enrolment's code (this step) was taken: refused even within its 30 s.
    const replayedEnrolment = await t.http.post<ErrorBody>(
      '/auth/session/two-factor',
      { challenge: first.body.challenge, code: codeOf(secret) },
      { headers: address },
    );
    expect(replayedEnrolment.status).toBe(400);
    expect(replayedEnrolment.body.error).toBe('TWO_FACTOR_CODE_INVALID');

    const next = codeOf(secret, 1);
    const signedIn = signedInBy(
      await t.http.post<SessionBody>('/auth/session/two-factor', { challenge: first.body.challenge, code: next }, { headers: address }),
    );
    expect(signedIn.session.user.email).toBe(person.email);
    expect((await t.http.get('/auth/session', asPerson(signedIn))).status).toBe(200);

    // The same code again, with a new challenge: refused.
    const second = await passwordStep(t.http, person.email, GOOD_PASSWORD, address);
    const replay = await t.http.post<ErrorBody>(
      '/auth/session/two-factor',
      { challenge: second.challenge, code: next },
      { headers: address },
    );
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('TWO_FACTOR_CODE_INVALID');
    expect(sessionCookieOf(replay)).toBeUndefined();

    const forged = `${second.challenge.split('.')[0]}.AAAA`;
    const refused = await t.http.post<ErrorBody>(
      '/auth/session/two-factor',
      { challenge: forged, code: codeOf(secret, 1) },
      { headers: address },
    );
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('TWO_FACTOR_CHALLENGE_INVALID');

    const signIns = (
      await t.dataSource.getRepository(AuditEventEntity).find({ where: { action: 'sign-in', actorId: person.id }, order: { id: 'ASC' } })
    ).map((event) => event.changes);
    expect(signIns.at(-1)).toEqual({ method: { before: null, after: 'password' }, secondFactor: { before: null, after: 'totp' } });
  });

  it('takes a recovery code once, and records it with the number left', async () => {
    const person = await signedInPerson(t, 'support');
    const { recoveryCodes } = await enrol(t.http, person);
    const address = from();
    const code = recoveryCodes[3]!;
    const challenge = await passwordStep(t.http, person.email, GOOD_PASSWORD, address);
    // Typed in capitals with spaces, as someone copying from paper might.
    signedInBy(
      await t.http.post<SessionBody>(
        '/auth/session/two-factor',
        { challenge: challenge.challenge, recoveryCode: ` ${code.toUpperCase()} ` },
        { headers: address },
      ),
    );

    const again = await passwordStep(t.http, person.email, GOOD_PASSWORD, address);
    const reused = await t.http.post<ErrorBody>(
      '/auth/session/two-factor',
      { challenge: again.challenge, recoveryCode: code },
      { headers: address },
    );
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('TWO_FACTOR_CODE_INVALID');
    const both = await t.http.post<ErrorBody>(
      '/auth/session/two-factor',
      { challenge: again.challenge, code: '123456', recoveryCode: code },
      { headers: address },
    );
    expect(both.status).toBe(400);
    expect(both.body.error).toBe('VALIDATION_FAILED');

    const used = (await auditOf(person.id)).filter((event) => event.action === 'use-recovery-code');
    expect(used.map((event) => event.changes)).toEqual([{ recoveryCodesLeft: { before: 10, after: 9 } }]);
    expect((await t.http.get('/auth/two-factor', asPerson(person))).body).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it('limits wrong codes as failed sign-ins: past 5 from one address, 429 even for the right code', async () => {
    const person = await signedInPerson(t, 'support');
    const { secret } = await enrol(t.http, person);
    const address = from();
    const challenge = await passwordStep(t.http, person.email, GOOD_PASSWORD, address);
    const wrong = codeOf(secret, 1) === '000000' ? '111111' : '000000';
    for (let failure = 0; failure < 5; failure++) {
      expect(
        (await t.http.post('/auth/session/two-factor', { challenge: challenge.challenge, code: wrong }, { headers: address })).status,
      ).toBe(400);
    }
    const limited = await t.http.post<ErrorBody>(
      '/auth/session/two-factor',
      { challenge: challenge.challenge, code: codeOf(secret, 1) },
      { headers: address },
    );
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    const failures = (await auditOf(person.id)).filter((event) => event.action === 'sign-in-failed');
    expect(failures).toHaveLength(5);
    expect(failures[0]!.changes).toMatchObject({ reason: { after: 'wrong-totp-code' } });
  });

  it('regenerates recovery codes and turns the second factor off only after the password or a code', async () => {
    const person = await signedInPerson(t, 'support');
    const { secret, recoveryCodes } = await enrol(t.http, person);
    const wrong = await t.http.post<ErrorBody>('/auth/two-factor/recovery-codes', { password: 'not-my-password-at-all' }, asPerson(person));
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('REAUTHENTICATION_FAILED');
    const renewed = await t.http.post<{ recoveryCodes: string[] }>(
      '/auth/two-factor/recovery-codes',
      { password: GOOD_PASSWORD },
      asPerson(person),
    );
    expect(renewed.status).toBe(200);
    expect(renewed.body.recoveryCodes).toHaveLength(10);
    expect(renewed.body.recoveryCodes).not.toContain(recoveryCodes[0]);

    const address = from();
    const challenge = await passwordStep(t.http, person.email, GOOD_PASSWORD, address);
    expect(
      (
        await t.http.post(
          '/auth/session/two-factor',
          { challenge: challenge.challenge, recoveryCode: recoveryCodes[0] },
          { headers: address },
        )
      ).status,
    ).toBe(400);

    expect((await t.http.post('/auth/two-factor/disable', { password: GOOD_PASSWORD }, asPerson(person, false))).status).toBe(403);
    expect((await t.http.post('/auth/two-factor/disable', { code: codeOf(secret, 1) }, asPerson(person))).status).toBe(204);
    expect((await t.http.get('/auth/two-factor', asPerson(person))).body).toMatchObject({ enabled: false, recoveryCodesLeft: 0 });
    await signIn(t.http, person.email, GOOD_PASSWORD, from());
    expect((await auditOf(person.id)).map((event) => event.action)).toEqual(
      expect.arrayContaining(['enable-two-factor', 'regenerate-recovery-codes', 'disable-two-factor']),
    );
  });

  it('lets an admin reset a person’s second factor, audited; the person then signs in with the password alone', async () => {
    const person = await signedInPerson(t, 'support');
    const token = await t.adminToken();
    const shown = async () => ok(await t.api.GET('/api/admin/users/{id}', { params: { path: { id: person.id } } }), 200).twoFactorEnabled;
    const listed = async () =>
      ok(await t.api.GET('/api/admin/users', { params: { query: { pageSize: 100 } } }), 200).items.find((user) => user.id === person.id)
        ?.twoFactorEnabled;
    expect([await shown(), await listed()]).toEqual([false, false]);
    await enrol(t.http, person);
    // The admin sees who has a second factor, in the list and the person's own answer.
    expect([await shown(), await listed()]).toEqual([true, true]);
    expect((await t.http.delete(`/admin/users/${person.id}/two-factor`, { token })).status).toBe(204);
    expect([await shown(), await listed()]).toEqual([false, false]);
    const none = await t.http.delete<ErrorBody>(`/admin/users/${person.id}/two-factor`, { token });
    expect(none.status).toBe(409);
    expect(none.body.error).toBe('TWO_FACTOR_NOT_ENABLED');
    expect((await t.http.delete('/admin/users/6f1c1a52-3f7e-4b8e-9c1d-2a6b7e9d4c10/two-factor', { token })).status).toBe(404);
    const support = await signedInPerson(t, 'support');
    expect((await t.http.delete(`/admin/users/${person.id}/two-factor`, asPerson(support))).status).toBe(403);
    await signIn(t.http, person.email, GOOD_PASSWORD, from());
    const reset = (await auditOf(person.id)).find((event) => event.action === 'reset-two-factor')!;
    expect(reset).toMatchObject({
      actorType: 'client',
      changes: { twoFactor: { before: 'totp', after: 'off' }, recoveryCodesLeft: { before: 10, after: 0 } },
    });
  });

  it('refuses a challenge once the second factor was reset meanwhile', async () => {
    const person = await personWith(t, 'support');
    const signedIn = await signIn(t.http, person.email, person.password);
    const { secret } = await enrol(t.http, signedIn);
    const challenge = await passwordStep(t.http, person.email, person.password, from());
    expect((await t.http.delete(`/admin/users/${person.id}/two-factor`, { token: await t.adminToken() })).status).toBe(204);
    const refused = await t.http.post<ErrorBody>('/auth/session/two-factor', { challenge: challenge.challenge, code: codeOf(secret, 1) });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('TWO_FACTOR_CHALLENGE_INVALID');
  });
});
