import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Schemas } from '../support/api.js';
import { HttpClient } from '../support/http.js';
import { isProcessAlive, PROJECT_ROOT, startServiceProcess } from '../support/service-process.js';

const execFileAsync = promisify(execFile);

/** The service as `npm start` runs it: embedded PostgreSQL, no server installed by hand. */
describe('the service process with its embedded PostgreSQL (e2e)', () => {
  let directory: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'service-process-'));
    env = { EMBEDDED_DB_DIR: join(directory, 'postgres'), DATABASE_URL: '', JWT_SECRET: 'process-test-secret-process-test-secret-01' };
  });
  afterAll(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('starts on an empty data directory, keeps data across a restart and leaves no postgres behind', async () => {
    const cold = await startServiceProcess(env);
    let postgresPid: number;
    try {
      const http = new HttpClient(cold.baseUrl);
      expect((await http.get('/health/ready')).status).toBe(200);
      expect((await http.get('/health/live')).body).toEqual({ status: 'ok' });

      // The CLI attaches to the running service's database.
      const { stdout } = await execFileAsync(
        process.execPath,
        ['dist/src/cli/main.js', 'clients:create', '--name', 'process test', '--scopes', 'admin'],
        {
          cwd: PROJECT_ROOT,
          env: { ...process.env, ...env, NODE_OPTIONS: '' },
        },
      );
      const clientId = /client_id:\s+(\d+)/.exec(stdout)![1]!;
      const clientSecret = /client_secret:\s+(\S+)/.exec(stdout)![1]!;
      expect(
        (
          await http.post<Schemas['LoginResponseDto']>('/authentication/login', {
            client_id: clientId,
            client_secret: clientSecret,
            grant_type: 'client_credentials',
          })
        ).status,
      ).toBe(200);
      env.CLIENT_ID = clientId;
      env.CLIENT_SECRET = clientSecret;
      postgresPid = Number((await readFile(join(env.EMBEDDED_DB_DIR!, 'postmaster.pid'), 'utf8')).split('\n')[0]);
      expect(isProcessAlive(postgresPid)).toBe(true);
    } finally {
      expect(await cold.stop('SIGTERM')).toBe(0);
    }
    expect(isProcessAlive(postgresPid)).toBe(false);
    expect(cold.logs.some((line) => line.includes('service stopped'))).toBe(true);

    const warm = await startServiceProcess(env);
    try {
      const http = new HttpClient(warm.baseUrl);
      const login = await http.post<Schemas['LoginResponseDto']>('/authentication/login', {
        client_id: env.CLIENT_ID,
        client_secret: env.CLIENT_SECRET,
        grant_type: 'client_credentials',
      });
      expect(login.status).toBe(200);
    } finally {
      expect(await warm.stop('SIGINT')).toBe(0);
    }
    process.stdout.write(`[service-process] cold start ${cold.startMs} ms, warm start ${warm.startMs} ms\n`);
  });

  it('refuses to start with a clear message naming a bad variable', async () => {
    await expect(startServiceProcess({ ...env, DB_MIGRATE: 'maybe', LOG_LEVEL: 'loud' }, 20_000)).rejects.toThrow(
      /DB_MIGRATE must be true or false[\s\S]*LOG_LEVEL must be one of/,
    );
  });
});
