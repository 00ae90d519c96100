import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { freePort } from '../../src/database/embedded-postgres.js';
import { EXIT_DATABASE_UNREACHABLE } from '../../src/database/database-preflight.js';
import { PROJECT_ROOT } from '../support/service-process.js';
import { createTestDatabase } from '../setup/test-database.js';

function runCli(args: string[], databaseUrl: string): Promise<{ code: number; stderr: string }> {
  const env: Record<string, string | undefined> = { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl };
  delete env.LOG_LEVEL;
  return new Promise((done) => {
    execFile(process.execPath, ['dist/src/cli/main.js', ...args], { cwd: PROJECT_ROOT, env, timeout: 30_000 }, (error, _stdout, stderr) =>
      done({ code: error ? Number(error.code) : 0, stderr }),
    );
  });
}

/**
 * A database that could not be reached gave 20 s of stack traces, never naming
 * DATABASE_URL, and errors that no retry fixes (a bad password, an unknown database) were
 * retried anyway. Now: one line naming the variable and the cause, and a distinct exit code.
 */
async function startWith(databaseUrl: string, port?: number): Promise<{ code: number | null; lines: string[] }> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, NODE_OPTIONS: '', DATABASE_URL: databaseUrl, PORT: String(port ?? (await freePort())), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  // 'close', not 'exit': the fatal line may still be in the pipe when the process has exited.
  const [code] = (await once(child, 'close')) as [number | null];
  clearTimeout(timer);
  return { code, lines: output.split('\n').filter(Boolean) };
}

describe('a start whose database cannot be reached (e2e)', () => {
  const admin = new URL(process.env.TEST_PG_ADMIN_URL!);

  it.each([
    ['a wrong password', () => Object.assign(new URL(admin), { password: 'not-the-password' }), /the password is wrong/],
    [
      'a database that does not exist',
      () => Object.assign(new URL(admin), { pathname: '/no_such_database' }),
      /the database does not exist/,
    ],
  ])(
    'exits at once with one line naming DATABASE_URL and the cause: %s',
    async (_case, url, cause) => {
      const { code, lines } = await startWith(url().toString());
      expect(code).toBe(EXIT_DATABASE_UNREACHABLE);
      const fatal = lines.filter((line) => line.includes('"level":60'));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toContain('DATABASE_URL');
      expect(fatal[0]).toMatch(cause);
      expect(fatal[0]).not.toContain('not-the-password');
      // No stack trace and no retry of something a retry cannot fix.
      expect(lines.join('\n')).not.toMatch(/\n\s+at /);
      expect(lines.filter((line) => line.includes('retrying'))).toHaveLength(0);
    },
    40_000,
  );

  it('says the port is in use, with exit code 75 and no database noise, when PORT is taken', async () => {
    const database = await createTestDatabase();
    const taken = createServer();
    await new Promise<void>((listening) => taken.listen(0, '127.0.0.1', listening));
    try {
      const { port } = taken.address() as AddressInfo;
      const { code, lines } = await startWith(database.url, port);
      expect(code).toBe(75);
      const fatal = lines.filter((line) => line.includes('"level":60'));
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toContain(`port ${port}`);
      // Nest reports the listen error too; nothing speaks of the database.
      expect(lines.filter((line) => /"level":[56]\d/.test(line) && /database|postgres|pool|connection|terminat/i.test(line))).toEqual([]);
    } finally {
      taken.close();
      await database.drop();
    }
  }, 40_000);
});

describe('a CLI command whose database cannot be reached (e2e)', () => {
  const admin = new URL(process.env.TEST_PG_ADMIN_URL!);

  it('says so in one sentence naming the address and the code, with exit code 69, at once', async () => {
    const port = await freePort();
    const refused = await runCli(['clients:list'], `postgres://nobody:secret@127.0.0.1:${port}/none`);
    expect(refused).toEqual({
      code: EXIT_DATABASE_UNREACHABLE,
      stderr: `cannot connect to the database at 127.0.0.1:${port} (DATABASE_URL postgres://nobody@127.0.0.1:${port}/none): nothing accepts connections there (ECONNREFUSED)\n`,
    });

    const wrongPassword = await runCli(['clients:list'], Object.assign(new URL(admin), { password: 'not-the-password' }).toString());
    expect(wrongPassword.code).toBe(EXIT_DATABASE_UNREACHABLE);
    // The test cluster is reached through its socket directory, which stands for the host.
    expect(wrongPassword.stderr).toMatch(
      /^cannot connect to the database at \S+:\d+ \(DATABASE_URL postgres:\/\/[^@\s:]+@\S+\): the password is wrong \(28P01\)\n$/,
    );
    expect(wrongPassword.stderr).not.toContain('not-the-password');
  }, 40_000);
});
