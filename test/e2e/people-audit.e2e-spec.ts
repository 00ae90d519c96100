import { asPerson, BOOTSTRAP_ADMIN, GOOD_PASSWORD, linkToken, signIn } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

interface EventRow {
  actor_type: string;
  actor_id: string;
  action: string;
  target_type: string;
  target_id: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  request_id: string | null;
  address: string | null;
}

describe('People: the audit log', () => {
  let t: TestApp;
  const events = (): Promise<EventRow[]> =>
    t.dataSource.query(
      `SELECT actor_type, actor_id, action, target_type, target_id, changes, request_id, address FROM audit_event
        WHERE target_type IN ('user', 'session') ORDER BY id`,
    );

  beforeAll(async () => {
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
  });
  afterAll(() => t?.close());

  it('records people changes, sign-ins, failures, sign-outs and password changes, without any secret', async () => {
    const admin = await signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    const email = `audited-${process.pid}@example.com`;
    const created = await t.http.post<{ user: { id: string }; link: string }>(
      '/admin/users',
      { email, name: 'Audited', role: 'support' },
      asPerson(admin),
    );
    const userId = created.body.user.id;
    const token = linkToken(created.body.link);
    expect((await t.http.post(`/auth/password-links/${token}`, { password: GOOD_PASSWORD })).status).toBe(204);
    expect((await t.http.post('/auth/session', { email, password: 'wrong-password-123' })).status).toBe(401);
    expect((await t.http.post('/auth/session', { email: 'nobody@example.com', password: 'wrong-password-123' })).status).toBe(401);
    const person = await signIn(t.http, email, GOOD_PASSWORD);
    const newPassword = 'audited-new-password-5';
    const changed = await t.http.put<{ csrfToken: string }>(
      '/auth/session/password',
      { currentPassword: GOOD_PASSWORD, newPassword },
      asPerson(person),
    );
    expect(changed.status).toBe(200);
    expect((await t.http.request('PATCH', `/admin/users/${userId}`, { role: 'fiscal' }, asPerson(admin))).status).toBe(200);
    expect((await t.http.delete('/auth/session', asPerson(admin))).status).toBe(204);

    const rows = await events();
    const about = (type: string, id: string) =>
      rows.filter((row) => row.target_type === type && row.target_id === id).map((row) => row.action);
    expect(about('user', userId)).toEqual(['create', 'issue-link', 'set-password', 'change-password', 'update']);
    const created_ = rows.find((row) => row.action === 'create' && row.target_id === userId)!;
    expect(created_).toMatchObject({
      actor_type: 'user',
      actor_id: admin.session.user.id,
      request_id: expect.any(String),
      address: '127.0.0.1',
    });
    expect(created_.changes).toMatchObject({ email: { before: null, after: email }, role: { before: null, after: 'support' } });
    expect(rows.find((row) => row.action === 'update' && row.target_id === userId)!.changes).toEqual({
      role: { before: 'support', after: 'fiscal' },
    });
    expect(rows.find((row) => row.action === 'set-password')).toMatchObject({ actor_id: userId });

    const failures = rows.filter((row) => row.action === 'sign-in-failed');
    expect(failures).toEqual([
      expect.objectContaining({
        actor_id: 'anonymous',
        target_type: 'session',
        target_id: userId,
        changes: { email: { before: null, after: email }, reason: { before: null, after: 'wrong-password' } },
      }),
      expect.objectContaining({
        actor_id: 'anonymous',
        target_id: 'nobody@example.com',
        changes: expect.objectContaining({ reason: { before: null, after: 'unknown-email' } }),
      }),
    ]);
    expect(rows.filter((row) => row.action === 'sign-in' && row.actor_id === userId)).toHaveLength(1);
    expect(rows.filter((row) => row.action === 'end' && row.changes.reason?.after === 'password-changed')).toHaveLength(1);
    expect(rows.filter((row) => row.action === 'renew' && row.actor_id === userId)).toHaveLength(1);
    expect(rows.filter((row) => row.action === 'sign-out' && row.target_id === admin.session.user.id)).toHaveLength(0);
    expect(rows.filter((row) => row.action === 'sign-out' && row.actor_id === admin.session.user.id)).toHaveLength(1);

    const text = JSON.stringify(rows);
    for (const secret of [GOOD_PASSWORD, newPassword, 'wrong-password-123', token, person.csrfToken, changed.body.csrfToken, '$argon2id']) {
      expect(text).not.toContain(secret);
    }
  });

  it("records a deactivation and the end of each of the person's sessions", async () => {
    const token = await t.adminToken();
    const created = await t.http.post<{ user: { id: string }; link: string }>(
      '/admin/users',
      { email: `gone-${process.pid}@example.com`, name: 'Gone', role: 'support' },
      { token },
    );
    await t.http.post(`/auth/password-links/${linkToken(created.body.link)}`, { password: GOOD_PASSWORD });
    await signIn(t.http, `gone-${process.pid}@example.com`, GOOD_PASSWORD);
    await signIn(t.http, `gone-${process.pid}@example.com`, GOOD_PASSWORD);
    expect((await t.http.request('PATCH', `/admin/users/${created.body.user.id}`, { active: false }, { token })).status).toBe(200);
    const rows = await events();
    const deactivation = rows.find((row) => row.action === 'update' && row.target_id === created.body.user.id)!;
    expect(deactivation).toMatchObject({ actor_type: 'client', changes: { active: { before: true, after: false } } });
    expect(rows.filter((row) => row.action === 'end' && row.changes.reason?.after === 'deactivated')).toHaveLength(2);
  });
});
