import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { asPerson, BOOTSTRAP_ADMIN, GOOD_PASSWORD, personWith, signIn, signedInPerson, type SessionBody } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';
import { codeOf, passwordStep, signedInBy, type EnrolmentBody } from '../support/two-factor.js';

interface ErrorBody {
  error: string;
}

describe('People: two-factor sign-in required for roles', () => {
  let t: TestApp;
  let addresses = 0;
  const from = () => ({ 'x-forwarded-for': `192.0.2.${++addresses}` });

  beforeAll(async () => {
    t = await bootTestApp({ TRUSTED_PROXIES: '127.0.0.1', AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t?.close());

  it('lets an admin require it for roles, audited only when the list changes; other roles may not', async () => {
    const admin = await signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password, from());
    expect((await t.http.get('/admin/settings/two-factor', asPerson(admin))).body).toEqual({ requiredRoles: [] });
    const fiscal = await signedInPerson(t, 'fiscal');
    expect((await t.http.put('/admin/settings/two-factor', { requiredRoles: ['fiscal'] }, asPerson(fiscal))).status).toBe(403);
    expect((await t.http.put('/admin/settings/two-factor', { requiredRoles: ['support'] }, asPerson(admin))).status).toBe(400);

    const set = await t.http.put('/admin/settings/two-factor', { requiredRoles: ['fiscal'] }, asPerson(admin));
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ requiredRoles: ['fiscal'] });
    // The same list again: no event.
    expect((await t.http.put('/admin/settings/two-factor', { requiredRoles: ['fiscal'] }, asPerson(admin))).status).toBe(200);
    const events = await t.dataSource.getRepository(AuditEventEntity).find({ where: { targetType: 'sign-in-settings' } });
    expect(events.map((event) => [event.action, event.targetId, event.actorId, event.changes])).toEqual([
      ['update', 'two-factor', admin.session.user.id, { requiredRoles: { before: [], after: ['fiscal'] } }],
    ]);
  });

  it('makes a person of a required role enrol at sign-in before any session, then asks for a code from then on', async () => {
    await t.http.put('/admin/settings/two-factor', { requiredRoles: ['fiscal', 'admin'] }, { token: await t.adminToken() });
    const person = await personWith(t, 'fiscal');
    const address = from();
    const first = await passwordStep(t.http, person.email, person.password, address);
    expect(first.next).toBe('enrol');
    // An enrol challenge is no code challenge.
    const wrongStep = await t.http.post<ErrorBody>(
      '/auth/session/two-factor',
      { challenge: first.challenge, code: '123456' },
      { headers: address },
    );
    expect(wrongStep.status).toBe(401);
    expect(wrongStep.body.error).toBe('TWO_FACTOR_CHALLENGE_INVALID');

    const started = await t.http.post<EnrolmentBody>(
      '/auth/session/two-factor/enrolment',
      { challenge: first.challenge },
      { headers: address },
    );
    expect(started.status).toBe(200);
    const confirmed = await t.http.post<SessionBody & { recoveryCodes: string[] }>(
      '/auth/session/two-factor/enrolment/confirm',
      { challenge: first.challenge, code: codeOf(started.body.secret) },
      { headers: address },
    );
    const signedIn = signedInBy(confirmed);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    const status = await t.http.get('/auth/two-factor', asPerson(signedIn));
    expect(status.body).toMatchObject({ enabled: true, requiredForRole: true });
    // The role requires it: it cannot be turned off.
    const off = await t.http.post<ErrorBody>('/auth/two-factor/disable', { password: GOOD_PASSWORD }, asPerson(signedIn));
    expect(off.status).toBe(409);
    expect(off.body.error).toBe('TWO_FACTOR_REQUIRED');

    const next = await passwordStep(t.http, person.email, person.password, address);
    expect(next.next).toBe('totp');
    signedInBy(
      await t.http.post<SessionBody>(
        '/auth/session/two-factor',
        { challenge: next.challenge, code: codeOf(started.body.secret, 1) },
        { headers: address },
      ),
    );

    // A role not listed signs in with the password alone.
    await signIn(t.http, (await personWith(t, 'support')).email, GOOD_PASSWORD, from());
  });

  it('makes a required person enrol again after an admin reset, and a reset admin too', async () => {
    await t.http.put('/admin/settings/two-factor', { requiredRoles: ['admin'] }, { token: await t.adminToken() });
    const person = await personWith(t, 'admin');
    const first = await passwordStep(t.http, person.email, person.password, from());
    expect(first.next).toBe('enrol');
    const started = await t.http.post<EnrolmentBody>('/auth/session/two-factor/enrolment', { challenge: first.challenge });
    signedInBy(
      await t.http.post<SessionBody>('/auth/session/two-factor/enrolment/confirm', {
        challenge: first.challenge,
        code: codeOf(started.body.secret),
      }),
    );
    expect((await t.http.delete(`/admin/users/${person.id}/two-factor`, { token: await t.adminToken() })).status).toBe(204);
    expect((await passwordStep(t.http, person.email, person.password, from())).next).toBe('enrol');
  });
});
