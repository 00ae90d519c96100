import { setTimeout as sleep } from 'node:timers/promises';
import { BOOTSTRAP_ADMIN } from '../support/people.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

/** The last active admin can be neither demoted nor deactivated, even by two admins acting at once. */
describe('People: the last active admin', () => {
  let t: TestApp;
  let token: string;
  let bootstrapAdminId: string;

  const patch = (id: string, body: object) =>
    t.http.request<{ error: string; details: Array<Record<string, unknown>> }>('PATCH', `/admin/users/${id}`, body, { token });
  const activeAdmins = async (): Promise<string[]> =>
    (await t.dataSource.query<Array<{ id: string }>>(`SELECT id FROM app_user WHERE role = 'admin' AND active ORDER BY id`)).map(
      (row) => row.id,
    );
  const invite = async (role: string): Promise<string> => {
    const created = await t.http.post<{ user: { id: string } }>(
      '/admin/users',
      { email: `admin-${process.pid}-${Date.now()}-${Math.random()}@example.com`, name: 'Another admin', role },
      { token },
    );
    expect(created.status).toBe(201);
    return created.body.user.id;
  };

  beforeAll(async () => {
    t = await bootTestApp();
    token = await t.adminToken();
    const rows = await t.dataSource.query<Array<{ id: string }>>('SELECT id FROM app_user WHERE email = $1', [BOOTSTRAP_ADMIN.email]);
    bootstrapAdminId = rows[0]!.id;
  });
  afterAll(() => t?.close());

  it('409 LAST_ADMIN for demoting or deactivating the only active admin; nothing changes', async () => {
    expect(await activeAdmins()).toEqual([bootstrapAdminId]);
    const demoted = await patch(bootstrapAdminId, { role: 'fiscal' });
    expect(demoted.status).toBe(409);
    expect(demoted.body).toEqual({
      message: expect.stringContaining('last active admin'),
      error: 'LAST_ADMIN',
      details: [{ field: 'role', problem: expect.any(String), userId: bootstrapAdminId }],
    });
    const deactivated = await patch(bootstrapAdminId, { active: false, name: 'Renamed' });
    expect(deactivated.status).toBe(409);
    expect(deactivated.body.details[0]).toMatchObject({ field: 'active', userId: bootstrapAdminId });
    expect(await activeAdmins()).toEqual([bootstrapAdminId]);
    const events = await t.dataSource.query('SELECT 1 FROM audit_event WHERE target_type = $1 AND target_id = $2', [
      'user',
      bootstrapAdminId,
    ]);
    expect(events).toHaveLength(0);

    // Changes that keep an admin pass: the name, and the role admin sent again.
    expect((await patch(bootstrapAdminId, { name: 'Still the admin', role: 'admin', active: true })).status).toBe(200);
  });

  it('with another active admin, either may be demoted, and then the other is the last one', async () => {
    const other = await invite('admin');
    expect((await patch(other, { role: 'support' })).status).toBe(200);
    expect((await patch(other, { role: 'admin' })).status).toBe(200);
    expect((await patch(bootstrapAdminId, { active: false })).status).toBe(200);
    expect((await patch(other, { active: false })).body.error).toBe('LAST_ADMIN');
    expect((await patch(bootstrapAdminId, { active: true })).status).toBe(200);
    expect((await patch(other, { active: false })).status).toBe(200);
    expect(await activeAdmins()).toEqual([bootstrapAdminId]);
  });

  it('two admins demoting each other at once leave one admin: one change passes, the other gets 409', async () => {
    const other = await invite('admin');
    expect((await activeAdmins()).sort()).toEqual([bootstrapAdminId, other].sort());

    // Hold both rows so that both requests are under way before either can decide.
    const holder = t.dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    let answers;
    try {
      await holder.query(`SELECT id FROM app_user WHERE role = 'admin' AND active FOR UPDATE`);
      const both = Promise.all([patch(bootstrapAdminId, { role: 'support' }), patch(other, { role: 'support' })]);
      for (let tries = 0; tries < 200; tries++) {
        const [waiting] = await t.dataSource.query<Array<{ count: string }>>(
          `SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE '%app_user%' AND pid <> pg_backend_pid()`,
        );
        if (Number(waiting!.count) >= 2) break;
        await sleep(25);
      }
      await holder.commitTransaction();
      answers = await both;
    } finally {
      if (holder.isTransactionActive) await holder.rollbackTransaction();
      await holder.release();
    }

    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.error).toBe('LAST_ADMIN');
    expect(await activeAdmins()).toHaveLength(1);
  });
});
