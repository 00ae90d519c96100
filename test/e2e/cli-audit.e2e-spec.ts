import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Schemas } from '../support/api.js';
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

interface EventRow {
  actor_type: string;
  actor_id: string;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  changes: Record<string, { before: unknown; after: unknown }>;
  request_id: string | null;
  address: string | null;
}

/** Every change made with the CLI is in the audit log, with the CLI's actor and without any secret. */
describe('The CLI in the audit log (e2e)', () => {
  let t: TestApp;
  let directory: string;
  const osUser = userInfo().username;
  const cliActor = {
    actor_type: 'user',
    actor_id: `cli:${osUser}`,
    actor_name: `${osUser} (command line)`,
    request_id: null,
    address: null,
  };
  const events = (targetType: string, targetId: string): Promise<EventRow[]> =>
    t.dataSource.query(
      `SELECT actor_type, actor_id, actor_name, action, target_type, target_id, changes, request_id, address FROM audit_event
        WHERE target_type = $1 AND target_id = $2 ORDER BY id`,
      [targetType, targetId],
    );
  const cli = async (args: string[]) => {
    const run = await runCli(args, t.databaseUrl);
    // The error output is in the comparison only to show why a command failed.
    expect({ args, code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ args, code: 0, stderr: '' });
    return run.stdout;
  };

  beforeAll(async () => {
    t = await bootTestApp();
    directory = await mkdtemp(join(tmpdir(), 'cli-audit-'));
  });
  afterAll(async () => {
    await t?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('clients:create, clients:update, clients:rotate-secret, clients:deactivate and clients:activate', async () => {
    const created = await cli(['clients:create', '--name', 'POS audited', '--scopes', 'orders', '--stores', '162']);
    const clientId = /client_id:\s+(\d+)/.exec(created)![1]!;
    const secrets = [/client_secret:\s+(\S+)/.exec(created)![1]!];
    await cli(['clients:update', '--id', clientId, '--stores', '162,163', '--name', 'POS audited 2']);
    secrets.push(/client_secret:\s+(\S+)/.exec(await cli(['clients:rotate-secret', '--id', clientId, '--grace-seconds', '60']))![1]!);
    secrets.push(/client_secret:\s+(\S+)/.exec(await cli(['clients:rotate-secret', '--id', clientId]))![1]!);
    await cli(['clients:deactivate', '--id', clientId]);
    await cli(['clients:activate', '--id', clientId]);

    const rows = await events('client', clientId);
    expect(rows.map((row) => row.action)).toEqual(['create', 'update', 'rotate-secret', 'rotate-secret', 'update', 'update']);
    for (const row of rows) expect(row).toMatchObject(cliActor);
    expect(rows[0]!.changes).toEqual({
      name: { before: null, after: 'POS audited' },
      scopes: { before: null, after: ['orders'] },
      stores: { before: null, after: ['162'] },
      active: { before: null, after: true },
    });
    expect(rows[1]!.changes).toEqual({
      name: { before: 'POS audited', after: 'POS audited 2' },
      stores: { before: ['162'], after: ['162', '163'] },
    });
    expect(rows[2]!.changes.graceUntil!.after).toEqual(expect.stringMatching(/^\d{4}-/));
    expect(rows[3]!.changes).toEqual({ graceUntil: { before: null, after: null } });
    expect(rows[4]!.changes).toEqual({ active: { before: true, after: false } });
    expect(rows[5]!.changes).toEqual({ active: { before: false, after: true } });
    const text = JSON.stringify(rows);
    for (const secret of secrets) expect(text).not.toContain(secret);

    // A command that fails changes nothing and records nothing.
    expect((await runCli(['clients:update', '--id', clientId, '--scopes', 'admin'], t.databaseUrl)).code).not.toBe(0);
    expect(await events('client', clientId)).toHaveLength(6);
  });

  it('users:create and users:link, never the link', async () => {
    const email = `cli-audit-${process.pid}@example.com`;
    const created = await cli(['users:create', '--email', email, '--name', 'Ana CLI', '--role', 'fiscal']);
    const linked = await cli(['users:link', '--email', email]);
    const [{ id }] = await t.dataSource.query<Array<{ id: string }>>('SELECT id FROM app_user WHERE email = $1', [email]);

    const rows = await events('user', id);
    expect(rows.map((row) => row.action)).toEqual(['create', 'issue-link', 'issue-link']);
    for (const row of rows) expect(row).toMatchObject(cliActor);
    expect(rows[0]!.changes).toMatchObject({ email: { before: null, after: email }, role: { before: null, after: 'fiscal' } });
    const text = JSON.stringify(rows);
    for (const link of [created, linked].map((out) => /#(\S+)/.exec(out)![1]!)) expect(text).not.toContain(link);
  });

  it('tax-matrix:import', async () => {
    const token = await t.adminToken();
    const group = await t.http.post<Schemas['FiscalGroupResponseDto']>(
      '/admin/fiscal-groups',
      { name: 'CLI audited import', uf: 'MG', stores: [{ store_id: `cli-audit-${process.pid}`, store_name: 'x' }], taxMatrix: {} },
      { token },
    );
    expect(group.status).toBe(201);
    const file = join(directory, 'matrix.csv');
    await writeFile(
      file,
      ['NCM,CEST,CST_ICMS,ICMS_rate,CST_PIS,PIS_rate,CST_COFINS,COFINS_rate,CFOP', '22021000,,00,18,01,0.65,01,3,5102'].join('\n'),
    );
    await cli(['tax-matrix:import', '--group', group.body.id, file]);

    const rows = (await events('fiscal-group', group.body.id)).filter((row) => row.action === 'import-matrix');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject(cliActor);
    expect(rows[0]!.changes['taxMatrix.22021000']).toMatchObject({ before: null, after: expect.objectContaining({ NCM: '22021000' }) });
  });
});
