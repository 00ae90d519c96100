import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { roleIncludes, ROLES, type Role } from '../../src/auth/principal.js';
import { AppUserEntity } from '../../src/users/app-user.entity.js';
import { expectDeclaredError } from '../support/declared-errors.js';
import { documentedOperations } from '../support/openapi-routes.js';
import { orderFor } from '../support/orders.js';
import { asPerson, BOOTSTRAP_ADMIN, GOOD_PASSWORD, linkToken, signedInPerson, signIn, type SignedIn } from '../support/people.js';
import { PROJECT_ROOT } from '../support/service-process.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const execFileAsync = promisify(execFile);

function runCli(args: string[], databaseUrl: string) {
  return execFileAsync(process.execPath, ['dist/src/cli/main.js', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'error', PUBLIC_BASE_URL: 'https://taxes.example.com/' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('People: roles, invitations and the CLI', () => {
  let t: TestApp;
  const people = {} as Record<Role, SignedIn>;

  beforeAll(async () => {
    t = await bootTestApp({ AUTH_RATE_LIMIT_PER_MINUTE: '100000' });
    for (const role of ROLES) people[role] = await signedInPerson(t, role);
  });
  afterAll(() => t?.close());

  it('lets each role reach exactly the routes of its least role, and refuses people on machine routes', async () => {
    const operations = documentedOperations().filter((each) => each.protectedByBearer && !each.template.startsWith('/api/auth/'));
    expect(operations.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const operation of operations) {
      const least = (operation.operation as { 'x-required-role'?: Role })['x-required-role'];
      for (const role of ROLES) {
        // The tax calculator lets people in only with ?dryRun=true, which this sweep does not send.
        const allowed = least !== undefined && roleIncludes(role, least) && operation.template !== '/api/enrich-order';
        const takesJson = operation.operation.requestBody?.content?.['application/json'] !== undefined;
        const body = ['POST', 'PUT', 'PATCH'].includes(operation.method) && takesJson ? {} : undefined;
        const answer = await t.http.request(operation.method, operation.path, body, asPerson(people[role]));
        // In each route family's error shape; the CSRF token is always sent, so a 403 is the role's.
        const refused = answer.status === 403;
        if (refused === allowed || answer.status === 401) wrong.push(`${role} ${operation.method} ${operation.template}: ${answer.status}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lets support list orders but not fiscal groups, and fiscal change fiscal data but not people', async () => {
    expect((await t.http.get('/admin/orders', asPerson(people.support))).status).toBe(200);
    expect((await t.http.get('/admin/fiscal-groups', asPerson(people.support))).status).toBe(403);
    const category = { productId: `people-${process.pid}`, productName: 'Água 500 ml', ncm: '22011000' };
    expect((await t.http.post('/admin/product-fiscal-categories', category, asPerson(people.support))).status).toBe(403);
    expect((await t.http.post('/admin/product-fiscal-categories', category, asPerson(people.fiscal))).status).toBe(201);
    expect((await t.http.get('/admin/fiscal-groups', asPerson(people.fiscal))).status).toBe(200);
    expect((await t.http.get('/admin/users', asPerson(people.fiscal))).status).toBe(403);
    expect((await t.http.get('/admin/users', asPerson(people.admin))).status).toBe(200);
  });

  it('lets fiscal people use the tax calculator only as a dry run, storing nothing', async () => {
    const order = orderFor(`calc-${process.pid}`, 'store-without-group');
    const dry = await t.http.request('POST', '/enrich-order', order, { ...asPerson(people.fiscal), query: { dryRun: true } });
    // No fiscal group holds the store: 422, past the access checks.
    expect(dry.status).toBe(422);
    expect((await t.http.request('POST', '/enrich-order', order, asPerson(people.fiscal))).status).toBe(403);
    expect((await t.http.request('POST', '/enrich-order', order, { ...asPerson(people.support), query: { dryRun: true } })).status).toBe(
      403,
    );
    const stored = await t.http.get(`/admin/orders`, { ...asPerson(people.admin), query: { orderId: order.orderId } });
    expect((stored.body as { total: number }).total).toBe(0);
  });

  it('ignores the cookie of a request that carries a bearer token', async () => {
    const ordersOnly = await t.tokenFor(['orders']);
    const answer = await t.http.get('/admin/users', { token: ordersOnly, headers: { cookie: people.admin.cookie } });
    expect(answer.status).toBe(403);
    expect((answer.body as { message: string }).message).toMatch(/scope admin/);
  });

  it('invites a person, who sets a password through the one-time link and signs in', async () => {
    const admin = await signIn(t.http, BOOTSTRAP_ADMIN.email, BOOTSTRAP_ADMIN.password);
    const email = `Invitee-${process.pid}@Example.com`;
    const created = await t.http.post<{ user: { id: string; passwordSet: boolean; role: string }; link: string; linkExpiresAt: string }>(
      '/admin/users',
      { email, name: 'Invitee', role: 'fiscal' },
      asPerson(admin),
    );
    expect(created.status).toBe(201);
    expect(created.body.user).toMatchObject({ passwordSet: false, role: 'fiscal' });
    expect(created.body.link).toMatch(/\/console\/set-password#[A-Za-z0-9_-]{43}$/);
    const expiresIn = Date.parse(created.body.linkExpiresAt) - Date.now();
    expect(expiresIn).toBeGreaterThan(23.9 * 3600_000);
    expect(expiresIn).toBeLessThanOrEqual(24 * 3600_000);

    const duplicate = await t.http.post('/admin/users', { email: email.toLowerCase(), name: 'Again', role: 'support' }, asPerson(admin));
    expect(duplicate.status).toBe(409);
    expectDeclaredError('POST', '/api/admin/users', duplicate as { status: number; body: object });

    const token = linkToken(created.body.link);
    const described = await t.http.get(`/auth/password-links/${token}`);
    expect(described.status).toBe(200);
    expect(described.body).toMatchObject({ email, name: 'Invitee' });

    const short = await t.http.post(`/auth/password-links/${token}`, { password: 'elevenchars' });
    expect(short.status).toBe(400);
    expect(short.body).toMatchObject({ error: 'PASSWORD_REJECTED', details: [{ field: 'password', reason: 'TOO_SHORT' }] });
    expectDeclaredError('POST', '/api/auth/password-links/{token}', short as { status: number; body: object });
    // In the common-password list, whatever its case.
    const common = await t.http.post(`/auth/password-links/${token}`, { password: 'Password1234' });
    expect(common.status).toBe(400);
    expect(common.body).toMatchObject({ error: 'PASSWORD_REJECTED', details: [{ field: 'password', reason: 'COMMON' }] });
    // 12 characters or more, yet guessed at once: spaces, one repeated character, a common phrase; or the person's own email.
    for (const guessable of [' '.repeat(12), 'aaaaaaaaaaaa', 'iloveyouiloveyou']) {
      const refused = await t.http.post(`/auth/password-links/${token}`, { password: guessable });
      expect({ guessable, status: refused.status, body: refused.body }).toMatchObject({
        guessable,
        status: 400,
        body: { error: 'PASSWORD_REJECTED', details: [{ field: 'password', reason: 'GUESSABLE' }] },
      });
      expectDeclaredError('POST', '/api/auth/password-links/{token}', refused as { status: number; body: object });
    }
    const personal = await t.http.post(`/auth/password-links/${token}`, { password: email });
    expect(personal.body).toMatchObject({ error: 'PASSWORD_REJECTED', details: [{ field: 'password', reason: 'PERSONAL' }] });
    expectDeclaredError('POST', '/api/auth/password-links/{token}', personal as { status: number; body: object });

    expect((await t.http.post(`/auth/password-links/${token}`, { password: GOOD_PASSWORD })).status).toBe(204);
    const reused = await t.http.post(`/auth/password-links/${token}`, { password: 'yet-another-password-9' });
    expect(reused.status).toBe(404);
    expect((reused.body as { error: string }).error).toBe('LINK_NOT_FOUND');
    expect((await t.http.get(`/auth/password-links/${token}`)).status).toBe(404);

    const person = await signIn(t.http, email.toLowerCase(), GOOD_PASSWORD);
    expect(person.session.user).toMatchObject({ email, role: 'fiscal' });
    const listed = await t.http.get<{ items: Array<{ id: string; passwordSet: boolean; lastSignInAt: string | null }> }>('/admin/users', {
      ...asPerson(admin),
      query: { pageSize: 100 },
    });
    expect(listed.body.items.find((user) => user.id === created.body.user.id)).toMatchObject({
      passwordSet: true,
      lastSignInAt: expect.any(String),
    });
  });

  it('makes a new link replace the earlier unused one', async () => {
    const token = await t.adminToken();
    const created = await t.http.post<{ user: { id: string }; link: string }>(
      '/admin/users',
      { email: `relink-${process.pid}@example.com`, name: 'Relink', role: 'support' },
      { token },
    );
    const again = await t.http.post<{ link: string }>(`/admin/users/${created.body.user.id}/link`, undefined, { token });
    expect(again.status).toBe(201);
    expect((await t.http.get(`/auth/password-links/${linkToken(created.body.link)}`)).status).toBe(404);
    expect((await t.http.get(`/auth/password-links/${linkToken(again.body.link)}`)).status).toBe(200);
  });

  it('answers 400 naming name, role or active sent as null to a change, and changes nothing', async () => {
    const token = await t.adminToken();
    const created = await t.http.post<{ user: { id: string } }>(
      '/admin/users',
      { email: `nulls-${process.pid}@example.com`, name: 'Nulls', role: 'support' },
      { token },
    );
    const path = `/admin/users/${created.body.user.id}`;
    for (const field of ['name', 'role', 'active']) {
      // null is outside the schema: sent raw.
      const refused = await t.http.request<{ error: string; details: Array<{ field: string }> }>(
        'PATCH',
        path,
        { [field]: null },
        { token },
      );
      expect([refused.status, refused.body.error]).toEqual([400, 'VALIDATION_FAILED']);
      expect(new Set(refused.body.details.map((detail) => detail.field))).toEqual(new Set([field]));
    }
    expect((await t.http.get(path, { token })).body).toMatchObject({ name: 'Nulls', role: 'support', active: true });
  });

  it('creates a person from the CLI with a printed link, and prints a new link on demand', async () => {
    const email = `cli-${process.pid}@example.com`;
    const created = await runCli(['users:create', '--email', email, '--name', 'CLI Admin', '--role', 'admin'], t.databaseUrl);
    expect(created).toMatchObject({ code: 0 });
    const first = /link: +(\S+)/.exec(created.stdout)?.[1];
    expect(first).toMatch(/^https:\/\/taxes\.example\.com\/console\/set-password#/);
    expect((await t.http.get(`/auth/password-links/${linkToken(first!)}`)).body).toMatchObject({ email, name: 'CLI Admin' });

    const relinked = await runCli(['users:link', '--email', email.toUpperCase()], t.databaseUrl);
    expect(relinked).toMatchObject({ code: 0 });
    const second = /link: +(\S+)/.exec(relinked.stdout)?.[1];
    expect(second).not.toBe(first);
    expect((await t.http.get(`/auth/password-links/${linkToken(first!)}`)).status).toBe(404);
    expect((await t.http.post(`/auth/password-links/${linkToken(second!)}`, { password: GOOD_PASSWORD })).status).toBe(204);
    await expect(signIn(t.http, email, GOOD_PASSWORD)).resolves.toBeDefined();

    const duplicate = await runCli(['users:create', '--email', email, '--name', 'Again', '--role', 'support'], t.databaseUrl);
    expect(duplicate.code).toBe(1);
    expect(duplicate.stderr).toMatch(/Another person has the email/);
    expect((await runCli(['users:create', '--email', email, '--name', 'x', '--role', 'boss'], t.databaseUrl)).code).toBe(64);
  });

  it('refuses from the CLI an email the API refuses, which could never sign in', async () => {
    // POST /admin/users and POST /auth/session refuse an email over 254 characters.
    const email = `${'a'.repeat(300)}@example.com`;
    const refused = await runCli(['users:create', '--email', email, '--name', 'Ana Long Email', '--role', 'fiscal'], t.databaseUrl);
    expect(refused.code).toBe(64);
    expect(refused.stderr.split('\n')).toContain('--email: must be shorter than or equal to 254 characters');
    expect(await t.dataSource.getRepository(AppUserEntity).countBy({ name: 'Ana Long Email' })).toBe(0);
  });
});
