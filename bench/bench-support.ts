import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '../src/database/embedded-postgres.js';
import { developmentClientToken, HttpClient } from '../test/support/http.js';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ChildServer {
  child: ChildProcess;
  url: string;
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** The node flags of `npm start` (the checkout's package.json), so that benchmarks run a service as it runs in production. */
export function startScriptNodeArgs(root = PROJECT_ROOT): string[] {
  const start = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  return start.split(' ').filter((part) => part.startsWith('--'));
}

/**
 * Starts the service as `npm start` does, on a free port, and waits until /api/health/ready answers 200.
 * `root` runs another built checkout instead (a benchmark comparing two commits side by side).
 */
export async function startService(
  env: Record<string, string>,
  nodeArgs: string[] = [],
  root = PROJECT_ROOT,
  onStdoutLine?: (line: string) => void,
): Promise<ChildServer> {
  const port = await freePort();
  const server = await startChild(
    'dist/src/main.js',
    { ...env, PORT: String(port), HOST: '127.0.0.1' },
    [],
    false,
    [...startScriptNodeArgs(root), ...nodeArgs],
    root,
    onStdoutLine,
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${url}/api/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { ...server, url };
    if (Date.now() > deadline || server.child.exitCode !== null) throw new Error('the service did not become ready');
    await new Promise((done) => setTimeout(done, 200));
  }
}

/**
 * Starts a node script; with `announces`, waits for it to print `LISTENING <url>`. A script that does not announce
 * itself has its output read line by line by `onStdoutLine` (node's `--trace-gc-nvp` writes there), or discarded.
 */
export async function startChild(
  script: string,
  env: Record<string, string>,
  args: string[] = [],
  announces = true,
  nodeArgs: string[] = [],
  root = PROJECT_ROOT,
  onStdoutLine?: (line: string) => void,
): Promise<ChildServer> {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    cwd: root,
    env: { ...process.env, NODE_OPTIONS: '', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!announces) {
    if (onStdoutLine) createInterface({ input: child.stdout! }).on('line', onStdoutLine);
    else child.stdout!.resume();
    return { child, url: '', stop: () => stopChild(child) };
  }
  const url = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not start`)), 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      for (const line of buffered.split('\n')) {
        const plain = /^LISTENING (\S+)/.exec(line);
        if (plain) {
          clearTimeout(timer);
          resolve(plain[1]!);
        }
      }
      buffered = buffered.slice(buffered.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  child.stdout!.resume();
  return { child, url, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

/**
 * CPU time (user + system) a process has used so far, in milliseconds, from /proc (Linux). On a shared machine
 * a run's req/s moves with the neighbours' load; the CPU each request costs moves much less.
 */
export function processCpuMs(pid: number | undefined): number | undefined {
  const fields = pid === undefined ? undefined : statFields(pid);
  // utime field 14, stime field 15 (1-based in proc(5)).
  return fields && ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The fields of `/proc/<pid>/stat` after "pid (comm) ": index 0 is field 3 of proc(5). Undefined once the process is gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}

/** A live process's parent (ppid, field 4 of proc(5)). */
export function parentPid(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields && Number(fields[1]);
}
/**
 * CPU time of a process and its children (PostgreSQL's postmaster and its backends), in milliseconds: the live
 * children's time plus what the exited ones left in the parent's cutime/cstime. A child reaped while its siblings
 * are read would be counted in neither (a backend closed by an idle pool holds seconds of CPU): the reading is
 * taken again until the parent's cutime/cstime did not move during it.
 */
export function processTreeCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  // After "pid (comm) ": ppid is field 4, utime/stime 14/15, cutime/cstime 16/17 (1-based in proc(5)).
  const total = (fields: string[]) => Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  const reaped = (fields: string[]) => Number(fields[13]) + Number(fields[14]);
  for (let attempt = 1; ; attempt++) {
    const own = statFields(String(pid));
    if (!own) return undefined;
    let ticks = total(own);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = statFields(entry);
      if (fields && Number(fields[1]) === pid) ticks += total(fields);
    }
    const after = statFields(String(pid));
    if (!after) return undefined;
    if (reaped(after) === reaped(own) || attempt === 5) return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
  }
}

/** The highest resident set size a process has had so far (`VmHWM`, Linux), in MiB. */
export function processPeakRssMiB(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const kilobytes = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kilobytes === undefined ? undefined : Math.round(Number(kilobytes) / 1024);
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export function formatMs(value: number): string {
  return `${value.toFixed(1)} ms`;
}

/** A bearer token of the development client, which a development start creates. */
export function developmentToken(serviceUrl: string): Promise<string> {
  return developmentClientToken(new HttpClient(`${serviceUrl}/api`));
}
