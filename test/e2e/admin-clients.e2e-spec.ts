import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ApiClientEntity } from '../../src/auth/api-client.entity.js';
import { AuditEventEntity } from '../../src/audit/audit-event.entity.js';
import { failed, ok } from '../support/api.js';
import { PROJECT_ROOT } from '../support/service-process.js';
import { bootTestApp, type TestApp } from '../support/test-app.js';

const execFileAsync = promisify(execFile);

function runCli(args: string[], databaseUrl: string) {
  return execFileAsync(process.execPath, ['dist/src/cli/main.js', ...args], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, LOG_LEVEL: 'error' },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('/api/admin/clients and the clients CLI (e2e)', () => {
  let t: TestApp;

  const login = (clientId: string, secret: string) =>
    t.apiAs().POST('/api/authentication/login', { body: { client_id: clientId, client_secret: secret, grant_type: 'client_credentials' } });
  /** The OAuth token endpoint with the credentials as HTTP Basic. */
  const basicToken = (clientId: string, secret: string) =>
    t.http.post(
      '/domain-cliente/token',
      { grant_type: 'client_credentials' },
      { headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` } },
    );
  const clientEvents = (clientId: string) =>
    t.dataSource.getRepository(AuditEventEntity).find({ where: { targetType: 'client', targetId: clientId }, order: { id: 'ASC' } });
  const create = async (body: { name: string; scopes: Array<'admin' | 'orders' | 'platform'>; stores?: string[] }) =>
    ok(await t.api.POST('/api/admin/clients', { body }), 201);

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  describe('create, read, list, change', () => {
    it('creates a store-limited client, shows its secret once, and audits the creation without it', async () => {
      const created = await create({ name: 'POS 162', scopes: ['orders'], stores: ['162', '163'] });
      expect(created).toEqual({
        clientId: expect.stringMatching(/^\d+$/),
        name: 'POS 162',
        scopes: ['orders'],
        stores: ['162', '163'],
        active: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        secret: expect.any(String),
      });
      const { secret, ...shown } = created;
      expect(ok(await t.api.GET('/api/admin/clients/{clientId}', { params: { path: { clientId: created.clientId } } }), 200)).toEqual(
        shown,
      );
      const page = ok(await t.api.GET('/api/admin/clients', { params: { query: { pageSize: 100 } } }), 200);
      expect(page).toMatchObject({ page: 1, pageSize: 100, total: page.items.length, totalPages: 1 });
      expect(page.items).toContainEqual(shown);
      expect(JSON.stringify(page)).not.toContain(secret);
      ok(await login(created.clientId, secret), 200);

      const events = await clientEvents(created.clientId);
      expect(events.map(({ action, actorType, changes }) => ({ action, actorType, changes }))).toEqual([
        {
          action: 'create',
          actorType: 'client',
          changes: {
            name: { before: null, after: 'POS 162' },
            scopes: { before: null, after: ['orders'] },
            stores: { before: null, after: ['162', '163'] },
            active: { before: null, after: true },
          },
        },
      ]);
      expect(JSON.stringify(events)).not.toContain(secret);
    });

    it('400 for a store-limited client with admin, at creation and by a change', async () => {
      const refused = failed(await t.api.POST('/api/admin/clients', { body: { name: 'bad', scopes: ['admin'], stores: ['162'] } }), 400);
      expect(refused).toEqual({
        error: 'VALIDATION_FAILED',
        message: expect.any(String),
        details: [{ field: 'stores', problem: 'a client limited to stores cannot hold the scope admin' }],
      });
      const limited = await create({ name: 'POS', scopes: ['orders'], stores: ['162'] });
      const path = { clientId: limited.clientId };
      expect(
        failed(await t.api.PATCH('/api/admin/clients/{clientId}', { params: { path }, body: { scopes: ['orders', 'admin'] } }), 400).error,
      ).toBe('VALIDATION_FAILED');
      const admin = await create({ name: 'ops', scopes: ['admin'] });
      expect(
        failed(
          await t.api.PATCH('/api/admin/clients/{clientId}', { params: { path: { clientId: admin.clientId } }, body: { stores: ['162'] } }),
          400,
        ).error,
      ).toBe('VALIDATION_FAILED');
      expect((await t.dataSource.getRepository(ApiClientEntity).findOneByOrFail({ clientId: limited.clientId })).scopes).toEqual([
        'orders',
      ]);
    });

    it('changes a client and audits the changed fields before and after', async () => {
      const created = await create({ name: 'POS 170', scopes: ['orders'], stores: ['170'] });
      const path = { clientId: created.clientId };
      const changed = ok(
        await t.api.PATCH('/api/admin/clients/{clientId}', { params: { path }, body: { stores: ['170', '171'], active: false } }),
        200,
      );
      expect(changed).toMatchObject({ name: 'POS 170', scopes: ['orders'], stores: ['170', '171'], active: false });
      expect(changed).not.toHaveProperty('secret');
      const update = (await clientEvents(created.clientId)).find((event) => event.action === 'update');
      expect(update?.changes).toEqual({ stores: { before: ['170'], after: ['170', '171'] }, active: { before: true, after: false } });
      expect((await login(created.clientId, created.secret)).response.status).toBe(401);
    });

    it('400 naming a property sent as null, which a change cannot clear', async () => {
      const created = await create({ name: 'POS 172', scopes: ['orders'], stores: ['172'] });
      for (const field of ['name', 'scopes', 'stores', 'active']) {
        // null is outside the schema: sent raw.
        const refused = await t.http.request<{ error: string; details: Array<{ field: string }> }>(
          'PATCH',
          `/admin/clients/${created.clientId}`,
          { [field]: null },
          { token: await t.adminToken() },
        );
        expect([refused.status, refused.body.error]).toEqual([400, 'VALIDATION_FAILED']);
        expect(new Set(refused.body.details.map((detail) => detail.field))).toEqual(new Set([field]));
      }
      const { secret: _secret, ...unchanged } = created;
      expect(ok(await t.api.GET('/api/admin/clients/{clientId}', { params: { path: { clientId: created.clientId } } }), 200)).toEqual(
        unchanged,
      );
    });

    it('404 for an unknown client', async () => {
      const path = { clientId: '999999999' };
      expect(failed(await t.api.GET('/api/admin/clients/{clientId}', { params: { path } }), 404)).toEqual({
        error: 'NOT_FOUND',
        message: 'Client 999999999 not found',
      });
      expect(failed(await t.api.PATCH('/api/admin/clients/{clientId}', { params: { path }, body: { name: 'x' } }), 404).error).toBe(
        'NOT_FOUND',
      );
      expect(failed(await t.api.POST('/api/admin/clients/{clientId}/secret', { params: { path }, body: {} }), 404).error).toBe('NOT_FOUND');
    });

    it('403 for a client without admin', async () => {
      const orders = await t.tokenFor(['orders']);
      expect(failed(await t.apiAs(orders).GET('/api/admin/clients', {}), 403).error).toBe('FORBIDDEN');
    });
  });

  describe('secret rotation', () => {
    it('without grace, the old secret stops at once (login, token, Basic) and the new one works', async () => {
      const created = await create({ name: 'rotate now', scopes: ['orders', 'platform'] });
      const path = { clientId: created.clientId };
      const rotated = ok(await t.api.POST('/api/admin/clients/{clientId}/secret', { params: { path }, body: {} }), 200);
      expect(rotated).toEqual({ clientId: created.clientId, secret: expect.any(String), previousSecretValidUntil: null });
      expect(rotated.secret).not.toBe(created.secret);
      expect((await login(created.clientId, created.secret)).response.status).toBe(401);
      expect((await basicToken(created.clientId, created.secret)).status).toBe(401);
      ok(await login(created.clientId, rotated.secret), 200);
      expect((await basicToken(created.clientId, rotated.secret)).status).toBe(200);

      const event = (await clientEvents(created.clientId)).find((each) => each.action === 'rotate-secret');
      expect(event?.changes).toEqual({ graceUntil: { before: null, after: null } });
      expect(JSON.stringify(event)).not.toContain(rotated.secret);
    });

    it('with grace, both secrets work until it ends, then only the new one', async () => {
      const created = await create({ name: 'rotate later', scopes: ['orders', 'platform'] });
      const path = { clientId: created.clientId };
      const before = Date.now();
      const rotated = ok(await t.api.POST('/api/admin/clients/{clientId}/secret', { params: { path }, body: { graceSeconds: 600 } }), 200);
      const until = Date.parse(rotated.previousSecretValidUntil!);
      expect(until).toBeGreaterThanOrEqual(before + 600_000);
      expect(until).toBeLessThanOrEqual(Date.now() + 600_000);
      ok(await login(created.clientId, created.secret), 200);
      expect((await basicToken(created.clientId, created.secret)).status).toBe(200);
      ok(await login(created.clientId, rotated.secret), 200);

      // The grace period over (its end moved to the past rather than waited for).
      await t.dataSource
        .getRepository(ApiClientEntity)
        .update({ clientId: created.clientId }, { previousSecretValidUntil: new Date(Date.now() - 1000) });
      expect((await login(created.clientId, created.secret)).response.status).toBe(401);
      ok(await login(created.clientId, rotated.secret), 200);
    });

    it('400 for a grace period over a week or negative', async () => {
      const created = await create({ name: 'rotate bad', scopes: ['orders'] });
      const path = { clientId: created.clientId };
      for (const graceSeconds of [604_801, -1]) {
        expect(
          failed(await t.api.POST('/api/admin/clients/{clientId}/secret', { params: { path }, body: { graceSeconds } }), 400).error,
        ).toBe('VALIDATION_FAILED');
      }
      ok(await login(created.clientId, created.secret), 200);
    });
  });

  describe('CLI', () => {
    it('clients:create --stores, clients:list, clients:update and clients:rotate-secret --grace-seconds', async () => {
      const created = await runCli(['clients:create', '--name', 'POS CLI', '--scopes', 'orders', '--stores', '162,163'], t.databaseUrl);
      expect(created.code).toBe(0);
      const clientId = /client_id:\s+(\d+)/.exec(created.stdout)![1]!;
      const secret = /client_secret:\s+(\S+)/.exec(created.stdout)![1]!;
      expect(created.stdout).toContain('stores:        162,163');
      ok(await login(clientId, secret), 200);

      const listed = await runCli(['clients:list'], t.databaseUrl);
      expect(listed.stdout.split('\n')).toContain(`${clientId}\tactive\torders\t162,163\tPOS CLI`);
      expect(listed.stdout).not.toContain(secret);

      expect((await runCli(['clients:create', '--name', 'bad', '--scopes', 'admin', '--stores', '162'], t.databaseUrl)).code).toBe(64);

      expect((await runCli(['clients:update', '--id', clientId, '--stores', '164'], t.databaseUrl)).code).toBe(0);
      expect((await t.dataSource.getRepository(ApiClientEntity).findOneByOrFail({ clientId })).stores).toEqual(['164']);
      expect((await runCli(['clients:update', '--id', clientId, '--all-stores'], t.databaseUrl)).code).toBe(0);
      expect((await t.dataSource.getRepository(ApiClientEntity).findOneByOrFail({ clientId })).stores).toEqual([]);

      const rotated = await runCli(['clients:rotate-secret', '--id', clientId, '--grace-seconds', '60'], t.databaseUrl);
      expect(rotated.code).toBe(0);
      expect(rotated.stdout).toMatch(/The previous secret works until \d{4}-/);
      const newSecret = /client_secret:\s+(\S+)/.exec(rotated.stdout)![1]!;
      ok(await login(clientId, secret), 200);
      ok(await login(clientId, newSecret), 200);

      const now = await runCli(['clients:rotate-secret', '--id', clientId], t.databaseUrl);
      expect(now.stdout).toContain('The previous secret no longer works.');
      expect((await login(clientId, newSecret)).response.status).toBe(401);
      expect((await runCli(['clients:rotate-secret', '--id', clientId, '--grace-seconds', '604801'], t.databaseUrl)).code).toBe(64);
    });

    it('refuses what the API refuses, naming the option, and an id that exists, in words', async () => {
      const usage = (option: string, problem: string) => ({
        code: 64,
        stderr: expect.stringMatching(new RegExp(`^--${option}: ${problem}\\n`)),
      });
      const cli = async (args: string[]) => {
        const { code, stderr } = await runCli(args, t.databaseUrl);
        return { code, stderr };
      };
      expect(await cli(['clients:create', '--name', 'n'.repeat(201), '--scopes', 'orders'])).toEqual(
        usage('name', 'must be shorter than or equal to 200 characters'),
      );
      expect(await cli(['clients:create', '--name', 'POS refused', '--scopes', 'orders', '--stores', `162,${'9'.repeat(5000)}`])).toEqual(
        usage('stores', 'each value in stores must be longer than or equal to 1 and shorter than or equal to 100 characters'),
      );
      const existing = await create({ name: 'POS 175', scopes: ['orders'] });
      expect(await cli(['clients:update', '--id', existing.clientId, '--name', 'n'.repeat(201)])).toEqual(
        usage('name', 'must be shorter than or equal to 200 characters'),
      );
      expect(await cli(['clients:create', '--name', 'Again', '--scopes', 'orders', '--id', existing.clientId])).toEqual({
        code: 1,
        stderr: `client id ${existing.clientId} already exists\n`,
      });
      // Nothing was written by the refused commands.
      expect(await t.dataSource.getRepository(ApiClientEntity).findOneByOrFail({ clientId: existing.clientId })).toMatchObject({
        name: 'POS 175',
      });
      expect(await t.dataSource.getRepository(ApiClientEntity).countBy({ name: 'POS refused' })).toBe(0);
    });
  });
});
